/*
 * The views that explain a diff, as pprof's -list and -peek explain a
 * profile.
 *
 *   --list RE	for each function whose name matches RE on either side,
 *		its flat and cum line by line on both sides, and the
 *		change; each line's flat and cum sample counts are
 *		hypotheses of a family of their own (judge.h), apart from
 *		the rows', so that a line is "regressed" only when its own
 *		counts show it.
 *   --peek RE	for each row whose name matches RE, the edges into it
 *		(its callers) and out of it (its callees) on both sides,
 *		each neighbour with its own row's verdict.
 *
 * The rows keep no lines, so --list needs its own folding: a collector
 * per side (struct views_lines) that agg.c's hook (agg_sample_hook())
 * hands each folded sample, and that keeps the lines of the matching
 * functions only.  Without --list nothing of it exists.  No I/O here
 * (the source text is read by the report, report_views.c), nothing
 * about formats.
 */
#ifndef VIEWS_H
#define VIEWS_H

#include <stddef.h>
#include <stdint.h>

#include "core/agg.h"
#include "core/delta.h"
#include "core/judge.h"

struct diag;
struct profile;
struct pf_sample;

/* --list and --peek, compiled once for both sides. */
struct views_spec;

/*
 * Compile the expressions (either may be NULL) into *out, which stays
 * NULL when both are.  Returns 0, or -1 with the diag (DIAG_USAGE,
 * naming the option) on a bad expression.
 */
int	views_spec_new(const char *list, const char *peek,
	    struct views_spec **out, struct diag *);
void	views_spec_free(struct views_spec *);	/* NULL is a no-op */
/* Is there a --list, so that the sides must collect lines? */
int	views_spec_lists(const struct views_spec *);

/*
 * One side's lines of the functions --list matches.  noinlines takes
 * only the outermost line of each location, as the agg does.  The
 * counts are also kept profile by profile, nprofiles of them, for the
 * tests between replicates.  The
 * spec is borrowed and only read: the two sides' collectors may run on
 * two threads.
 */
struct views_lines;

struct views_lines *views_lines_new(const struct views_spec *, int noinlines,
	    size_t nprofiles);
void	views_lines_free(struct views_lines *);	/* NULL is a no-op */
/*
 * Folding a profile: views_lines_begin() before its first sample (p's
 * header must stay as it is until views_lines_end()), then
 * views_lines_sample() as agg_sample_hook()'s function, with the
 * collector as its context.
 */
void	views_lines_begin(struct views_lines *, const struct profile *p);
void	views_lines_sample(void *vl, const struct pf_sample *s, size_t lo,
	    const size_t *lineoff, const int64_t w[AGG_NCOLS]);
void	views_lines_end(struct views_lines *);

/* One line of a listed function, both sides. */
struct view_line {
	int64_t		 line;
	int64_t		 base_flat, new_flat;	/* values */
	int64_t		 base_cum, new_cum;
	int64_t		 base_flat_count, new_flat_count;
	int64_t		 base_count, new_count;	/* cum sample counts */
	double		 base_flat_n, new_flat_n;	/* normalized */
	double		 base_cum_n, new_cum_n;
	double		 delta_flat, delta;	/* new - base, normalized */
	struct judge_hyp flat, cum;	/* tested when the lines are */
	const int64_t	*bruns, *nruns;	/* per profile: flat, cum counts */
	int		 same;		/* flat and cum are one hypothesis */
	int		 hyp;		/* DELTA_HYP_* that flagged it */
	enum verdict	 verdict;	/* VERDICT_* but crowded */
};

/* A function of --list, in one file. */
struct view_list {
	const char	*name;		/* the function's */
	const char	*file;		/* "" when the profile has none */
	int64_t		 base_flat, new_flat, base_cum, new_cum;
	double		 base_flat_n, new_flat_n, base_cum_n, new_cum_n;
	double		 delta_flat, delta;
	long		 row;		/* the row of this name, or -1 */
	struct view_line *lines;	/* by line number */
	size_t		 nlines;
};

/* A neighbour of a peeked row: an edge and its other end. */
struct view_edge {
	size_t		 row;		/* the neighbour's row */
	const char	*name;		/* its name */
	int64_t		 base, new;	/* values through the edge */
	double		 base_n, new_n, delta;	/* normalized */
};

struct view_peek {
	size_t		 row;
	struct view_edge *callers;	/* most change first */
	size_t		 ncallers;
	struct view_edge *callees;
	size_t		 ncallees;
};

struct views {
	const char	*list_re, *peek_re;	/* NULL: not asked */
	struct view_list *lists;	/* by name, then file */
	size_t		 nlists;
	struct view_line *store;	/* every list's lines */
	/* The lines' family: tested when there are sample counts. */
	int		 tested;
	struct judge	 judge;
	size_t		 nhyp;
	struct view_peek *peeks;	/* by the change of cum, then name */
	size_t		 npeeks;
};

/* The single profiles behind each side, as delta_compute() takes them. */
struct views_runs {
	struct agg *const *be, *const *ne;
	size_t		 nb, nn;
};

/*
 * The views of a diff d computed under o, from the two sides' line
 * collectors (NULL without --list), tested between replicates as the
 * rows are when vr's sides have two profiles or more each.  The names are borrowed from the
 * collectors and from d's rows: they must outlive v.  Returns 0, or -1
 * if a line's counts are invalid for the statistics.
 */
int	views_compute(struct views *v, const struct views_spec *,
	    const struct views_lines *base, const struct views_lines *new,
	    const struct views_runs *vr, struct delta *d,
	    const struct delta_opts *o);
void	views_release(struct views *);

#endif

/*
 * One side of a comparison, or both at once (or the input of top):
 * profiles loaded one at a time, checked against each other and folded
 * into one aggregate, each sample as it is read off the wire, so that
 * memory holds a profile's inflated bytes and header but never its
 * samples decoded; then the warnings about what was loaded.  It takes
 * its own options (struct load_opts), not the CLI's.  It prints
 * nothing: on error it fills a struct diag naming the file and returns
 * -1, and its warnings are messages of the table (msg.h) added to a
 * list (struct diags), for the commands to print and report.
 */
#ifndef LOAD_H
#define LOAD_H

#include <stddef.h>

#include "core/agg.h"
#include "core/facts.h"
#include "core/filter.h"
#include "core/kind.h"
#include "load/selection.h"
#include "profdiff.h"
#include "model/profile.h"
#include "core/views.h"
#include "support/diag.h"
#include "symbol/symbol.h"

/*
 * What loading needs to know, filled by the CLI from its options: the
 * sample type (-i), how stacks are aggregated, the input limits, and
 * the filters compiled once for every profile.
 */
struct load_opts {
	const char		*sample_index;	/* NULL: pprof's default */
	struct agg_opts		 agg;
	struct pd_limits	 limits;
	const struct filter	*filter;	/* borrowed; NULL: none */
	/*
	 * --base: per profile of the side, an earlier cumulative snapshot
	 * of the same process to subtract from it, so that the profile is
	 * the window between them; minus_new is the new side's, which
	 * side_load_pair() gives that side as its minus.  NULL: none.
	 */
	char *const		*minus;
	char *const		*minus_new;
	/*
	 * --base-tag, --new-tag: which samples of each profile are the
	 * side's (selection.h); NULL: all.  select_new is the new side's,
	 * which side_load_pair() gives that side as its select.  When both
	 * sides are one profile, select_other is the new side's for the
	 * base side to run too, counting the samples both select
	 * (selection_stats.both).  Borrowed.
	 */
	const struct selection	*select;
	const struct selection	*select_new;
	const struct selection	*select_other;
	/*
	 * Keep the aggregates' moments (agg_want_moments()) when the sample
	 * type is not time-sliced (kind.h): its values' intervals need
	 * them.  diff and check-significance set it.
	 */
	int			 moments;
	/*
	 * Leave a mutex profile's contentions as they are instead of
	 * dividing them by their greatest common divisor: the caller
	 * divides the sides it compares alike (side_divide_counts()), or
	 * keeps the estimates (series: its points are gone before the
	 * divisor of them all is known).
	 */
	int			 keep_counts;
	const struct views_spec	*views;		/* --list, --peek; or NULL */
	/*
	 * Where the binaries of locations that have addresses and no
	 * names are looked for (symbol.h); each profile is symbolized
	 * after its header is read, before anything else sees it.
	 */
	struct sym_opts		 sym;
	/*
	 * The files read for it, shared by the sides loaded one after
	 * another with these options (series' points), so that each
	 * binary is opened and indexed once; NULL: a cache per side.
	 */
	struct sym_cache	*sym_cache;
};

struct side {
	struct agg	*agg;		/* all profiles merged */
	struct agg	**each;		/* one per profile, when kept */
	/*
	 * With a selection of parts (selection_parts(): spans), one
	 * aggregate per part, of nodes and tree only (no edges): the
	 * replicates of the side, over all its profiles.
	 */
	struct agg	**parts;
	size_t		 nparts;
	struct facts	*facts;		/* one per profile */
	size_t		 nprofiles;
	struct facts	 merged;
	char		*sample_type;	/* resolved name, owned */
	char		*unit;
	int		 has_counts;	/* every profile had a count source */
	int64_t		 count_gcd;	/* of the count type's values, or 0 */
	/*
	 * Where counts are value / period: the greatest common divisor of
	 * the values (0 while none), the least value, and how many records
	 * hold it, of how many with a value; quanta is 0 once a profile
	 * took its counts from elsewhere (requantize()).
	 */
	int64_t		 quantum, qmin, qmin_n, qrec;
	int		 quanta;
	int		 kind;		/* enum kind of the sample type */
	const char	*kind_why;	/* kind_of()'s reason, for people */
	int		 waits;		/* kind_waits() of the sample type */
	enum pf_format	 format;	/* of the first profile */
	struct filter_stats fstats;	/* what the filter did, all profiles */
	/*
	 * With a selection (load_opts.select): what it did, and each
	 * profile's facts before it (those of the whole profile, which
	 * facts describe the selection); whole is NULL without one.
	 */
	struct selection_stats sel;
	struct facts	*whole;
	const char	*label_key;	/* --by-label, borrowed; or NULL */
	struct views_lines *lines;	/* --list's lines, or NULL */
	const char	*other_path;	/* the first profile whose own default */
	char		*other_default;	/*   type is not the one read, and that
					   type (owned); NULL if none, or -i */
	const char	*other_from;	/* whose type was read instead */
	/*
	 * Go's mutex and block profiles share one header: when every
	 * profile of the side has it (wait_go), the contentions of its
	 * samples by their leaf's family (enum kind_wait, the last the
	 * total), --base's snapshots left out, and the samples a
	 * selection leaves out included.  wait_go: 0 before the first
	 * profile, 1 while every profile had the header, -1 once one
	 * did not.
	 */
	int		 wait_go;
	double		 wait_weight[4];
	/*
	 * What symbolization did, mapping by mapping, over the side's
	 * profiles (and --base's snapshots).
	 */
	struct sym_summary sym;
};

/*
 * Load paths into s, decoding on a thread of its own ahead of the
 * folding (feed.h), which may hold the next profile's bytes too.  With
 * keep_each, also keep one aggregate per profile (for tests between
 * replicates), of nodes and tree only (no edges).  want_type, if not
 * NULL, is the sample type the other side chose, and overrides -i.
 * Returns 0, or -1 with the diag filled ("path: kind: detail").
 */
int	side_load_ex(struct side *, char *const *paths, size_t n,
	    const struct load_opts *, const char *want_type, int keep_each,
	    struct diag *);
int	side_load(struct side *, char *const *paths, size_t n,
	    const struct load_opts *, struct diag *);
/*
 * Load the two sides of a comparison at once, the new side on a second
 * thread: the same as
 *	side_load_ex(b, bpaths, nb, lo, NULL, keep_each) == -1 ||
 *	side_load_ex(n, npaths, nn, lo, b->sample_type, keep_each) == -1
 * (the new side takes the sample type the base side chose, and
 * lo->minus_new and lo->select_new as its own minus and select), with
 * the same result and the same one error in the diag, the base side's if
 * both fail (each side fills its own, on its own thread); and -1 with
 * the diag of side_comparable() if the two cannot be compared.  Either
 * side may be partly filled on error;
 * side_free() both.
 * Each side reads its profiles on its own thread, without a feed thread
 * (the two cores are taken).  keep_each has effect only when both sides
 * have two profiles or more (replicates); otherwise each stays NULL.
 * A mutex profile's contentions are divided by the greatest common
 * divisor of both sides' (side_divide_counts()).
 */
int	side_load_pair(struct side *b, char *const *bpaths, size_t nb,
	    struct side *n, char *const *npaths, size_t nn,
	    const struct load_opts *, int keep_each, struct diag *);
/*
 * Can s be compared with first, whose sample type it took by name: if
 * both are of Go's mutex/block header, are they of one kind by their
 * leaves (kind_wait_of(); MSG_WAITS_DIFFER when each is surely
 * another), and is s in first's unit (MSG_UNITS_DIFFER)?  Returns 0,
 * or -1 with the diag filled.
 */
int	side_comparable(const struct side *first, const struct side *s,
	    struct diag *);
/*
 * Add MSG_WAITS_UNSURE to ds when they lean to different kinds by their
 * leaves, not surely enough for side_comparable() to refuse them.
 * Returns 1 if it did, else 0.
 */
int	side_warn_wait(const struct side *b, const struct side *n,
	    struct diags *ds);
/*
 * A side's CPU utilization, and its duration in seconds into *secs
 * (unless NULL): its whole profile's when it is one (a selection's CPU
 * is not all the process did); -1 if it is no CPU profile with a
 * duration.
 */
double	side_cpu_util(const struct side *, double *secs);
/*
 * A side's samples whose innermost frame is idle (V8's "(idle)"), kept
 * apart (agg.c) or, for top, a function of the profile, into idle, and
 * all its samples with them into all; 0, or -1 with nothing loaded.
 * No idle sample can be a profiler that marks none.
 */
int	side_idle(const struct side *, int64_t *idle, int64_t *all);
/*
 * Divide the contentions of the n sides, if they are all a mutex
 * profile's that may be estimates, by the greatest common divisor of
 * them all, and say so in their facts (count_note).
 */
void	side_divide_counts(struct side *const *sides, size_t n);
/*
 * Its parts: the greatest common divisor of the n sides' contentions,
 * or 0 if any is not a mutex profile's that may be estimates; and one
 * side divided by g (nothing when g <= 1 or it is not such a side).
 */
int64_t	side_count_divisor(struct side *const *sides, size_t n);
/*
 * counts.c, for load.c's folding: what the divisors above need of one
 * sample (the contentions' divisor, the values' interval).
 */
struct pf_sample;
void	side_count_sample(struct side *, const struct pf_sample *,
	    int gcd_of, int vi);
void	side_divide(struct side *, int64_t g);
/*
 * The filter options that matched nothing on this side, a bit each, in
 * the order of side_unmatched_name(); and a --by-label key that no
 * sample kept carries.  diff and top warn of the first; a CI gate
 * refuses one that matched nothing on both sides (a typo).
 */
#define SIDE_NO_FOCUS		0x01
#define SIDE_NO_IGNORE		0x02
#define SIDE_NO_HIDE		0x04
#define SIDE_NO_SHOW		0x08
#define SIDE_NO_TAG		0x10
#define SIDE_NO_TAG_IGNORE	0x20
#define SIDE_NO_LABEL		0x40
unsigned	side_unmatched(const struct side *);
/* What the lowest bit of mask says, in words, into buf; key: --by-label. */
void		 side_unmatched_say(unsigned mask, const char *key, char *buf,
		    size_t len);
/*
 * Add the warnings about this side to ds, each about side ("base",
 * "new", or NULL when there is one side): filters that matched nothing,
 * too few samples, values that are no counts, a process mostly waiting.
 */
void	side_warn(const struct side *, const char *side, struct diags *ds);
/*
 * The part of it about symbolization: a warning for each mapping of sum
 * whose binary was not found, or was of another build id; file and
 * about as diags_add() takes them.
 */
void	side_warn_symbols(const struct sym_summary *sum, const char *side,
	    const char *file, const char *about, struct diags *ds);
/*
 * The same for both sides of a comparison, the base side's first, then
 * what makes the two hard to compare: windows of different lengths,
 * sampling periods more than PD_PERIOD_SKEW apart, counts that are
 * estimates, no counts, a mutex profile against a block profile by
 * leaves that do not settle it (MSG_WAITS_UNSURE).  norm is the
 * quantity compared (enum delta_norm), which decides whether windows
 * of different lengths matter.  Without waiting, a CPU profile's low
 * utilization alone is not said to mean waiting (MSG_MOSTLY_WAITING,
 * MSG_LOW_UTIL): spans' two sides are one window's, and its section
 * says per span whether they waited.
 */
void	side_warn_pair(const struct side *base, const struct side *new,
	    int norm, int waiting, struct diags *ds);
void	side_free(struct side *);

/* Thresholds behind the warnings; documented in profdiff.1. */
#define PD_FEW_SAMPLES	300	/* fewer samples than this: shares are rough */
#define PD_LOW_UTIL	0.5	/* CPU utilization below this: off CPU a part */
#define PD_CUT_STACKS	0.2	/* samples whose stacks were cut short
				   (roots.h): at least this share, a warning */
#define PD_WAITING_UTIL	0.25	/* ... below this: mostly waiting */
/*
 * ... unless the profile has wall-clock time, and fewer than this share
 * of its samples were idle: then the thread was kept from running.
 */
#define PD_STARVED_IDLE	0.25
#define PD_DURATION_SKEW 0.10	/* windows whose lengths differ more */
#define PD_PERIOD_SKEW	0.10	/* periods that differ more: not jitter */

#endif

/*
 * Joining two aggregates (base and new) into per-function rows: values,
 * shares, the change in points, and a verdict from the sample-count
 * statistics in stats.c, plus the call path that carries a change and
 * the callers that account for it; then the rows a report shows, and
 * check-significance's exit status from the verdicts.  No I/O and no
 * formatting here.
 */
#ifndef DELTA_H
#define DELTA_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

struct agg;
struct delta_graph;

enum verdict {
	VERDICT_REGRESSED = 0,
	VERDICT_IMPROVED,
	VERDICT_UNCHANGED,
	VERDICT_INSUFFICIENT,
};

enum delta_status {
	STATUS_BOTH = 0,
	STATUS_NEW,		/* only in the new profile */
	STATUS_GONE,		/* only in the base profile */
};

enum delta_norm {
	DELTA_NORM_TOTAL = 0,	/* shares of each side's total */
	DELTA_NORM_DURATION,	/* value per second of profile */
	DELTA_NORM_NONE,	/* raw values */
};

struct delta_caller {
	const char	*name;
	int64_t		 base;		/* edge value caller -> function */
	int64_t		 new;
	double		 delta;		/* in the report's normalized unit */
};

struct delta_row {
	const char	*name;
	int64_t		 base_flat, new_flat;	/* values, before normalizing */
	int64_t		 base_cum, new_cum;
	int64_t		 base_count, new_count;	/* cum sample counts */
	double		 base_flat_n, new_flat_n; /* normalized */
	double		 base_cum_n, new_cum_n;
	double		 delta;		/* new_cum_n - base_cum_n */
	double		 delta_flat;	/* new_flat_n - base_flat_n */
	double		 delta_share;	/* change of cum share, whatever norm */
	double		 rel;		/* delta / base_cum_n; HUGE_VAL if new */
	int		 tested;	/* a p-value exists */
	struct stats_result st;		/* on shares, as fractions */
	double		 q;		/* BH-adjusted p, NaN if untested */
	int		 relevant;	/* |change| passes --min-effect */
	enum verdict	 verdict;
	enum delta_status status;
	/* Set by delta_explain(): */
	const char	**path;		/* this function down to the growth */
	size_t		 npath;
	struct delta_caller *callers;	/* most change first */
	size_t		 ncallers;
};

struct delta_opts {
	enum delta_norm	 norm;
	double		 alpha;
	double		 min_effect_pp;		/* points of share */
	double		 min_effect_rel;	/* percent of the base share */
	double		 base_seconds;		/* for DELTA_NORM_DURATION */
	double		 new_seconds;
	int		 has_counts;		/* both sides have counts */
	size_t		 max_callers;
};

struct delta {
	struct delta_row *rows;		/* in node order; the caller sorts */
	size_t		 nrows;
	int64_t		 base_total, new_total;	/* values */
	int64_t		 base_n, new_n;		/* sample counts */
	int		 replicates;		/* Welch between profiles */
	size_t		 ntested;
	double		 mde;		/* min detectable change, share units */
	double		 noise;		/* noise half-width, share units */
	double		 mde_share;	/* the share it was computed at */
	struct delta_graph *graph;	/* for delta_explain() */
};

/*
 * Compute the rows.  base_each/new_each, when both have two or more
 * aggregates, are the single profiles behind base and new, and the test
 * becomes Welch's between profiles.  Returns 0, or -1 if a count is
 * invalid for the statistics (the diag-free core reports nothing else).
 */
int	delta_compute(struct agg *base, struct agg *new,
	    struct agg *const *base_each, size_t nbase,
	    struct agg *const *new_each, size_t nnew,
	    const struct delta_opts *, struct delta *);
/*
 * Give row r its path and callers (struct delta_row), if its verdict is
 * a change; a row explained already is left as it is.  Only the rows a
 * report shows need them, and a diff of a large profile may have
 * thousands of significant rows.  base and new must stay as they are
 * until delta_release(): the edges are read from them.
 */
void	delta_explain(struct delta *, size_t r);
void	delta_release(struct delta *);

/*
 * The per-row machinery of delta_compute(), for anything else that tests
 * cumulative sample counts between the same two sides (the frames of a
 * flame graph): the test, the --min-effect relevance rule, and the
 * verdict once the p-values are adjusted.  The caller collects the
 * p-values of the rows it tested and runs stats_bh() over them.
 *
 * A judge holds the sides' sample totals (one per profile when both
 * sides have two or more, and the test is Welch's between profiles) and
 * scratch space; delta_judge_release() frees it.
 */
struct delta_judge {
	const struct delta_opts *o;		/* borrowed */
	int64_t		 base_n, new_n;		/* sample counts */
	int		 replicates;
	size_t		 nb, nn;		/* profiles per side */
	int64_t		*base_each_n;		/* their sample counts */
	int64_t		*new_each_n;
	double		*scratch;
};

void	delta_judge_init(struct delta_judge *, const struct delta_opts *,
	    const struct agg *base, const struct agg *new,
	    struct agg *const *base_each, size_t nb,
	    struct agg *const *new_each, size_t nn);
void	delta_judge_release(struct delta_judge *);

/*
 * Test k1 samples of base against k2 of new.  With replicates, be[nb]
 * and ne[nn] are the counts of the same row in each profile.  Returns
 * 1 with st filled, 0 when the row cannot be tested (no counts, an
 * empty side), or -1 if a count is invalid for the statistics.
 */
int	delta_judge_test(struct delta_judge *, int64_t k1, int64_t k2,
	    const int64_t *be, const int64_t *ne, struct stats_result *st);

/* Is a change of the cum share from bs to ns at least --min-effect? */
int	delta_judge_relevant(const struct delta_judge *, double bs,
	    double ns);

/*
 * The verdict of a row: untested rows have too few samples; a tested
 * one with q <= alpha that is relevant regressed (delta > 0) or
 * improved; otherwise it is unchanged, unless no split of its k1 + k2
 * samples could have been significant (one profile per side).
 */
enum verdict delta_judge_verdict(const struct delta_judge *, int tested,
	    double q, int relevant, double delta, int64_t k1, int64_t k2);


/*
 * The order of the rows a report shows (--sort): by the magnitude of
 * the change of cum (the default) or flat, by p-value, by name, or by
 * the new cum; then by name.
 */
enum delta_sort {
	DELTA_SORT_DELTA = 0,
	DELTA_SORT_FLAT,
	DELTA_SORT_P,
	DELTA_SORT_NAME,
	DELTA_SORT_NEW,
};

/*
 * Choose the rows a report shows: those with a value on either side
 * (with findings, only those that regressed or improved), in the order
 * how, and of them the first k (0: all), each given its path and
 * callers (delta_explain()).  The k are found with a partial sort: a
 * heap of k rows over thousands.  Returns their row indices in order,
 * which the caller frees, and their number in *nshow.
 */
size_t	*delta_select(struct delta *, enum delta_sort how, int findings,
	    size_t k, size_t *nshow);

/* What fails check-significance (--fail-on). */
enum delta_fail_on {
	DELTA_FAIL_REGRESSION = 0,
	DELTA_FAIL_ANY_CHANGE,		/* an improvement, too */
};

/*
 * check-significance's exit status, from the verdicts: 1 if a row
 * regressed, or improved when fail_on is DELTA_FAIL_ANY_CHANGE; else 3,
 * inconclusive, if there are no counts, nothing was tested, or the
 * minimum detectable change exceeds o's --min-effect (min_effect_pp
 * points, or min_effect_rel percent of the share it was computed at);
 * else 0.  *regressed is set if a row regressed.
 */
int	delta_exit_status(const struct delta *, const struct delta_opts *,
	    enum delta_fail_on fail_on, int *regressed);

#endif

/*
 * Joining two aggregates (base and new) into per-function rows: values,
 * shares, the change in points, and a verdict from the sample-count
 * statistics (judge.h: each row's flat and cumulative counts, tested
 * in one family), plus the call path that carries a change and the
 * callers that account for it; the findings, the changes of the call
 * tree that the rows add up to (findings.c); then the rows a report
 * shows, and check-significance's exit status from the findings.  No
 * I/O and no formatting here.
 */
#ifndef DELTA_H
#define DELTA_H

#include <stddef.h>
#include <stdint.h>

#include "core/judge.h"
#include "stats/stats.h"

struct agg;
struct delta_graph;
struct calls;

enum verdict {
	VERDICT_REGRESSED = 0,
	VERDICT_IMPROVED,
	VERDICT_UNCHANGED,
	VERDICT_INSUFFICIENT,
	VERDICT_CROWDED_OUT,	/* share fell only because a finding grew */
	VERDICT_CROWDED_IN,	/* share rose only because a finding shrank */
};

/* Which of a row's hypotheses flagged it: a bit each. */
#define DELTA_HYP_FLAT	1
#define DELTA_HYP_CUM	2
#define DELTA_HYP_BOTH	3	/* or the two are one hypothesis */
/*
 * Values per count that differ by more than this squared coefficient
 * of variation (10%) are weighed as values (delta_opts.valued): below
 * it, the counts' intervals are within 1% of the values' variance.
 */
#define DELTA_VALUED_CV2	0.01

/* What a row is to the finding it belongs to (findings.c). */
enum delta_role {
	DELTA_ROLE_NONE = 0,
	DELTA_ROLE_SPEND,	/* where the change is spent */
	DELTA_ROLE_CARRIER,	/* an ancestor that changed by containing it */
	DELTA_ROLE_INSIDE,	/* below it, and changed with it */
	DELTA_ROLE_CROWDED,	/* moved only because it did */
	DELTA_ROLE_BACKGROUND,	/* the collector's work its allocations made */
};

enum delta_status {
	STATUS_BOTH = 0,
	STATUS_NEW,		/* only in the new profile */
	STATUS_GONE,		/* only in the base profile */
};

/*
 * The quantity compared.  With shares, a function's samples are tested
 * against its side's total samples; with the others, against the
 * side's exposure (its seconds, its profiles, its requests): Poisson
 * counts over an exposure, compared given their sum, are binomial with
 * the exposures' proportions (doc/statistics.md).
 */
enum delta_norm {
	DELTA_NORM_TOTAL = 0,	/* shares of each side's total */
	DELTA_NORM_DURATION,	/* value per second of window */
	DELTA_NORM_NONE,	/* absolute: the mean of a side's profiles */
	DELTA_NORM_REQUESTS,	/* value per request (--requests) */
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
	int64_t		 base_flat_count, new_flat_count;
	double		 base_flat_n, new_flat_n; /* normalized */
	double		 base_cum_n, new_cum_n;
	double		 delta;		/* new_cum_n - base_cum_n */
	double		 delta_flat;	/* new_flat_n - base_flat_n */
	double		 delta_share;	/* change of cum share, whatever norm */
	double		 delta_flat_share; /* change of flat share */
	double		 rel;		/* delta / base_cum_n; HUGE_VAL if new */
	struct judge_hyp flat, cum;	/* the two hypotheses, tested */
	int		 same;		/* flat and cum are one hypothesis */
	int		 hyp;		/* DELTA_HYP_* that flagged it, or 0 */
	/* The hypothesis reported: the one that flagged it, else cum. */
	int		 tested;	/* a p-value exists */
	struct stats_result st;		/* on shares, as fractions */
	double		 q;		/* adjusted p, NaN if untested */
	int		 relevant;	/* |cum change| passes --min-effect */
	/*
	 * A discovery (flat or cum) that is no verdict only because its
	 * change, large for its share by --min-effect's relative part, is
	 * under its points (delta_small()).
	 */
	int		 small;
	enum verdict	 verdict;
	/*
	 * A change that only moved between a caller's own frame and this
	 * callee's (findings.c: a JIT's inlining that differs between
	 * processes): its verdict is then unchanged.  moved_into: the
	 * caller whose own frame took it when that caller is a finding's
	 * (its index), else -1.
	 */
	int		 moved;
	long		 moved_into;
	/*
	 * For a row of a finding's background: the runtime work it is
	 * part of (runtime.h: RT_GC, RT_SCHED); else RT_CODE.
	 */
	int		 runtime;
	int		 frame;		/* rt_frame_of(name), read once */
	enum delta_status status;
	long		 finding;	/* its finding's index, or -1 */
	enum delta_role	 role;
	/*
	 * The rest it is judged on as a change beside the findings it is
	 * not part of (beside.c): each side's samples less theirs; 0 if it
	 * shares samples with one of them, or without findings.
	 */
	int64_t		 rest_n[2];
	/*
	 * Values per count (bytes per object, delay per contention) on
	 * each side, of the hypothesis reported, and the interval of their
	 * change, new - base, when the values are weighted and the count
	 * type is another (delta_opts.per_count).
	 */
	int		 has_per;
	double		 per_base, per_new, per_lo, per_hi;
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
	/*
	 * Each side's exposure when norm is not DELTA_NORM_TOTAL: its
	 * seconds, profiles or requests (0 with DELTA_NORM_NONE: the
	 * values as they are, tested as shares); and each profile's, nb
	 * then nn, for the tests between replicates (NULL: equal shares).
	 */
	double		 base_expo, new_expo;
	const double	*run_expo;
	int		 has_counts;		/* both sides have counts */
	/*
	 * A side's counts are estimates that could not be undone (facts.h,
	 * counts_scaled) and no dispersion between replicates measures how
	 * far they are off: a regression finding is then too uncertain to
	 * fail a gate (delta_exit_status()).
	 */
	int		 approx;
	/*
	 * Events compared as absolute values because no profile says how
	 * long its window was (not asked for with --normalize): a longer
	 * window holds more, so a finding cannot fail a gate either.
	 */
	int		 untimed;
	size_t		 max_callers;
	/*
	 * The values are weighted (not time-sliced): their intervals are
	 * the delta method's over the aggregates' moments, and a verdict
	 * needs the values to agree with the counts.  per_count also gives
	 * each row its values per count.
	 */
	int		 weighted;
	int		 per_count;
	/*
	 * A time-sliced type whose values may not be a slice a count
	 * (kind_valued()): weighted as above when either side's values
	 * per count differ (the squared coefficient of variation of a
	 * sample's value per count over DELTA_VALUED_CV2, or values of no
	 * count), d->weighted then says so.
	 */
	int		 valued;
	/*
	 * With rates, the change of value per unit of exposure that always
	 * matters, however large the level (0: none): for a wait's time,
	 * 1% of one thread's, since idle threads waiting for work make up
	 * most of a wait's level and 1pp of it can be whole threads.
	 * --min-effect's points are then at most this much of the level.
	 */
	double		 wait_floor;
	/*
	 * One profile a side: how much the processes differ beyond
	 * sampling, as the rows' family measured it (judge.h), for a flame
	 * graph of the same pair to test its frames at; NULL: the frames'
	 * own counts say.
	 */
	const struct judge *nulls;
	/*
	 * One profile a side from one process (--same-process): the
	 * shares differ by sampling alone, and are tested so.
	 */
	int		 same_process;
	/*
	 * With rates: the level is bound by a capacity that held on both
	 * sides (the caller's judgement: a CPU profile whose time per
	 * second stayed put), so that one function's growth takes from the
	 * others as shares do and can crowd them out.  Otherwise a rate
	 * moves on its own, and nothing is crowded (findings.c).
	 */
	int		 bounded;
	/*
	 * The thread had time to spare on one side and next to none on
	 * the other (the caller's judgement, from the idle time its
	 * profiler marks): +1 saturated in the new window, -1 in the
	 * base's, else 0.  The rest of a saturated process's work is
	 * displaced by what grew, and runs at another pace and mix (fewer
	 * requests, more of them served a turn): its falls (rises, -1) are
	 * crowded out (in) by the regressions (improvements), not findings
	 * of their own (findings.c).
	 */
	int		 saturated;
};

/*
 * A finding: one change of the call tree, with the rows that show it.
 * Its numbers are those of the test of the hypothesis of row that
 * flagged it (the cum one when both did): the change of the share of
 * the counts tested, its interval and q.
 */
struct delta_finding {
	enum verdict	 verdict;	/* VERDICT_REGRESSED or _IMPROVED */
	size_t		 row;		/* where the change is spent */
	int		 hyp;		/* DELTA_HYP_FLAT or DELTA_HYP_CUM */
	double		 delta, lo, hi, q;
	size_t		*path;		/* rows, outermost first, ending */
	size_t		 npath;		/*   with row */
	size_t		*rows;		/* row, its carriers, what is inside */
	size_t		 nrows;		/*   it; largest change first */
	size_t		*crowded;	/* rows crowded out (or in) by it */
	size_t		 ncrowded;
	/*
	 * A change of a function's cum, not of its own samples, is in its
	 * calls: those into rows of the finding that changed its way, each
	 * with the change of its edge's share (delta_edge_change()),
	 * largest first.  None for a change of its own samples.
	 */
	struct delta_part *under;
	size_t		 nunder;
	/*
	 * Callees whose change moved into the own frames of its rows, not a
	 * change of theirs (findings.c, moved(): V8 inlined them there in one
	 * process), each with its row's change, largest first.
	 */
	struct delta_part *moved;
	size_t		 nmoved;
	/*
	 * The collector's work its allocations made, run apart from its
	 * stacks (findings.c, DELTA_ROLE_BACKGROUND): rows, largest first.
	 */
	size_t		*background;
	size_t		 nbackground;
	/*
	 * Where the change entered (entry.c): the outermost function of
	 * the path whose calls of a shared function carried that
	 * function's change, or SIZE_MAX.  joined: the other findings that
	 * entered through the same calls, each its row and tested change.
	 */
	size_t		 entry;
	struct delta_part *joined;
	size_t		 njoined;
	/*
	 * RT_CODE, or the runtime's work the finding's row is (runtime.h):
	 * a change of the C library's waits alone follows the load on the
	 * machine, not the code, and fails no gate (delta_finding_gates();
	 * the scheduler's alone is no finding at all: findings.c).
	 */
	int		 runtime;
};

struct delta_part {
	size_t		 row;
	double		 change;
};

struct delta {
	struct delta_row *rows;		/* in node order; the caller sorts */
	size_t		 nrows;
	int64_t		 base_total, new_total;	/* values */
	int64_t		 base_n, new_n;		/* sample counts */
	/*
	 * What the statistics divide by.  A share of the engine is a value
	 * over its side's vden: its total, or with an exposure, the base
	 * side's total times the ratio of the exposures, so that a change
	 * of 1 is the base side's whole level.  The tests take each side's
	 * counts out of cden: its samples, or with an exposure, totals in
	 * the ratio of the exposures, so large that the 2x2 table is the
	 * binomial of Poisson counts; cscale turns a share of cden into the
	 * engine's shares.  exposure says which.
	 */
	double		 base_vden, new_vden;
	int64_t		 base_cden, new_cden;
	double		 cscale;
	int		 exposure;
	int		 bounded;	/* delta_opts.bounded, with an exposure */
	int		 saturated;	/* delta_opts.saturated */
	double		 level;		/* report units per engine share: 1,
					   or the pooled value per exposure */
	/*
	 * --min-effect's points as judged: min_effect_pp, or less when
	 * delta_opts.wait_floor is less of the level (floored).
	 */
	double		 min_pp;
	int		 floored;
	int		 weighted;	/* intervals of the values (moments) */
	size_t		 disagree;	/* rows whose values did not agree */
	int		 replicates;		/* dispersion between profiles */
	size_t		 nhyp;		/* hypotheses: rows x 2, less the same */
	size_t		 ntested;
	struct judge	 judge;		/* the family: thresholds, dispersion */
	double		 mde;		/* min detectable change, share units */
	double		 noise;		/* noise half-width, share units */
	double		 mde_share;	/* the share it was computed at */
	/*
	 * Beside the findings, when shares are compared (beside.c): each
	 * side's samples outside them (0 without a finding), the threshold
	 * a change there must reach on them to be a finding of its own,
	 * and what the noisiest row outside the findings shows at it, a
	 * share of the rest (-1 if none), at its share of the rest.
	 */
	int64_t		 rest_n[2];
	double		 rest_threshold;
	double		 rest_mde;
	double		 rest_share;
	struct delta_finding *findings;	/* largest change first */
	size_t		 nfindings;
	struct delta_graph *graph;	/* for delta_explain() */
	struct calls	*calls;		/* its calls, once read (flow.h) */
};

/* An edge of the union graph of the two sides, in row indices. */
struct delta_edge {
	size_t		 from, to;
	int64_t		 base, new;	/* the values through it */
};

/*
 * Compute the rows, their verdicts and the findings.  base_each and
 * new_each, when both have two or more aggregates, are the single
 * profiles behind base and new, and the tests are between replicates
 * (judge.h).  Returns 0, or -1 if a count is invalid for the
 * statistics (the diag-free core reports nothing else).
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
/*
 * Drop the findings keep(arg, ...) says no to, the rest kept in order,
 * and renumber the rows' findings (a dropped one's rows: -1, none).
 */
void	delta_keep_findings(struct delta *,
	    int (*keep)(void *, const struct delta *,
	    const struct delta_finding *), void *arg);
void	delta_release(struct delta *);

/*
 * A judge (judge.h) for two sides of n1 and n2 samples under these
 * options, with --min-effect's points min_pp (delta.min_pp, or the
 * options' own), and the runs' totals when both sides have two
 * aggregates or more: the family delta_compute() and flame.c test.
 */
void	delta_judge_init(struct judge *, const struct delta_opts *,
	    double min_pp, int64_t n1, int64_t n2, struct agg *const *base_each, size_t nb,
	    struct agg *const *new_each, size_t nn);

/*
 * The edges of row r in the union graph, out of it (out) or into it,
 * each side's half joined, in no particular order; a call of a row to
 * itself is among them.  *e points into a buffer that the next call
 * reuses.  Returns how many.
 */
size_t	delta_edges(struct delta *, size_t r, int out,
	    const struct delta_edge **e);
/*
 * Every call of the union graph as each side has it, in one pass over
 * each side's edges (the base's first, each in its stored order, which
 * is fixed for a given input), without joining them: fn(arg, from, to,
 * is_new, w) once per edge of a side, so a call both sides make comes
 * twice.  Self-calls are among them.  For a walk of the whole graph,
 * where delta_edges() row by row joins every edge through a lookup.
 */
void	delta_each_call(const struct delta *,
	    void (*fn)(void *, size_t from, size_t to, int is_new, int64_t w),
	    void *arg);
/*
 * Is the call new on the side of a change in direction dir (dir > 0:
 * none in the base; dir < 0: none in the new profile)?
 */
int	delta_edge_new(const struct delta_edge *, int);
/* The change of an edge's share of the values, as the rows' are. */
double	delta_edge_change(const struct delta *, const struct delta_edge *);
/* A row's change in the hypothesis that flagged it, in share units. */
double	delta_row_change(const struct delta_row *);
/*
 * The change of row r's share, in the rows' share units, that its
 * reported hypothesis finds 80% of the time (judge_hyp_mde()); -1
 * without samples.
 */
double	delta_row_mde(const struct delta *, const struct delta_row *r);
/*
 * A row as a change of its own is judged beside the findings it is not
 * part of (its rest_n): the change of its share of that rest of the
 * profile, into *change, and the change of it found 80% of the time at
 * rest_threshold (return), in the rows' share units; -1 for a row that
 * shares samples with one of them, or without findings.
 */
double	delta_row_rest(const struct delta *, const struct delta_row *r,
	    double *change);

/*
 * Mark in[r] for every row r that x dominates, x included: every sample
 * with r on its stack has x on it too, as the union graph shows it.  A
 * row joins once every caller it has on either side has, and its edges
 * in carry all of its value on each side (it is never the outermost
 * frame of a sample).  stack is scratch for nrows indices.
 */
void	delta_region(struct delta *, size_t x, unsigned char *in,
	    size_t *stack);
/*
 * What delta_region() reads, for core/region.c to find every row's
 * region at once.  delta_region_callers(): the rows that row r waits
 * for to join a region, its callers on each side where its cum is not
 * 0 (itself left out; a caller of both sides listed twice), into *v,
 * which it grows (*cap its room); returns their number, or -1 when r
 * never joins one (on a side its edges in do not carry all of its
 * value: the outermost frame of some sample).  delta_region_small():
 * does x reach few enough rows that delta_region() finds its greatest
 * region (1), or does it grow it from x, leaving out a cycle none of
 * whose rows can join first (0)?  in[] and stack as delta_region()'s;
 * in[] is all 0 again on return.
 */
/*
 * Up to this many rows below a function, its region is the greatest
 * set of them whose callers are all in it, found by taking rows out of
 * what it reaches until none has a caller outside: exact also where
 * the calls below it form cycles (recursion).  Beyond it (a function
 * near the root of a large graph), the region grows from the function
 * instead, a row joining once its callers have, which is cheap but
 * leaves out a cycle none of whose rows can join first.
 */
#define DELTA_REGION_WALK	4096

long	delta_region_callers(struct delta *, size_t r, size_t **v,
	    size_t *cap);
int	delta_region_small(struct delta *, size_t x, unsigned char *in,
	    size_t *stack);

/*
 * Walk from row r down the call graph to where its change is spent:
 * through the callee edge that carries most of the change in the
 * direction dir[r], while that callee's dir is the same, the edge
 * carries at least half of the current row's cumulative change and
 * more than its own flat change, and the rest of the current row (what
 * it does outside that call) did not change the same way; stopping at
 * a row that is new (or gone) on the side of the change.  path[0] is
 * r; returns the length, at most max; path[length - 1] is where it
 * stops.
 */
size_t	delta_walk(struct delta *, size_t r, const int *dir, size_t *path,
	    size_t max);

/*
 * A value of one side (is_new) in the report's unit, as the rows are:
 * a share of the side's total, or the value over its exposure.
 */
double	delta_norm(const struct delta *, const struct delta_opts *,
	    int64_t v, int is_new);

/*
 * Group the rows into findings (findings.c): struct delta_finding, and
 * each row's finding, role, and the verdicts crowded out and crowded in.
 * delta_compute() calls it.  Returns 0, or -1 if a test failed.
 */
int	delta_findings(struct delta *, const struct judge *);

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

/*
 * A row (or finding) with its sort key computed once, so that qsort
 * needs no context: delta_key_cmp() puts the larger key first, then
 * orders by name.
 */
struct delta_key {
	double		 key;
	const char	*name;
	size_t		 idx;
};

int	delta_key_cmp(const void *, const void *);

/*
 * The rows that are discoveries under --min-effect's points (row->small), at
 * most max of them in out: the largest relative change first (new and
 * gone before any), then by name.  A change's relative size is largest
 * where it is spent, its callers' diluted by the rest of what they do.
 * Returns how many rows are small.
 */
size_t	delta_small(const struct delta *, size_t *out, size_t max);

/* What fails check-significance (--fail-on). */
enum delta_fail_on {
	DELTA_FAIL_REGRESSION = 0,
	DELTA_FAIL_ANY_CHANGE,		/* an improvement, too */
};

/*
 * check-significance's exit status, from the findings: 1 if one
 * regressed, or improved when fail_on is DELTA_FAIL_ANY_CHANGE; else 3,
 * inconclusive, if there are no counts, nothing was tested, or the
 * minimum detectable change (at the threshold of the verdicts) exceeds
 * o's --min-effect (min_effect_pp points, or min_effect_rel percent of
 * the share it was computed at); else 0.  *regressed is set if a
 * finding regressed.
 */
int	delta_exit_status(const struct delta *, const struct delta_opts *,
	    enum delta_fail_on fail_on, int *regressed);
/* Can finding f fail check-significance?  Not the waits' (runtime). */
int	delta_finding_gates(const struct delta_finding *f);

#endif

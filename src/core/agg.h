/*
 * Stack aggregation: fold the samples of one or more profiles into nodes
 * (one per function, file, line or address, by granularity) and caller ->
 * callee edges, the way pprof builds its graph.  Each node carries two
 * columns: AGG_VALUE, the chosen sample type's value, and AGG_COUNT, the
 * number of samples behind it (see struct agg_src); an edge carries the
 * value only.
 *
 * flat goes to the innermost frame of the leaf location; cum counts a
 * node once per sample, so recursion is not counted twice; an edge is
 * likewise counted once per sample.  Node names are copied: the profile
 * may be freed after agg_add().  No I/O here, and nothing about
 * statistics or output formats.
 *
 * The rules are go tool pprof's (-top with -nodefraction=0): samples
 * whose chosen value is zero are skipped entirely (their count too);
 * negative values are added as they are; the profile's drop_frames and
 * keep_frames are applied as pprof applies them on load; nodes are keyed
 * by their printed name, so where pprof prints two rows with the same
 * name (it does at -files, one per function start line) there is one
 * node here, whose cum counts each sample once.  A node whose flat and
 * cum are both zero exists here but is not printed by pprof.  A call of
 * a node to itself is no edge.  Profiles added to one agg merge as go
 * tool pprof merges the profiles it is given: mappings of the same
 * binary share the addresses of the first one seen.
 */
#ifndef AGG_H
#define AGG_H

#include <stddef.h>
#include <stdint.h>

struct diag;
struct profile;
struct pf_sample;

enum agg_gran {
	AGG_FUNCTIONS = 0,
	AGG_FILEFUNCTIONS,
	AGG_FILES,
	AGG_LINES,
	AGG_ADDRESSES,
};

enum agg_col {
	AGG_VALUE = 0,
	AGG_COUNT = 1,
	AGG_NCOLS
};

struct agg_opts {
	enum agg_gran	 gran;
	int		 noinlines;	/* attribute inlined frames to their caller */
	/*
	 * Also build the calling-context tree (agg_tree()), for flame
	 * graphs.  It costs a node per distinct path from a root, so it is
	 * off unless asked for.
	 */
	int		 tree;
	/*
	 * Group by this label instead of by frame: one node per value of
	 * the label ("KEY=VALUE", numeric values in their unit, as pprof
	 * prints tags), and one for the samples without it ("KEY unset").
	 * Each sample adds to the flat and cum of the node of each distinct
	 * value it carries; there are no edges and no tree.  NULL groups by
	 * frame, as everything above describes.
	 */
	const char	*label_key;
	/*
	 * Fold the nodes (and the tree) only, no edges: agg_nedges() stays
	 * 0.  For aggregates asked only about nodes, such as the one per
	 * profile kept for tests between replicates; it saves about half
	 * of the folding and the edge table.
	 */
	int		 noedges;
	/*
	 * Keep the samples whose innermost frame is idle (runtime.h) apart
	 * from the nodes and the totals (agg_idle()): a comparison's shares
	 * are of work.  Off for top, which shows what pprof shows.
	 */
	int		 idle_apart;
	/*
	 * Also keep, per node, the second moments of its samples
	 * (agg_moments()), for intervals on value-weighted deltas.  Off
	 * unless asked for: it costs a second walk over each stack.
	 */
	int		 moments;
};

/*
 * Counts recovered from estimates that a profiler scaled up (struct
 * agg_src, facts_count_source()):
 * - AGG_UNSAMPLE_TRUNC, Go's heap profiles: a site's n sampled objects
 *   of s bytes in all are written as objects = int64(n * k) and bytes =
 *   int64(s * k), k = 1 / (1 - exp(-(s / n) / rate)).  The inverse,
 *   objects * (1 - exp(-(bytes / objects) / rate)), lies in (n - 1, n]
 *   up to rounding error, since truncation only lowers what Go wrote:
 *   it is rounded up, after a tolerance of 1e-6 for that error.
 * - AGG_UNSAMPLE_ROUND, V8's (Node.js) heap profiles: the same scaling
 *   of one allocation size, the objects rounded to the nearest integer
 *   (the bytes are size * objects): the inverse is rounded too.
 * - AGG_UNSAMPLE_DIV: objects / rate, rounded, for counts multiplied by
 *   a sampling period (pprof's conversion of legacy contention
 *   profiles: contentions * period).
 * A sample whose count and bytes differ in sign (a difference of two
 * profiles) keeps its count as it is; a negative pair is recovered as
 * the negative of the positive one.
 */
enum agg_unsample {
	AGG_UNSAMPLE_NONE = 0,
	AGG_UNSAMPLE_TRUNC,
	AGG_UNSAMPLE_ROUND,
	AGG_UNSAMPLE_DIV,
};

/*
 * Where a sample's two columns come from.  value_index is the sample type
 * to report.  The count is values[count_index] when count_index >= 0,
 * else values[value_index] / count_divisor when count_divisor > 0 (a
 * sampling period), else, with unsample set, the count recovered from
 * values[un_count] (and values[un_bytes]) at un_rate (enum
 * agg_unsample), else 0 (no counts: significance is unavailable).  The
 * fields after keep may be left zero (no recovery).
 */
struct agg_src {
	int		 value_index;
	int		 count_index;
	int64_t		 count_divisor;
	/*
	 * Which samples to fold, one byte per sample of the profile, or
	 * NULL for all.  A sample left out still counts in agg_total(),
	 * agg_abs_total() and agg_nsamples(), so shares stay shares of the
	 * whole profile, as with pprof's -focus.
	 */
	const unsigned char *keep;
	enum agg_unsample unsample;
	int		 un_count;	/* the scaled count's sample type */
	int		 un_bytes;	/* its bytes' (TRUNC, ROUND) */
	int64_t		 un_rate;	/* the sampling rate, > 1 */
	/*
	 * How the events one sample sums differ in value, for the
	 * moments: the squared coefficient of variation of one event's
	 * value, 0 when they are alike (agg_moments()).
	 */
	double		 spread;
};

/* The count of one sample (its values) as the agg folds it. */
int64_t		 agg_sample_count(const struct agg_src *,
		    const int64_t *values);
/* The inverse of a scaling (enum agg_unsample), on one count. */
int64_t		 agg_unsample(enum agg_unsample, int64_t count, int64_t bytes,
		    int64_t rate);

struct agg_node {
	const char	*name;		/* as pprof prints it at this granularity */
	int64_t		 flat[AGG_NCOLS];
	int64_t		 cum[AGG_NCOLS];
};

/*
 * An edge weighs the values of the samples through it (AGG_VALUE) and
 * no counts: the paths and callers of delta.c read the values only, and
 * a slot of 16 bytes instead of 24 keeps more of the table in the cache.
 */
struct agg_edge {
	uint32_t	 caller;	/* node indices */
	uint32_t	 callee;
	int64_t		 w;
};

struct agg;

struct agg	*agg_new(const struct agg_opts *);
void		 agg_free(struct agg *);	/* NULL is a no-op */
/*
 * A copy of the agg that shares nothing with it: agg_add() on one does
 * not change the other.  Cheaper than adding the same profiles again.
 */
struct agg	*agg_dup(const struct agg *);
/*
 * Is node n a function of the profiler's own code, by its source file
 * (rt_profiler_file(), runtime.h), as a name alone cannot say?
 */
int		 agg_node_own(const struct agg *, size_t n);

/*
 * Fold every sample of the profile into the aggregate.  Several profiles
 * may be added to one agg to merge them.  Returns 0, or -1 with the diag
 * filled: DIAG_USAGE for an index out of range, DIAG_LIMIT when the sum
 * of the magnitudes of the values (or counts) added so far would overflow
 * int64.  On failure the agg is left as it was.  Every sample's locs
 * must point into the profile's locations[] and every location's mapping
 * into its mappings[], as pprof_load() builds them.
 */
int		 agg_add(struct agg *, const struct profile *,
		    const struct agg_src *, struct diag *);

/*
 * The same, a sample at a time, for samples that are read one at a
 * time and not kept (pprof_next()): agg_begin() takes the profile's
 * header (locations, mappings, sample types; p->samples is not read),
 * which must stay as it is until agg_end().  agg_sample() adds a sample
 * whose locs point into p->locations; with fold 0 it counts only in the
 * totals (a sample a filter dropped, as agg_src.keep does).  Folding
 * the samples this way gives the same agg as agg_add() on a profile
 * holding them, node and edge order included.  agg_sample() returns 0,
 * or -1 with DIAG_LIMIT when a sum would overflow: that sample is not
 * added, but the agg holds the samples before it and is fit only for
 * agg_end() and agg_free().  agg_end() finishes the profile and frees
 * the run.  agg_begin() returns NULL with the diag filled when the
 * agg_src does not fit the profile.
 */
struct agg_run;

struct agg_run	*agg_begin(struct agg *, const struct profile *,
		    const struct agg_src *, struct diag *);
int		 agg_sample(struct agg_run *, const struct pf_sample *,
		    int fold, struct diag *);
void		 agg_end(struct agg_run *);	/* NULL is a no-op */

/*
 * agg_sample(), then, if it folded the sample into its stack's nodes,
 * fn on the sample as folding saw it: its stack from locs[lo] on (the
 * frames below lo cut by drop_frames), each location's lines from
 * lineoff[location index] on (NULL: all), and its columns w.  For
 * views that need more of a stack than the nodes keep (views.c's
 * lines); agg_sample() itself is left as fast as it is without them.
 */
typedef void	 agg_hook_fn(void *ctx, const struct pf_sample *, size_t lo,
		    const size_t *lineoff, const int64_t w[AGG_NCOLS]);

int		 agg_sample_hook(struct agg_run *, const struct pf_sample *,
		    int fold, struct diag *, agg_hook_fn *fn, void *ctx);

/*
 * What one profile added, without folding it twice: agg_mark() notes
 * the agg's nodes and totals, and agg_since() makes a new agg of what
 * was added since (a profile's own, when the profile was the only one
 * added in between): the nodes whose columns changed or that are new,
 * with the changes, in the order of the first agg, and the totals;
 * no edges and no tree.
 */
struct agg_mark;

struct agg_mark	*agg_mark(const struct agg *);
struct agg	*agg_since(const struct agg *, const struct agg_mark *);
void		 agg_mark_free(struct agg_mark *);	/* NULL is a no-op */

/*
 * Nodes and edges are numbered in the order they were first met.  The
 * pointers returned stay valid until the next agg_add() or agg_free().
 */
size_t		 agg_nnodes(const struct agg *);
const struct agg_node *agg_node(const struct agg *, size_t);
/* Node index by name, or -1. */
long		 agg_find(const struct agg *, const char *name);

size_t		 agg_nedges(const struct agg *);
const struct agg_edge *agg_edge(const struct agg *, size_t);
/*
 * fn(arg, edge) for each edge once, in the order they are stored, not
 * by number: a pass over them all that needs no order then reads them
 * in sequence, where agg_edge() over every number reads at random.
 */
void		 agg_each_edge(const struct agg *,
		    void (*fn)(void *, const struct agg_edge *), void *arg);

/*
 * The edges out of a node (it is their caller) and into it (their
 * callee), as edge numbers in ascending order, *n of them.  They come
 * from an index that agg_index_edges() builds once the last profile is
 * folded: on a large agg that is a few milliseconds, which a caller
 * with a thread per agg can spend on each agg's own thread.  Folding
 * more drops the index; agg_index_edges() again builds it anew, and
 * does nothing while it is there.  Without it there are no edges.
 */
void		 agg_index_edges(struct agg *);
const uint32_t	*agg_edges_out(const struct agg *, size_t node, size_t *n);
const uint32_t	*agg_edges_in(const struct agg *, size_t node, size_t *n);

/*
 * The calling-context tree, when agg_opts.tree is set: one tree node per
 * distinct path of frames from a root, so a function reached by two
 * paths has two tree nodes, and recursion nests.  cum is what the
 * samples through the path added, flat what stopped there.  Tree nodes
 * are numbered in the order they were made, so a parent comes before
 * its children.  Frames cut by drop_frames are not in it; frames of the
 * same node one after the other (a direct recursion) are.
 */
#define AGG_ROOT	SIZE_MAX	/* the parent of a top-level frame */

struct agg_tnode {
	size_t		 parent;	/* tree node index, or AGG_ROOT */
	size_t		 node;		/* agg_node() index */
	int64_t		 flat[AGG_NCOLS];
	int64_t		 cum[AGG_NCOLS];
};

size_t		 agg_ntree(const struct agg *);
const struct agg_tnode *agg_tree(const struct agg *, size_t);

/*
 * Sum of the column over all samples added, and the number of samples
 * (those with a non-zero value).  Samples whose stack is empty count in
 * the totals, as in pprof, though no node holds them.
 */
int64_t		 agg_total(const struct agg *, enum agg_col);
size_t		 agg_nsamples(const struct agg *);
/*
 * Samples whose innermost frame is idle (runtime.h: V8's "(idle)"): a
 * thread with nothing to run is no work, so they are kept apart, in no
 * node and in none of the totals above.  Their sum and their number.
 */
int64_t		 agg_idle(const struct agg *, enum agg_col);
size_t		 agg_nidle(const struct agg *);
/*
 * Sum of the column's magnitudes, |v| per sample: pprof's total, the
 * denominator of its percentages.  It equals agg_total() unless some
 * values are negative.
 */
int64_t		 agg_abs_total(const struct agg *, enum agg_col);
/*
 * Moments, with agg_opts.moments: each sample counts as n events, n the
 * magnitude of its count column (1 when it is 0), and adds, for its
 * value v and its denominator c (the sample type of its count,
 * values[count_index] or values[un_count], before any recovery; else its
 * count column), c to c, vc = v c / n, cc = c^2 / n, and vv, the
 * expected sum of its events' squares given their sum v: v^2 / n when
 * they are alike (agg_src.spread 0), and v^2 (1 + s) / (n + s) when
 * they are drawn from a gamma law whose squared coefficient of variation
 * is s = spread (each a share of v as Dirichlet's with parameters 1 / s
 * makes it; s = 1 is exponential waits).  flat sums them over the
 * samples whose leaf
 * frame is the node, cum over the samples with the node on the stack,
 * once a sample as cum is.  So for the samples of a node, V = sum v,
 * the share V / T has the delta-method variance (vv (1 - 2 V/T) +
 * (V/T)^2 vv_total) / T^2, and V / c (bytes per object) (vv - 2 R vc
 * + R^2 cc) / c^2 (stats_vshare_diff(), stats_vratio()).  Returns 0,
 * or -1 when the agg keeps no moments or node is out of range.
 * agg_total_moments() is the same over every sample of the totals.
 */
struct agg_moments {
	double		 c;		/* sum of the denominators */
	double		 vv, vc, cc;	/* second moments */
};

/*
 * Divide every count of the aggregate by g, which must divide each
 * sample's count: counts that a profiler multiplied by a sampling
 * fraction it did not record (load.c).
 */
void		 agg_divide_counts(struct agg *, int64_t g);

/*
 * Every count of the aggregate set to its value divided by g, which
 * must divide each sample's value: counts read again from values that
 * are whole numbers of a sampling interval, where the profile's own
 * period did not give them (load.c).  Not with moments.
 */
void		 agg_counts_from_values(struct agg *, int64_t g);
/*
 * Keep the moments from now on, as agg_opts.moments would have: before
 * the first sample, when what the sample type is decides it (load.c).
 */
void		 agg_want_moments(struct agg *);
int		 agg_moments(const struct agg *, size_t node,
		    struct agg_moments *flat, struct agg_moments *cum);
int		 agg_total_moments(const struct agg *, struct agg_moments *);
/*
 * The sum of the values of samples whose count, read from the profile,
 * is 0 (@datadog/pprof's CPU of threads it took no sample of): measured,
 * not drawn, they add to no moment.  -1 when the agg keeps no moments.
 */
int		 agg_uncounted(const struct agg *, double *);
/* How many profiles were added. */
size_t		 agg_nprofiles(const struct agg *);

/* Parse "functions", "files", ...; -1 if unknown. */
int		 agg_gran_parse(const char *);
const char	*agg_gran_name(enum agg_gran);

/*
 * What the filters kept of a profile whose whole total is whole: the
 * sum of the nodes' |flat| values over |whole|, 0 when whole is 0.
 */
double		 agg_kept_share(const struct agg *, int64_t whole);

#endif

/*
 * A sequence of profiles (profdiff series): what each point added, kept
 * as per-function flat and cum sample counts only, so that the points'
 * aggregates can be freed as soon as they are added; then, per function
 * and view, the change points along the sequence (stats_cpt.c's scan,
 * one family under the discrete FDR of diff, binary segmentation for
 * further changes), the transients (a change that comes back), and the
 * carriers (a caller whose cum moved only because its callee did)
 * grouped under the change that caused them.  Core: no I/O; allocation
 * exits on out of memory (xmalloc.h).
 */
#ifndef SERIES_H
#define SERIES_H

#include <stddef.h>
#include <stdint.h>

struct agg;
struct diag;

struct series_point {
	char		*label;		/* the operand, owned */
	char		*path;		/* its first file, owned */
	int64_t		 time_ns;	/* the first profile's, 0 if unset */
	int64_t		 n;		/* samples (counts), all profiles */
	double		 seconds;	/* duration, all profiles */
	size_t		 nrep;		/* profiles merged into the point */
};

/*
 * One function's counts at one point, in 16 bytes: counts of 2^32 - 1
 * or more are SERIES_WIDE here and kept in full in struct series_wide.
 */
#define SERIES_WIDE	UINT32_MAX

struct series_ent {
	uint32_t	 fid;
	uint32_t	 t;
	uint32_t	 flat, cum;
};

struct series_wide {
	size_t		 ent;		/* its index in ent[] */
	int64_t		 flat, cum;
};

struct series_edge {
	uint32_t	 caller, callee;	/* fids */
	int64_t		 w;		/* samples, over all points */
};

struct series {
	struct series_point *pts;
	size_t		 npts, cappts;
	char		**names;	/* by fid, owned */
	size_t		 nfuncs, capfuncs;
	size_t		*slot;		/* name index: 0 or fid + 1 */
	size_t		 cap;
	struct series_ent *ent;
	size_t		 nent, capent;
	struct series_wide *wide;	/* by ent, ascending */
	size_t		 nwide, capwide;
	struct series_edge *edges;
	size_t		 nedges, capedges;
	size_t		*eslot;		/* edge index */
	size_t		 ecap;
	double		*x2, *xdf, *xv;	/* dispersion: 2 per fid (flat, cum) */
	size_t		 nrep_points;	/* points with replicates */
};

enum series_verdict {
	SERIES_REGRESSED = 0,
	SERIES_IMPROVED,
	SERIES_TRANSIENT,
};

struct series_change {
	enum series_verdict verdict;
	uint32_t	 fid;
	int		 cum;		/* the view that changed */
	size_t		 at;		/* first point after the change */
	size_t		 until;		/* transient: first point after it */
					/*   came back; else at */
	size_t		 from, to;	/* the segments: [from, at), [at, to) */
	double		 before, before_lo, before_hi;
	double		 after, after_lo, after_hi;
	double		 p, q;
	const char	**path;		/* outermost first, ends at the name */
	size_t		 npath;
	uint32_t	*carriers;	/* fids grouped under this change */
	size_t		 ncarriers;
	uint32_t	*crowded;	/* fids crowded out (or in) by it */
	size_t		 ncrowded;
	uint32_t	*parts;		/* fids below it that changed with it */
	size_t		 nparts;
	double		 gbefore, gafter;	/* the largest change of its */
						/*   group: it or a carrier */
};

struct series_opts {
	int		 rates;		/* --normalize duration */
	double		 alpha;
	double		 min_effect_pp;	/* shares only */
	double		 min_effect_rel;
};

struct series_result {
	struct series_change *changes;	/* most important first */
	size_t		 nchanges;
	size_t		 nfuncs;	/* functions with samples */
	size_t		 nhyps;		/* tests: flat and cum, one when */
					/*   the same */
	size_t		 nsplits;	/* split points scanned a test */
	size_t		 kept, rejected;	/* the discrete FDR's family */
	size_t		 ncarried;	/* changes grouped as carriers */
	size_t		 ncrowded;	/* changes grouped as crowded */
	size_t		 nparts;	/* changes grouped as parts */
	double		 phi, phi_df;	/* the shared dispersion */
	double		 ci_level;
	double		 ci_alpha;	/* 1 - ci_level, as computed */
	int		 rates;
	size_t		*off, *byfid;	/* the entries by function, for */
					/*   series_levels() */
};

void	series_init(struct series *);
void	series_release(struct series *);

/*
 * Add a point: merged, its profiles merged, and each, its profiles one
 * by one when there are two or more (replicates, for the dispersion),
 * else NULL.  label and path are copied.  Returns 0, or -1 with d
 * filled when the series is too long (2^32 points or functions), when
 * a count of the point is one the statistics cannot take (negative, or
 * above STATS_MAX_N), or when a call's values over the points overflow
 * 64 bits; the series is then only good for series_release().
 */
int	series_add(struct series *, const struct agg *merged,
	    struct agg *const *each, size_t neach, const char *label,
	    const char *path, int64_t time_ns, int64_t duration_ns,
	    struct diag *d);

/* Order the points by time, the order given among equal times. */
void	series_sort_time(struct series *);

/*
 * The changes.  Returns 0, or -1 with d filled when the counts are out
 * of range for the statistics: d names the point whose samples take
 * the points' total past STATS_MAX_N (shares), else it keeps the path
 * it was given and its code is DIAG_PAIR (no kind printed).
 */
int	series_compute(const struct series *, const struct series_opts *,
	    struct series_result *, struct diag *d);
void	series_result_release(struct series_result *);

/*
 * Change c's level at each point, with its interval at the result's
 * level, for the charts: lv, lo and hi hold s->npts each (NAN where
 * the point has nothing to measure it by).  Worked out when asked, one
 * change at a time, so that the changes cost no memory a point: kept
 * with every change, 24 bytes a point a change took a series of 1,000
 * small points with a change at most of them to 867 MB.
 */
void	series_levels(const struct series *, const struct series_result *,
	    const struct series_change *, double *lv, double *lo,
	    double *hi);

/*
 * The gate: 1 when a regression's segment after is the newest (it runs
 * to the last point), else 0.
 */
int	series_newest_regressed(const struct series *,
	    const struct series_result *);

/*
 * What the gate could have missed: the change of a 50% share that a
 * change at the newest point alone (against every point before it) is
 * found with 80% of the time at the threshold a first discovery needs
 * there (alpha over the family and the splits), widened by the
 * dispersion; in share units, or -1 for rates.
 */
double	series_newest_mde(const struct series *,
	    const struct series_result *, double alpha);

#endif

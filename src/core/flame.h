/*
 * The frames of a flame graph: the calling-context trees of a base and a
 * new aggregate (agg_opts.tree) merged by name path, each frame with its
 * values, sample counts, cumulative shares (what a frame's width is), the
 * quantity the table compares and its change, and, for frames at least
 * min_share of either side, the same test and verdict as a row of the
 * table (delta_judge, against the table's denominators: its sides'
 * exposures when it compares rates; Benjamini-Hochberg over the frames
 * tested).  With no base, the frames of one profile, untested.  No I/O,
 * no formatting, no geometry here.
 */
#ifndef FLAME_H
#define FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "core/delta.h"
#include "stats/stats.h"

struct agg;

#define FLAME_NONE	SIZE_MAX	/* the parent of the root */
/* Frames under this share of both sides are neither tested nor shown. */
#define FLAME_MIN_SHARE	0.001

struct flame_frame {
	const char	*name;		/* borrowed from the aggs; "all" */
	size_t		 parent;	/* frame index, or FLAME_NONE */
	size_t		 depth;		/* 0 for the root */
	size_t		 kid0, nkids;	/* children: kids[kid0..+nkids) */
	int64_t		 base_cum, new_cum;	/* values */
	int64_t		 base_flat, new_flat;
	int64_t		 base_count, new_count;	/* cum sample counts */
	double		 base_share, new_share;	/* of each side's total */
	double		 delta;		/* new_share - base_share */
	/*
	 * The quantity the table compares (struct flame's norm), as its
	 * rows' base_cum_n, new_cum_n and delta are: the shares above, a
	 * value per unit of exposure, or a value as it is.  The verdict
	 * is of this change; colours follow it.
	 */
	double		 base_cum_n, new_cum_n, delta_n;
	enum delta_status status;
	int		 visible;	/* it and its parent pass min_share */
	int		 tested;	/* a p-value exists */
	struct stats_result st;		/* in the engine's shares (delta.h) */
	double		 q;		/* BH-adjusted, NaN if untested */
	int		 relevant;	/* passes --min-effect */
	enum verdict	 verdict;
};

struct flame {
	struct flame_frame *frames;	/* frames[0] is the root */
	size_t		 nframes;
	size_t		*kids;		/* child indices, by name per parent */
	int		 single;	/* one side only: no base, no tests */
	int64_t		 base_total, new_total;	/* values */
	int64_t		 base_n, new_n;		/* sample counts */
	int		 replicates;	/* tests between profiles */
	/*
	 * What the table compares (delta_opts.norm; DELTA_NORM_TOTAL
	 * without a table), and whether the frames were tested against the
	 * sides' exposures as its rows were (struct delta's exposure), at
	 * --min-effect's points as it judged them (delta.min_pp).
	 */
	enum delta_norm	 norm;
	int		 exposure;
	struct judge	 judge;		/* the frames' family, its summary */
	size_t		 ntested, nvisible;
	double		 min_share;
};

/*
 * Merge the trees of base and new (base may be NULL: one profile, put in
 * the new columns).  base_each/new_each are the single profiles behind
 * each side, built with the tree too, as for delta_compute(); with o
 * NULL nothing is tested.  table is the table's delta_compute() of the
 * same sides under o: the frames are then of the quantity it compares,
 * and tested against the denominators its rows were (with an exposure,
 * its base_cden, new_cden, cscale and min_pp), between replicates too;
 * NULL: shares of each side's total, tested as such.  Frames under min_share of both sides are not
 * made (0 makes every one): their values stay in the parent's cum, so a
 * frame's cum may exceed its flat and its children's cum.  The root
 * stands for the whole profile: its cum is the side's total, and its
 * flat whatever no top-level frame holds (samples the filters left out,
 * empty stacks, frames not made).  Names are borrowed: the aggs must
 * outlive the flame.  Returns 0, or -1 if a count is invalid for the
 * statistics.
 */
int	flame_compute(const struct agg *base, const struct agg *new,
	    struct agg *const *base_each, size_t nb,
	    struct agg *const *new_each, size_t nn,
	    const struct delta_opts *, const struct delta *table,
	    double min_share, struct flame *);
void	flame_release(struct flame *);

#endif

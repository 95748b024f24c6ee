/*
 * The family of one comparison: every hypothesis a diff tests (a row's
 * flat count or its cumulative count, a flame graph's frame), each
 * tested once by stats.c, with one discrete false-discovery procedure
 * over all of them (Tarone's trimming, then Benjamini-Hochberg), the
 * intervals at the false-coverage-rate level that goes with the
 * verdicts, and, between replicates, a dispersion shared across the
 * hypotheses.  The minimum detectable effect, "too few samples" and
 * check-significance's "inconclusive" all use the threshold the
 * verdicts used.  No I/O, and nothing about rows, frames or output.
 */
#ifndef JUDGE_H
#define JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"

struct judge_opts {
	double		 alpha;		/* the false discovery rate */
	double		 min_effect_pp;	/* points of share */
	double		 min_effect_rel; /* percent of the base share */
	int		 has_counts;	/* both sides have sample counts */
};

/*
 * One hypothesis: k1 of the base side's samples against k2 of the new
 * side's.  The caller fills k1 and k2; judge_family() the rest.
 */
struct judge_hyp {
	int64_t		 k1, k2;
	int		 tested;	/* a p-value exists */
	struct stats_result st;		/* p, and the interval at ci_alpha */
	double		 pmin;		/* the smallest p its total allows */
	double		 q;		/* NaN if untested or trimmed */
	double		 phi, df;	/* its dispersion (1, HUGE_VAL: binomial) */
	/*
	 * Set by the caller, for one profile a side: the samples of one
	 * function's own code (flat), or of a function and its callees
	 * (cum), each read for the spread of no change of its kind.
	 */
	unsigned char	 kind;		/* JUDGE_FLAT, JUDGE_CUM, or 0 */
};

#define JUDGE_FLAT	1
#define JUDGE_CUM	2
/* Flat, of work that moves as one (the runtime's): one unit, summed. */
#define JUDGE_FLAT_BG	3

struct judge {
	struct judge_opts o;
	int64_t		 n1, n2;	/* each side's samples, all runs */
	size_t		 nb, nn;	/* runs a side */
	int64_t		*n1r, *n2r;	/* each run's samples (replicates) */
	int		 replicates;	/* two runs or more on each side */
	/* Set by judge_family(): */
	struct stats_fdr fdr;		/* family size, R, thresholds */
	double		 ci_alpha;	/* intervals are at 1 - ci_alpha */
	struct stats_disp_prior prior;	/* replicates only */
	/*
	 * One profile a side: how much the processes differ beyond
	 * sampling (stats_null.c); judge_family() reads it from its
	 * JUDGE_FLAT hypotheses unless the caller gave it (null_given).
	 */
	struct stats_null null;
	int		 null_given;
	size_t		 ntested;
	double		 mde, noise;	/* share units; -1 if none tested */
	double		 mde_share;	/* the share they were computed at */
};

/*
 * Start a family for two sides of n1 and n2 samples; with two runs or
 * more on each side, n1r[nb] and n2r[nn] are the runs' samples (copied),
 * and the hypotheses are tested between replicates.
 */
void	judge_init(struct judge *, const struct judge_opts *, int64_t n1,
	    int64_t n2, const int64_t *n1r, size_t nb, const int64_t *n2r,
	    size_t nn);
void	judge_release(struct judge *);

/*
 * Without replicates, before judge_family(): the spread between two
 * processes beyond sampling of a function's own share, from m parts of
 * the sides that share no sample (each function's flat count, k1[i]
 * and k2[i]), for a family whose hypotheses are not of that kind (a
 * flame graph's frames).  judge_family() otherwise reads it from its
 * JUDGE_FLAT hypotheses (stats_null.c).  With replicates it changes
 * nothing.  Returns 0, or -1 on an invalid count.
 */
int	judge_null(struct judge *, const int64_t *k1, const int64_t *k2,
	    size_t m);
/* Take another family's spread of no change (a table's, for its graph). */
void	judge_null_from(struct judge *, const struct judge *);

/*
 * Test the m hypotheses h[] as one family.  With replicates, runs holds
 * each hypothesis's counts run by run, nb base runs then nn new ones,
 * (nb + nn) values per hypothesis; otherwise it may be NULL.  Returns 0,
 * or -1 if a count is invalid for the statistics (negative, above a run's
 * samples or 2^52).
 */
int	judge_family(struct judge *, struct judge_hyp *h, size_t m,
	    const int64_t *runs);

/* Is the hypothesis a discovery at alpha? */
int	judge_significant(const struct judge *, const struct judge_hyp *);
/*
 * After judge_family(): the change of h's share found 80% of the time
 * at the threshold a further discovery needs, as the header's (mde),
 * at h's own pooled share and dispersion; -1 without samples.  Asked
 * for the rows a report shows, not computed for every hypothesis.
 */
double	judge_hyp_mde(const struct judge *, const struct judge_hyp *);
/*
 * The same for h's counts as a part of other totals, n1 and n2 (the
 * rest of a profile outside the findings), at threshold t: the change
 * of their share of those totals found 80% of the time; -1 without
 * samples.
 */
double	judge_hyp_mde_in(const struct judge_hyp *, int64_t n1, int64_t n2,
	    double t);
/*
 * Could it not be a discovery, whatever the split of its samples: it
 * was untested, or trimmed as unable to reach the family's threshold.
 */
int	judge_insufficient(const struct judge *, const struct judge_hyp *);
/* Is a change of a share from bs to ns at least --min-effect? */
int	judge_relevant(const struct judge *, double bs, double ns);
/*
 * Or large for its share by --min-effect's relative part, but under its
 * points: small against the level, as a function's is when the level is
 * mostly something else (idle goroutines in a block profile, say)?
 */
int	judge_small(const struct judge *, double bs, double ns);

/*
 * A test outside the family: k1 of n1 against k2 of n2 (a share of the
 * rest of a profile, say), at dispersion phi known to df, at the
 * threshold thr (judge_step(), or alpha).  Returns 1 if it is
 * significant there, 0 if not, -1 on invalid counts.
 */
int	judge_retest(const struct judge *, int64_t k1, int64_t n1, int64_t k2,
	    int64_t n2, double phi, double df, double thr);
/*
 * The threshold of the k-th discovery of a step-up over the family,
 * k alpha / m (m its size), at most alpha: for tests made one at a time
 * after the family, each counting as one more discovery (a finding).
 */
double	judge_step(const struct judge *, size_t k);

#endif

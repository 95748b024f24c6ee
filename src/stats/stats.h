/*
 * Is a change in a function's share of the samples more than sampling
 * noise?  Two-sample tests on sample counts (Fisher's exact test, two-
 * or one-sided, or a normal approximation where it is accurate), the
 * minimum p-value a row's counts allow, Newcombe's interval for the
 * difference of two shares, Benjamini-Hochberg adjustment across
 * functions and its discrete form that drops the rows that cannot
 * reach significance, the false-coverage-rate level for intervals,
 * exact power and the minimum detectable effect, and for several
 * profiles per side the pooled counts tested with a dispersion shared
 * across functions.  doc/statistics.md says which is used when, and
 * why.
 *
 * Pure math: no I/O, no allocation, no global state.  Any arguments
 * are safe: invalid ones give -1, NaN or -HUGE_VAL as each function
 * says, and nothing aborts.
 *
 * Conventions: side 1 is the base window, side 2 the new one; a share
 * is a fraction in [0, 1] (not a percentage); diff is new - base.
 */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>
#include <stdint.h>

#define STATS_ALPHA		0.05	/* default level, and FDR for BH */
#define STATS_POWER		0.8	/* default power for the MDE */

/*
 * Fisher's exact test is used while the null variance of k1 (that of
 * the hypergeometric distribution) is below this; every expected cell
 * of the 2x2 table is then at least this large as well, and the normal
 * approximation that takes over is within 0.5% of Fisher's p at 0.05
 * and 2% at 1e-4.  The exact test costs about 20 * sqrt(variance) steps
 * plus two bisections: at most some 50 microseconds below this.
 */
#define STATS_EXACT_MAXVAR	1e5

/* Counts above this are refused: sums stay exact in a double. */
#define STATS_MAX_N		(INT64_C(1) << 52)

enum stats_method {
	STATS_UNTESTABLE = 0,	/* a side has no data: p = 1, CI [-1, 1] */
	STATS_FISHER,		/* Fisher's exact test on counts */
	STATS_NORMAL,		/* continuity-corrected normal, on counts */
	STATS_QUASI,		/* pooled counts, dispersion phi > 1 */
};

struct stats_result {
	enum stats_method method;
	double		 p;	/* two-sided p-value, in [0, 1] */
	double		 diff;	/* estimated new - base share */
	double		 lo;	/* 1 - alpha interval for diff, */
	double		 hi;	/*   within [-1, 1] */
	double		 stat;	/* z (see each test); 0 if none */
	double		 df;	/* for STATS_QUASI, phi's df */
				/*   (HUGE_VAL if known); else 0 */
};

/*
 * Counts, one profile per side: k1 of n1 samples in base, k2 of n2 in
 * new.  Tests H0: p1 == p2 with stats_fisher() when the null variance is
 * below STATS_EXACT_MAXVAR and with stats_normal() above it, and gives
 * Newcombe's hybrid score interval at level 1 - alpha.  stat is the
 * pooled z, positive when the share grew.  n1 == 0 or n2 == 0 is
 * STATS_UNTESTABLE.  Returns 0, or -1 if a count is negative, above
 * STATS_MAX_N or k > n, or alpha is not in (0, 1).
 */
int	stats_counts(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
	    double alpha, struct stats_result *);

/*
 * The alternative a test is against.  GREATER is "the new share is
 * larger", the direction of a regression; note that R's fisher.test()
 * calls this alternative "less", since it names them by the odds ratio
 * of the table with the base row first.
 */
enum stats_alt {
	STATS_LESS = -1,	/* p2 < p1 */
	STATS_TWO_SIDED = 0,	/* p2 != p1 */
	STATS_GREATER = 1,	/* p2 > p1 */
};

/*
 * Fisher's exact test, two-sided: the probability, under the
 * hypergeometric null of the 2x2 table {k1, n1 - k1; k2, n2 - k2}, of
 * the tables no more likely than the one observed (with R's relative
 * tolerance of 1e-7).  Always exact, whatever the counts; the cost grows
 * as the square root of the null variance.  1 if either n is 0 or the
 * table has one possible outcome; -1 on invalid counts.
 */
double	stats_fisher(int64_t k1, int64_t n1, int64_t k2, int64_t n2);

/*
 * Fisher's exact test against any alternative: two-sided it is
 * stats_fisher(), bit for bit; against STATS_GREATER it is P(X <= k1)
 * and against STATS_LESS P(X >= k1), X hypergeometric as above.  Always
 * exact; same return contract as stats_fisher(), and -1 for an invalid
 * alt as well.
 */
double	stats_fisher_alt(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
	    enum stats_alt);

/*
 * The p-value stats_counts() reports, against any alternative: Fisher's
 * exact test while the null variance is below STATS_EXACT_MAXVAR, the
 * normal approximation (continuity-corrected, one tail for one-sided
 * alternatives) above it.  Two-sided it equals stats_counts()' p bit for
 * bit.  Same return contract as stats_fisher_alt().
 */
double	stats_pvalue(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
	    enum stats_alt);

/*
 * The minimum attainable p-value of stats_pvalue() for a row with K
 * samples in all, n1 in base and n2 in new: the p-value of its most
 * extreme split (the least likely end of the support two-sided, the end
 * the alternative points to one-sided).  No p-value of the row can be
 * smaller.  1 if n1 or n2 is 0 or the support has one table; a value
 * below 1e-300 may be given as 0; -1 if K > n1 + n2, a count is
 * negative or above STATS_MAX_N, or alt is invalid.  Costs about one
 * p-value at the end of the support: under a microsecond on average
 * over the rows of a 40,000-row diff.
 */
double	stats_pmin(int64_t K, int64_t n1, int64_t n2, enum stats_alt);

/*
 * The approximation to stats_fisher() used for large counts: the
 * hypergeometric mean and variance with a continuity correction of 1/2.
 * Same return contract as stats_fisher().
 */
double	stats_normal(int64_t k1, int64_t n1, int64_t k2, int64_t n2);

/*
 * log P(X = x) for X hypergeometric: x of the K marked items fall in a
 * group of n1, the rest in a group of n2.  Accurate to about 1e-13 in
 * absolute terms even for n near STATS_MAX_N (Loader's saddle-point
 * method).  -HUGE_VAL outside the support or for invalid arguments.
 */
double	stats_hyper_logpmf(int64_t x, int64_t n1, int64_t n2, int64_t K);

/*
 * Wilson's score interval for k of n at level 1 - alpha, and Newcombe's
 * hybrid score interval for p2 - p1 built from two of them (method 10
 * of Newcombe 1998).  Both return 0, or -1 on invalid arguments; n == 0
 * gives the whole range ([0, 1], or [-1, 1]).
 */
int	stats_wilson(int64_t k, int64_t n, double alpha, double *lo,
	    double *hi);
int	stats_newcombe(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
	    double alpha, double *lo, double *hi);

/*
 * Benjamini-Hochberg: replace the m p-values in p by adjusted ones
 * (q-values), so that calling significant every q <= alpha keeps the
 * expected false discovery rate at alpha.  The result is monotone in p,
 * capped at 1, equal for equal p, and independent of the order of the
 * input.  NaN counts as 1.  scratch holds m indices and is the caller's;
 * nothing is allocated.  Untestable functions should be left out of p,
 * since each one counted raises every other q.
 */
void	stats_bh(double *p, size_t m, size_t *scratch);

/*
 * A discrete false discovery rate procedure: Tarone's trimming, then
 * Benjamini-Hochberg over the rows left (Gilbert 2005).  p[i] is row
 * i's p-value and pmin[i] its minimum attainable p-value (stats_pmin(),
 * for the same alternative).  M(K) is the number of rows with pmin <=
 * alpha / K and K* the smallest K >= 1 with M(K) <= K; the family is
 * the M(K*) rows with pmin <= alpha / K*, and BH at alpha runs over it
 * alone.  q[i] is then row i's BH q-value within the family, or NaN if
 * the row was trimmed (it can never be a discovery here); q[i] <= alpha
 * is the procedure's verdict at this alpha only.  NaN or out-of-range
 * p and pmin count as 1 and 0 as in stats_bh().  scratch holds m
 * indices.  The result is independent of the order of the rows.
 * Returns 0, or -1 if alpha is not in (0, 1), r is NULL, or m > 0 and
 * an array is NULL.
 */
struct stats_fdr {
	size_t		 kstar;		/* Tarone's K* */
	double		 cutoff;	/* alpha / K*: rows with a larger */
					/*   pmin were trimmed */
	size_t		 kept;		/* M(K*), the family */
	size_t		 rejected;	/* R, the rows with q <= alpha */
	double		 threshold;	/* min(alpha, (R + 1) alpha / */
					/*   kept): the p-value a further */
					/*   discovery would need; alpha */
					/*   when kept is 0 */
};

int	stats_fdr_discrete(const double *p, const double *pmin, size_t m,
	    double alpha, double *q, size_t *scratch, struct stats_fdr *);

/*
 * Benjamini and Yekutieli's false-coverage-rate adjustment: the alpha
 * at which to build each interval (its level is 1 minus this) when R
 * rows of a family of m were selected by a step-up procedure at alpha:
 * R alpha / m, and alpha / m when R is 0 (the level of a first
 * discovery); alpha when m is 0.  -1 if alpha is not in (0, 1) or R >
 * m.
 */
double	stats_fcr_alpha(size_t R, size_t m, double alpha);

/*
 * The noise half-width z(1 - alpha/2) * sqrt(p (1 - p) (1/n1 + 1/n2)):
 * a change of the share p smaller than this is never significant at
 * alpha.  The minimum detectable effect adds z(power) to the factor: the
 * change the test finds with probability power.  Both are in share
 * units, capped at 1; 1 when n1 or n2 is 0 or below, and -1 when p,
 * alpha or power is outside [0, 1], (0, 1) or (0, 1).
 */
double	stats_noise(double p, int64_t n1, int64_t n2, double alpha);
double	stats_mde(double p, int64_t n1, int64_t n2, double alpha,
	    double power);

/*
 * The power of stats_pvalue()'s test at a per-test threshold thr: the
 * probability that p <= thr when k1 ~ Binomial(n1, p1) and k2 ~
 * Binomial(n2, p2) independently.  Exact (to 4e-12) while the null
 * variance at the expected counts is below STATS_EXACT_MAXVAR, where
 * the cost grows as the product of the two binomials' standard
 * deviations (some milliseconds at n = 1000, up to a second or so just
 * below the switch); normal theory with the continuity correction above
 * it, where the test is the normal one.  0 if n1 or n2 is 0; -1 if a
 * share is outside [0, 1], a count is negative or above STATS_MAX_N,
 * thr is not in (0, 1), or alt is invalid.
 */
double	stats_fisher_power(double p1, int64_t n1, double p2, int64_t n2,
	    double thr, enum stats_alt);

/*
 * Replicates as counts with a dispersion shared across functions (the
 * model, and the simulations that check it, are in stats_disp.c and
 * t_stats.c).  Run r of a side has k_r of n_r samples, with variance
 * phi n_r p (1 - p), phi >= 1.  The caller sums each side's runs for the
 * test, and uses the runs themselves for phi:
 *
 *	for each function: stats_disp_pearson() -> struct stats_disp
 *	once: stats_disp_prior() over all of them
 *	for each function: stats_disp_posterior() -> phi, df;
 *	    stats_disp_test() and stats_disp_pmin() with them
 *
 * stats_disp_pearson(): one function's Pearson estimate of phi from the
 * spread of its runs within each side, s2 = X^2 / df, with df = runs - 1
 * for each side that has at least two non-empty runs and at least
 * STATS_DISP_MINCOUNT expected samples a run in each cell (in the
 * function and out of it); s2 is NaN and df 0 when no side has.  minexp
 * is the smallest such expected count of the sides counted, and v the
 * binomial variance of a run at the share of all the runs, n p (1 - p)
 * with n the mean size of the non-empty runs.  Returns 0,
 * or -1 on invalid counts, a sum above STATS_MAX_N, or a NULL array with
 * a non-zero count.
 */
#define STATS_DISP_MINCOUNT	2	/* for a function's own estimate */
#define STATS_DISP_FITCOUNT	10	/* for fitting the prior's df */

struct stats_disp {
	double		 s2;	/* X^2 / df */
	double		 df;
	double		 minexp;	/* expected samples a run */
	double		 v;	/* a run's binomial variance, n p (1 - p) */
};

int	stats_disp_pearson(const int64_t *k1, const int64_t *n1, size_t m1,
	    const int64_t *k2, const int64_t *n2, size_t m2,
	    struct stats_disp *);

/*
 * stats_disp_prior(): what the m functions' estimates say together.
 * s02 is the common dispersion, sum X^2 / sum df over the functions
 * with df > 0 (df is that sum of df): the runs vary s02 times as much as
 * sampling alone makes them, and the intervals are sqrt(s02) times as
 * wide as pooling would make them, which is what the report should warn
 * about when it is large.  p is the smaller p-value of Pearson's test
 * that phi = 1, P(chi^2(sum df) > sum X^2), over all the functions and
 * over those with at least STATS_DISP_FITCOUNT expected samples a run,
 * reported and deciding nothing.  binomial is set when no function has
 * df > 0: nothing shows how the runs vary, and every function's phi is
 * 1.  The prior's
 * scale is the trend c + b v in a run's binomial variance v (b >= 0; b
 * is about 0 when all functions share one phi), and d0 is the df of
 * Smyth's (2004) prior about it, fitted to the functions with at least
 * STATS_DISP_FITCOUNT expected samples a run (to all with df > 0 if
 * fewer than two have that many): HUGE_VAL when the functions cannot be
 * told from the trend, 0 when it cannot be fitted.  Returns 0, or -1 if
 * pr is NULL or f is NULL with m > 0.
 */
struct stats_disp_prior {
	double		 s02;		/* the common dispersion */
	double		 df;		/* its df */
	double		 p;		/* the smaller p of the two */
					/*   tests that phi = 1 */
	int		 binomial;	/* n == 0: phi is 1 */
	double		 c, b;		/* the trend c + b v */
	double		 d0;		/* the prior's df, or HUGE_VAL */
	size_t		 n;		/* the functions with df > 0 */
};

int	stats_disp_prior(const struct stats_disp *, size_t m,
	    struct stats_disp_prior *);

/*
 * stats_disp_posterior(): a function's moderated dispersion, (d0 t + df
 * s2) / (d0 + df) with t = c + b v the trend at its v, floored at 1,
 * and in *dfpost (if not NULL) the df it is known to, d0 + df but at
 * most the prior's df.  When binomial is set it is exactly 1 with
 * *dfpost HUGE_VAL; with d0 HUGE_VAL it is t, known to the prior's df.
 * NaN on invalid arguments.
 */
double	stats_disp_posterior(const struct stats_disp *,
	    const struct stats_disp_prior *, double *dfpost);

/*
 * stats_disp_test(): the test of the pooled counts (k1 of n1, k2 of n2,
 * each side's runs summed) at dispersion phi known to df df.  phi <= 1
 * with df HUGE_VAL (phi known to be 1) is stats_counts(), bit for bit,
 * with p for alt.  Otherwise it is STATS_QUASI at max(phi, 1): the
 * continuity-corrected z on effective counts k / phi, referred to
 * Student's t with df df (the normal when df is HUGE_VAL), and
 * Newcombe's interval on the effective counts at that t quantile.  stat
 * is z, positive when the share grew.  Returns 0, or -1 on invalid
 * counts, alpha or alt, phi NaN or infinite, or df not positive.
 */
int	stats_disp_test(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
	    double phi, double df, double alpha, enum stats_alt,
	    struct stats_result *);

/*
 * The two halves of stats_disp_test(), for a caller that learns the
 * level of its intervals from the p-values (a false-coverage-rate
 * level): stats_disp_p() is the test with lo and hi left at [-1, 1],
 * and stats_disp_interval() the interval at 1 - alpha alone.  Same
 * arguments and returns as stats_disp_test().
 */
int	stats_disp_p(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
	    double phi, double df, enum stats_alt, struct stats_result *);
int	stats_disp_interval(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
	    double phi, double df, double alpha, double *lo, double *hi);

/*
 * stats_disp_pmin(): the minimum attainable p-value of stats_disp_test()
 * for K samples in all (stats_pmin() when phi is known to be 1).  -1 as
 * stats_pmin() and stats_disp_test().
 */
double	stats_disp_pmin(int64_t K, int64_t n1, int64_t n2, double phi,
	    double df, enum stats_alt);

/*
 * Value-weighted quantities by the delta method (stats_moment.c): heap
 * bytes, contention delay, bytes per object.  A node's sums over the
 * events (samples) behind it, as an agg keeps them (v its value column,
 * the rest agg_moments()): v the sum of the values, c of the counts
 * (objects, contentions), and the
 * second moments vv = sum v^2, vc = sum v c, cc = sum c^2, each event
 * an independent draw.  A total is the same over every event.
 */
struct stats_vsum {
	double		 v, c;
	double		 vv, vc, cc;
};

/* An estimate, its standard error and its 1 - alpha interval. */
struct stats_vci {
	double		 est, se, lo, hi;
};

/*
 * The difference of two value shares, r = node.v / total.v on each
 * side, new - base: each side's variance is (vv (1 - 2r) + r^2
 * total.vv) / total.v^2, since an event's share of the node is 0 or
 * all of it, and the two sides' add.  The interval is est -+ z(1 -
 * alpha/2) se, so it always holds est.  Returns 0, or -1 (out
 * untouched) when a total.v is not positive, a moment is negative or
 * not finite, or alpha is not in (0, 1).
 */
int	stats_vshare_diff(const struct stats_vsum *node1,
	    const struct stats_vsum *total1, const struct stats_vsum *node2,
	    const struct stats_vsum *total2, double alpha, struct stats_vci *);
/*
 * The difference of two rates, v / t for exposures t1 and t2 (seconds
 * of window, requests) > 0: each side's variance is vv / t^2, that of
 * a compound Poisson sum.  -1 as above, and when an exposure is not
 * positive.
 */
int	stats_vrate_diff(const struct stats_vsum *node1, double t1,
	    const struct stats_vsum *node2, double t2, double alpha,
	    struct stats_vci *);
/*
 * Values per count, R = v / c (bytes per object, delay per contention),
 * on one side: variance (vv - 2 R vc + R^2 cc) / c^2; and the
 * difference of two sides, new - base.  -1 as above, and when a c is
 * not positive.
 */
int	stats_vratio(const struct stats_vsum *, double alpha,
	    struct stats_vci *);
int	stats_vratio_diff(const struct stats_vsum *node1,
	    const struct stats_vsum *node2, double alpha, struct stats_vci *);

/* P(chi^2(k) > x), k > 0 (not necessarily whole); NaN otherwise. */
double	stats_chisq_sf(double x, double k);

/*
 * Digamma and trigamma for x > 0, to about 1e-15, and the inverse of
 * trigamma (the y > 0 with trigamma(y) = x, for x > 0).  NaN otherwise.
 */
double	stats_digamma(double x);
double	stats_trigamma(double x);
double	stats_trigamma_inv(double x);

/* The standard normal distribution: P(Z <= z), P(Z > z), and z for p. */
double	stats_norm_cdf(double z);
double	stats_norm_sf(double z);
double	stats_norm_quantile(double p);	/* +-HUGE_VAL at 0 and 1 */

/*
 * Student's t with df > 0 degrees of freedom (not necessarily whole):
 * P(T <= t), and t for p.  NaN for df <= 0.
 */
double	stats_t_cdf(double t, double df);
double	stats_t_quantile(double p, double df);

/* The regularized incomplete beta function I_x(a, b), a, b > 0. */
double	stats_betai(double a, double b, double x);

const char *stats_method_name(enum stats_method);

/*
 * Change points along a sequence of T points (stats_cpt.c): point t has
 * k[t] samples of a function out of an exposure n[t], its sample count
 * (STATS_CPT_BINOMIAL: shares) or its seconds (STATS_CPT_POISSON: rates).
 * stats_cpt_lr() is the log-likelihood ratio of "a level before split
 * and another from split on" against "one level" over the points [lo,
 * hi), lo < split < hi; 0 where a side has no exposure, -1 on invalid
 * arguments.
 *
 * stats_cpt_scan() scans every split of [lo, hi) for the largest ratio
 * and tests it: the test of the two sides' pooled counts at that split
 * (stats_disp_p() for shares, the exact conditional binomial for rates,
 * at dispersion phi known to df df), times the number of splits with
 * exposure on both sides, capped at 1: a Bonferroni bound on the
 * probability, under one level, that any split's test is as small, so
 * valid whatever the splits' correlation.  pmin is a lower bound of the
 * p-values the segment's total could give (for Tarone's trimming).
 * Returns 0, or -1 on invalid arguments.  No allocation: O(hi - lo).
 */
enum stats_cpt_model {
	STATS_CPT_BINOMIAL = 0,	/* k of n samples: shares */
	STATS_CPT_POISSON,	/* k samples in n seconds: rates */
};

struct stats_cpt {
	size_t		 split;		/* first point after the change */
	double		 lr;		/* its ratio, divided by phi */
	double		 p;		/* the scan's p-value */
	double		 p_split;	/* the test at split alone */
	double		 pmin;		/* no p can be smaller */
	size_t		 nsplits;	/* splits scanned */
	int64_t		 k1, k2;	/* samples before and after */
	double		 n1, n2;	/* exposure before and after */
};

double	stats_cpt_lr(const int64_t *k, const double *n, size_t lo,
	    size_t split, size_t hi, enum stats_cpt_model);
int	stats_cpt_scan(const int64_t *k, const double *n, size_t lo,
	    size_t hi, enum stats_cpt_model, double phi, double df,
	    struct stats_cpt *);
/*
 * The level of k samples in exposure n, k/n, and its interval at 1 -
 * alpha: Wilson's for a share, the score interval for a Poisson rate,
 * both on effective counts k/phi and n/phi with Student's t at df (the
 * normal when df is HUGE_VAL).  Returns 0, or -1 on invalid arguments;
 * n == 0 gives 0 in [0, 1] (shares) or [0, HUGE_VAL] (rates).
 */
int	stats_cpt_level(int64_t k, double n, enum stats_cpt_model,
	    double phi, double df, double alpha, double *est, double *lo,
	    double *hi);

/*
 * One profile a side: the spread of no change, from the functions
 * themselves (the model and its reasons are in stats_null.c).
 * stats_null() reads m functions' counts, k1[i] of n1 and k2[i] of n2,
 * each a part of its side no other one shares (flat counts).  Those
 * with STATS_NULL_MINCOUNT samples or more and some on each side, if
 * there are STATS_NULL_MINUNITS of them, give tau2, the variance of a
 * log share between two processes beyond sampling (0 when sampling
 * explains the spread); n is how many did, df what tau2 is known to.
 * scratch holds 3 m doubles.  Returns 0, or -1 on invalid counts.
 * stats_null_phi() is the dispersion it gives a hypothesis of K pooled
 * samples, at p = K / (n1 + n2): one unit's (a flat count),
 * 1 + 2 tau2 p (1 - p) / (1/n1 + 1/n2); a sum of units (cum, a function
 * with its callees), 1 + 2 tau2 min(p (1 - p), conc) / (1/n1 + 1/n2).
 * It is exactly 1 below STATS_NULL_PHI_EXACT (a standard error 1%
 * wider), where the exact test on the counts is worth more than the
 * widening.
 */
#define STATS_NULL_MINCOUNT	20
#define STATS_NULL_MINUNITS	8
#define STATS_NULL_DF_PER_UNIT	0.75
#define STATS_NULL_PHI_EXACT	1.02
#define STATS_NULL_DF_NORMAL	1e5

struct stats_null {
	double		 tau2;
	size_t		 n;
	double		 df;		/* tau2's; HUGE_VAL when tau2 is 0 */
	double		 conc;		/* sum of the units' pooled shares' */
					/*   squares over the sum of them */
};

int	stats_null(const int64_t *k1, int64_t n1, const int64_t *k2,
	    int64_t n2, size_t m, double *scratch, struct stats_null *);
/*
 * The same, trimming the trim largest standardized squares (fractional:
 * the last one by its fraction) in place of a tenth of them, with the
 * target the chi-square's own for the fraction kept; trim < 0 is
 * stats_null()'s tenth.  So a caller that took some functions out
 * (spread.c) can trim no more of the rest than it trimmed before.  A
 * caller that needs the spread only if it is below cap (HUGE_VAL: any)
 * gets tau2 = cap when it is not, without the search for it.
 */
int	stats_null_trim(const int64_t *k1, int64_t n1, const int64_t *k2,
	    int64_t n2, size_t m, double trim, double cap, double *scratch,
	    struct stats_null *);
double	stats_null_phi(const struct stats_null *, int64_t K, int64_t n1,
	    int64_t n2, int cum);
/*
 * stats_null_df(): the df a test at that phi is known to: the estimate's
 * df (0.75 n, STATS_NULL_DF_PER_UNIT) times (phi / (phi - 1))^2,
 * since only phi - 1 of it is estimated; HUGE_VAL at phi 1 and above
 * STATS_NULL_DF_NORMAL (the normal's tails are then t's).
 */
double	stats_null_df(const struct stats_null *, double phi);

#endif

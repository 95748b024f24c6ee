/*
 * Change points along a sequence of profiles: the likelihood-ratio scan
 * over the split points of a function's counts, its p-value, and the
 * level of a segment with its interval.  doc/statistics.md (section
 * "Change points") says why these choices; this file says how.
 *
 * The model is diff's: at each point t the function has k[t] of the
 * point's n[t] samples, binomial with the point's share (shares), or
 * k[t] samples in n[t] seconds, Poisson with the point's rate (rates).
 * "No change" is one level over the segment; "a change at s" is one
 * level before s and another from s on.  The ratio of the two maximized
 * likelihoods depends on the counts only through the two sides' sums,
 * so a scan over every split costs one pass with running sums.
 *
 * The null distribution of the largest ratio is that of a maximum over
 * correlated splits.  Conditioned on the segment's total K (which
 * removes the unknown level), each split's two pooled counts are those
 * of a 2x2 table, for which diff's exact test gives a valid p-value;
 * the probability that any of S such tests is at most x is at most S x
 * (Bonferroni), whatever their correlation.  The scan's p-value is
 * that bound at the split the ratio chose: exact per split, and
 * conservative by at most the factor S, which a real change of many
 * samples pays easily (its p at the split is astronomically small) and
 * which keeps the false-alarm rate under alpha on series of any length
 * (tests/sim-series.sh measures both).
 *
 * Pure math: no I/O, no allocation, no state.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"
#include "stats/stats_int.h"

/* k log(k / n), 0 at k == 0. */
static double
xlogx(double k, double n)
{
	return k > 0 ? k * log(k / n) : 0;
}

/* The maximized log-likelihood of k in n, less what the ratio cancels. */
static double
seg_ll(double k, double n, enum stats_cpt_model m)
{
	if (n <= 0)
		return 0;
	if (m == STATS_CPT_POISSON)
		return xlogx(k, n);
	return xlogx(k, n) + xlogx(n - k, n);
}

static double
ratio(double k1, double n1, double k2, double n2, enum stats_cpt_model m)
{
	double lr;

	if (n1 <= 0 || n2 <= 0)
		return 0;
	lr = 2 * (seg_ll(k1, n1, m) + seg_ll(k2, n2, m) -
	    seg_ll(k1 + k2, n1 + n2, m));
	return lr > 0 ? lr : 0;		/* rounding below 0 */
}

static int
valid_model(enum stats_cpt_model m)
{
	return m == STATS_CPT_BINOMIAL || m == STATS_CPT_POISSON;
}

/* Is point t's count possible under the model? */
static int
valid_point(int64_t k, double n, enum stats_cpt_model m)
{
	if (k < 0 || k > STATS_MAX_N || !(n >= 0) || !isfinite(n))
		return 0;
	return m == STATS_CPT_POISSON || (double)k <= n;
}

double
stats_cpt_lr(const int64_t *k, const double *n, size_t lo, size_t split,
    size_t hi, enum stats_cpt_model m)
{
	double	 k1 = 0, n1 = 0, k2 = 0, n2 = 0;
	size_t	 t;

	if (k == NULL || n == NULL || !valid_model(m) || !(lo < split) ||
	    !(split < hi))
		return -1;
	for (t = lo; t < hi; t++) {
		if (!valid_point(k[t], n[t], m))
			return -1;
		if (t < split) {
			k1 += (double)k[t];
			n1 += n[t];
		} else {
			k2 += (double)k[t];
			n2 += n[t];
		}
	}
	return ratio(k1, n1, k2, n2, m);
}

/* Two-sided, for the Poisson model: X | K ~ Binomial(K, f). */
static double
rate_p(double x, double K, double f, double phi, double df)
{
	double	 up, down, z;

	if (K == 0 || f <= 0 || f >= 1)
		return 1;
	if (phi <= 1 && df == HUGE_VAL) {
		/* P(X >= x) and P(X <= x) from the incomplete beta. */
		up = x <= 0 ? 1 : stats_betai(x, K - x + 1, f);
		down = x >= K ? 1 : stats_betai(K - x, x + 1, 1 - f);
		return fmin(1, 2 * fmin(up, down));
	}
	phi = fmax(phi, 1);
	z = (fabs(x - K * f) - phi / 2) / sqrt(phi * K * f * (1 - f));
	if (z <= 0)
		return 1;
	return fmin(1, 2 * (df == HUGE_VAL ? stats_norm_sf(z) :
	    stats_t_cdf(-z, df)));
}

/* The test of one split's two pooled counts; -1 on invalid counts. */
static double
split_p(double k1, double n1, double k2, double n2, enum stats_cpt_model m,
    double phi, double df)
{
	struct stats_result r;

	if (m == STATS_CPT_POISSON)
		return rate_p(k1, k1 + k2, n1 / (n1 + n2), phi, df);
	if (stats_disp_p((int64_t)k1, (int64_t)n1, (int64_t)k2, (int64_t)n2,
	    phi, df, STATS_TWO_SIDED, &r) == -1)
		return -1;
	return r.p;
}

/*
 * The smallest p-value a split could give with K samples in all: the
 * test at the more extreme of the two ends, all of them before or all
 * after.  With 64 samples or more at a known dispersion of 1 it is
 * below 2^-64 (the less likely end has a probability of at most the
 * smaller side's fraction to the K-th power), far under any threshold
 * the trimming could set, and taken as 0, as judge.c does.
 */
static double
split_pmin(double K, double n1, double n2, enum stats_cpt_model m,
    double phi, double df)
{
	if (K >= 64 && phi <= 1 && df == HUGE_VAL)
		return 0;
	if (m == STATS_CPT_BINOMIAL)
		return stats_disp_pmin((int64_t)K, (int64_t)n1, (int64_t)n2,
		    phi, df, STATS_TWO_SIDED);
	return fmin(rate_p(0, K, n1 / (n1 + n2), phi, df),
	    rate_p(K, K, n1 / (n1 + n2), phi, df));
}

int
stats_cpt_scan(const int64_t *k, const double *n, size_t lo, size_t hi,
    enum stats_cpt_model m, double phi, double df, struct stats_cpt *c)
{
	double	 K = 0, N = 0, k1 = 0, n1 = 0, lr, pm, best = -1;
	size_t	 t;

	if (k == NULL || n == NULL || c == NULL || !valid_model(m) ||
	    lo >= hi || isnan(phi) || !isfinite(phi) || !(df > 0))
		return -1;
	for (t = lo; t < hi; t++) {
		if (!valid_point(k[t], n[t], m))
			return -1;
		K += (double)k[t];
		N += n[t];
	}
	if (m == STATS_CPT_BINOMIAL && N > (double)STATS_MAX_N)
		return -1;
	c->split = lo;
	c->lr = 0;
	c->p = c->p_split = c->pmin = 1;
	c->nsplits = 0;
	c->k1 = c->k2 = 0;
	c->n1 = c->n2 = 0;
	for (t = lo; t + 1 < hi; t++) {
		k1 += (double)k[t];
		n1 += n[t];
		if (n1 <= 0 || N - n1 <= 0)
			continue;
		c->nsplits++;
		lr = ratio(k1, n1, K - k1, N - n1, m);
		if (lr > best) {
			best = lr;
			c->split = t + 1;
			c->k1 = (int64_t)k1;
			c->k2 = (int64_t)(K - k1);
			c->n1 = n1;
			c->n2 = N - n1;
		}
		if (K > 0 && c->pmin > 0) {
			pm = split_pmin(K, n1, N - n1, m, phi, df);
			if (pm < 0)
				return -1;
			c->pmin = fmin(c->pmin, pm);
		}
	}
	if (c->nsplits == 0 || K == 0) {
		c->pmin = 1;
		return 0;
	}
	c->lr = best / fmax(phi, 1);
	c->p_split = split_p((double)c->k1, c->n1, (double)c->k2, c->n2, m,
	    phi, df);
	if (c->p_split < 0)
		return -1;
	c->p = fmin(1, c->p_split * (double)c->nsplits);
	c->pmin = fmin(1, c->pmin * (double)c->nsplits);
	return 0;
}

int
stats_cpt_level(int64_t k, double n, enum stats_cpt_model m, double phi,
    double df, double alpha, double *est, double *lo, double *hi)
{
	double	 z, ke, ne, c, h;

	if (!valid_model(m) || !valid_point(k, n, m) || !valid_alpha(alpha) ||
	    isnan(phi) || !isfinite(phi) || !(df > 0) || est == NULL ||
	    lo == NULL || hi == NULL)
		return -1;
	if (n == 0) {
		*est = *lo = 0;
		*hi = m == STATS_CPT_BINOMIAL ? 1 : HUGE_VAL;
		return 0;
	}
	phi = fmax(phi, 1);
	z = df == HUGE_VAL ? z_half(alpha) : stats_t_quantile(1 - alpha / 2,
	    df);
	ke = (double)k / phi;
	ne = n / phi;
	*est = (double)k / n;
	if (m == STATS_CPT_BINOMIAL) {
		/* Wilson: the shares whose score test accepts ke of ne. */
		c = (ke + z * z / 2) / (ne + z * z);
		h = z * sqrt(ke * (ne - ke) / ne + z * z / 4) / (ne + z * z);
		*lo = clamp(c - h, 0, 1);
		*hi = clamp(c + h, 0, 1);
	} else {
		/* The rates whose Poisson score test accepts ke in ne. */
		c = ke + z * z / 2;
		h = z * sqrt(ke + z * z / 4);
		*lo = fmax(0, (c - h) / ne);
		*hi = (c + h) / ne;
	}
	*lo = fmin(*lo, *est);
	*hi = fmax(*hi, *est);
	return 0;
}

/*
 * What the test can find: the noise half-width and the minimum
 * detectable effect of normal theory, and the exact power of
 * stats_pvalue()'s test, summed over the counts it rejects with
 * stats.c's probabilities and p-values.
 *
 * Pure math, as stats.c says: no I/O, no allocation, no state.
 */

#include <math.h>
#include <stdint.h>

#include "stats/stats.h"
#include "stats/stats_int.h"

/*
 * The noise half-width and the minimum detectable effect.
 *
 * For a function whose true share is p in both windows, p2 - p1 has
 * standard error sigma = sqrt(p (1 - p) (1/n1 + 1/n2)), so an observed
 * change under z(1 - alpha/2) sigma is not significant: that is the
 * noise.  A true change delta is found when the observed one clears
 * that bar, which happens with probability about Phi(delta / sigma -
 * z(1 - alpha/2)); setting that to the power gives the MDE, (z(1 -
 * alpha/2) + z(power)) sigma: about 2.8 sigma at alpha = 0.05 and power
 * 0.8.  Both grow with p (1 - p), so they are largest at p = 1/2.
 */
static double
sigma_diff(double p, int64_t n1, int64_t n2)
{
	return sqrt(p * (1 - p) * (1.0 / n1 + 1.0 / n2));
}

double
stats_noise(double p, int64_t n1, int64_t n2, double alpha)
{
	if (!(p >= 0 && p <= 1) || !valid_alpha(alpha))
		return -1;
	if (n1 <= 0 || n2 <= 0)
		return 1;
	return fmin(1, z_half(alpha) * sigma_diff(p, n1, n2));
}

double
stats_mde(double p, int64_t n1, int64_t n2, double alpha, double power)
{
	if (!(p >= 0 && p <= 1) || !valid_alpha(alpha) ||
	    !valid_alpha(power))
		return -1;
	if (n1 <= 0 || n2 <= 0)
		return 1;
	return fmin(1, (z_half(alpha) + stats_norm_quantile(power)) *
	    sigma_diff(p, n1, n2));
}

/*
 * Exact power.
 *
 * The chance that the test rejects when the true shares are p1 and p2 is
 * the sum, over every pair of counts (k1, k2) it rejects, of b(k1; n1,
 * p1) b(k2; n2, p2).  The sum is taken over the rectangle where each
 * binomial has all but 1e-12 of its mass, found by walking each pmf out
 * from its mode (the rest of a tail is at most t r / (1 - r) after a
 * term t with ratio r, as for the hypergeometric), so at most 4e-12 of
 * the power is left out.  It is arranged by K = k1 + k2, since the test
 * conditions on K: within one K the rejected k1 form a tail at each end
 * of the support (two-sided, split at the mode, because the p-value grows
 * with the table's probability) or at one end (one-sided, since a
 * cumulative probability is monotone), so each K needs only the
 * boundaries, found by probing p-values.  A boundary moves by about n1
 * / N from one K to the next, so the search starts from the last one and
 * steps out by doubling, a few p-values a K.  Along a run of k1 the
 * joint probability changes by ratio_up() times the odds ratio psi = p1
 * (1 - p2) / ((1 - p1) p2), one multiplication a term.
 *
 * The test whose power this is is pvalue()'s, so that the figure is the
 * power of the verdicts themselves, including the switch.  The cost
 * grows as the product of the two binomials' standard deviations; where
 * the null variance at the expected K is above STATS_EXACT_MAXVAR, so
 * that the test is the normal one, normal theory is used instead:
 * Phi((|d| - z s0 - c) / s1) + Phi((-|d| - z s0 - c) / s1), with s0 and
 * s1 the standard errors of p2 - p1 under the null and the alternative
 * and c = (1/n1 + 1/n2) / 2 the continuity correction (one term
 * one-sided, z from thr rather than thr / 2).  At that variance it is
 * within 0.002 of the simulated power (doc/statistics.md).
 */
#define POWER_EPS	1e-12

/* [*lo, *hi]: the counts where Binomial(n, p) has all but 2 eps. */
static void
binom_range(double n, double p, double eps, double *lo, double *hi)
{
	double	q = 1 - p, m, t, r, b, y;

	if (p <= 0 || q <= 0) {
		*lo = *hi = p <= 0 ? 0 : n;
		return;
	}
	m = clamp(floor((n + 1) * p), 0, n);
	b = exp(ldbinom(m, n, p, q));
	for (y = m, t = b; y > 0; y--) {
		r = y * q / ((n - y + 1) * p);	/* b(y - 1) / b(y) */
		if (r < 1 && t * r / (1 - r) < eps)
			break;
		t *= r;
	}
	*lo = y;
	for (y = m, t = b; y < n; y++) {
		r = (n - y) * p / ((y + 1) * q);	/* b(y + 1) / b(y) */
		if (r < 1 && t * r / (1 - r) < eps)
			break;
		t *= r;
	}
	*hi = y;
}

struct power_test {
	double		 n1, n2, K, thr;
	enum stats_alt	 alt;
};

static int
power_rejects(const struct power_test *t, double y)
{
	return pvalue(y, t->n1, t->n2, t->K, t->alt, NULL) <= t->thr;
}

/*
 * Walking from `from` to `to` in direction dir, power_rejects() holds on
 * a first stretch, perhaps empty: its last y, or from - dir if it is
 * empty.  The guess g is probed first.
 */
static double
power_edge(const struct power_test *t, double from, double to, int dir,
    double g)
{
	double	good = from - dir, bad = to + dir, y, step;

	y = clamp(g, fmin(from, to), fmax(from, to));
	if (power_rejects(t, y)) {
		good = y;
		for (step = 1; good != to; step *= 2) {
			y = dir > 0 ? fmin(good + step, to) :
			    fmax(good - step, to);
			if (!power_rejects(t, y)) {
				bad = y;
				break;
			}
			good = y;
		}
	} else {
		bad = y;
		for (step = 1; bad != from; step *= 2) {
			y = dir > 0 ? fmax(bad - step, from) :
			    fmin(bad + step, from);
			if (power_rejects(t, y)) {
				good = y;
				break;
			}
			bad = y;
		}
	}
	while (fabs(bad - good) > 1) {
		y = good + dir * floor(fabs(bad - good) / 2);
		if (power_rejects(t, y))
			good = y;
		else
			bad = y;
	}
	return good;
}

/* The sum of b(y; n1, p1) b(K - y; n2, p2) over y in [y0, y1]. */
static double
joint_sum(double y0, double y1, double K, double n1, double p1,
    double n2, double p2)
{
	double	q1 = 1 - p1, q2 = 1 - p2, psi, t, s, y;

	if (y0 > y1)
		return 0;
	t = exp(ldbinom(y0, n1, p1, q1) + ldbinom(K - y0, n2, p2, q2));
	if (y0 == y1)
		return t;
	psi = p1 * q2 / (q1 * p2);	/* y0 < y1: neither is 0 or 1 */
	for (s = t, y = y0; y < y1; y++) {
		t *= ratio_up(y, n1, n2, K) * psi;
		s += t;
	}
	return s;
}

static double
power_normal(double p1, double n1, double p2, double n2, double thr,
    enum stats_alt alt)
{
	double	pb = (p1 * n1 + p2 * n2) / (n1 + n2), d = p2 - p1, z;
	double	s0 = sqrt(pb * (1 - pb) * (1 / n1 + 1 / n2));
	double	s1 = sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2);
	double	c = 0.5 * (1 / n1 + 1 / n2);

	if (s1 <= 0)	/* both shares 0 or 1: the counts are certain */
		return stats_pvalue(llround(p1 * n1), n1, llround(p2 * n2),
		    n2, alt) <= thr;
	if (alt == STATS_TWO_SIDED) {
		z = -stats_norm_quantile(thr / 2);
		return fmin(1, stats_norm_cdf((fabs(d) - z * s0 - c) / s1) +
		    stats_norm_cdf((-fabs(d) - z * s0 - c) / s1));
	}
	z = -stats_norm_quantile(thr);
	return stats_norm_cdf((alt * d - z * s0 - c) / s1);
}

double
stats_fisher_power(double p1, int64_t n1, double p2, int64_t n2,
    double thr, enum stats_alt alt)
{
	struct power_test t;
	double	L1, U1, L2, U2, K, lo, hi, m, ylo, yhi, a, b, ga, gb, pw;
	double	N, EK;

	if (!(p1 >= 0 && p1 <= 1) || !(p2 >= 0 && p2 <= 1) ||
	    !valid_count(0, n1) || !valid_count(0, n2) ||
	    !valid_alpha(thr) || !valid_alt(alt))
		return -1;
	if (n1 == 0 || n2 == 0)
		return 0;
	N = (double)n1 + n2;
	EK = p1 * n1 + p2 * n2;
	if ((double)n1 * n2 * EK * (N - EK) / (N * N * (N - 1)) >=
	    STATS_EXACT_MAXVAR)
		return power_normal(p1, n1, p2, n2, thr, alt);
	binom_range(n1, p1, POWER_EPS, &L1, &U1);
	binom_range(n2, p2, POWER_EPS, &L2, &U2);
	t.n1 = n1;
	t.n2 = n2;
	t.thr = thr;
	t.alt = alt;
	pw = 0;
	ga = L1;
	gb = U1;
	for (K = L1 + L2; K <= U1 + U2; K++) {
		ylo = fmax(L1, K - U2);
		yhi = fmin(U1, K - L2);
		lo = K > n2 ? K - n2 : 0;
		hi = K < n1 ? K : n1;
		if (lo == hi)
			continue;	/* one table: p = 1 */
		t.K = K;
		m = alt == STATS_TWO_SIDED ? hyper_mode(lo, hi, n1, n2, K) :
		    alt == STATS_GREATER ? yhi : ylo - 1;
		ga += (double)n1 / N;
		gb += (double)n1 / N;
		if (alt != STATS_LESS && ylo <= fmin(yhi, m)) {
			a = power_edge(&t, ylo, fmin(yhi, m), +1, floor(ga));
			pw += joint_sum(ylo, a, K, n1, p1, n2, p2);
			ga = a;
		}
		if (alt != STATS_GREATER && fmax(ylo, m + 1) <= yhi) {
			b = power_edge(&t, yhi, fmax(ylo, m + 1), -1,
			    ceil(gb));
			pw += joint_sum(b, yhi, K, n1, p1, n2, p2);
			gb = b;
		}
	}
	return clamp(pw, 0, 1);
}

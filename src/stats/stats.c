/*
 * The statistics behind profdiff's verdicts: is a function's change in
 * share between a base and a new window more than sampling noise?  This
 * file is the test on counts: Loader's binomial and hypergeometric
 * probabilities, Fisher's exact test and its one-sided tails, the normal
 * approximation that takes over for large counts, the minimum
 * attainable p-value, and Wilson's and Newcombe's intervals.  The rest
 * of the statistics room builds on it, a job a file: stats_dist.c (the
 * normal, Student's t, the incomplete beta and gamma functions, digamma
 * and trigamma), stats_fdr.c (Benjamini-Hochberg, the discrete FDR, the
 * FCR level), stats_power.c (the noise, the MDE and the exact power)
 * and stats_disp.c (the dispersion between replicates); what they share
 * is in stats_int.h, which no other file includes.
 *
 * Pure math: no I/O, no allocation and no state outside the arguments
 * (even log-gamma is computed here, since lgamma(3) writes signgam).
 * Callers that must sort or rank pass their own scratch.  The essays
 * below give the model, the choice of method and its numerical care;
 * doc/statistics.md is the version for users, and tests/unit/t_stats.c
 * checks each claim against exact or published values and by
 * simulation.
 *
 * The model.  A profile is a set of n samples, each one landing in a
 * given function with probability p, independently; the number k that
 * lands there is then Binomial(n, p).  "Share" is k / n.  The question
 * for one function is H0: p1 == p2, base against new.  Samples are
 * counts, never values: nanoseconds or bytes are weights on samples, and
 * a sum of weights is not binomial.
 */

#include <math.h>
#include <stdint.h>

#include "stats/stats.h"
#include "stats/stats_int.h"

/* log(2 pi) / 2 and log(2 pi). */
#define LN_SQRT_2PI	0.918938533204672741780329736406
#define LN_2PI		1.837877066409345483560659472811

/* R's relative tolerance for "no more likely than observed". */
#define FISHER_RELTOL	1e-7

/* log(1e-300): stats_pmin() reports a p-value bounded below it as 0. */
#define PMIN_LOG_TINY	(-690.7755278982137)

/*
 * Log-gamma and binomial probabilities, after Loader.
 *
 * Every exact probability here is a ratio of factorials of numbers up to
 * 2^53.  Taking lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) loses
 * everything to cancellation: lgamma(2e9) is about 4e10, so its last bit
 * is worth 1e-5, and a probability known only to 1e-5 cannot be compared
 * with its mirror image to R's tolerance of 1e-7 (Fisher's test would
 * then drop or double a tail at random).  Loader ("Fast and accurate
 * computation of binomial probabilities", 2000) writes the log of a
 * binomial probability as the sum of two small, accurate terms:
 *
 *	stirlerr(n) = log n! - log(sqrt(2 pi n) (n/e)^n), which is 1/(12n)
 *	    minus smaller terms, and
 *	bd0(x, np) = x log(x / np) + np - x, the deviance, computed by a
 *	    series when x is near np, where the closed form cancels.
 *
 * Both are small when their arguments are large, so their errors are
 * small in absolute terms, and so is the error of the log-probability:
 * about 1e-13 in the tests, at n = 1e9.
 */

/*
 * stirlerr(n) for n = 0..15 (0 by convention), from 50-digit arithmetic:
 *
 *	from decimal import Decimal as D, getcontext; getcontext().prec = 50
 *	pi = D("3.14159265358979323846264338327950288419716939937510")
 *	s = sum(D(i).ln() for i in range(1, n + 1)) - (n + D("0.5")) *
 *	    D(n).ln() + n - (2 * pi).ln() / 2
 */
static const double sferr[16] = {
	0.0,
	8.10614667953272610701e-02,
	4.13406959554092970355e-02,
	2.76779256849983383570e-02,
	2.07906721037650933648e-02,
	1.66446911898211931391e-02,
	1.38761288230707484359e-02,
	1.18967099458917695276e-02,
	1.04112652619720962022e-02,
	9.25546218271273285483e-03,
	8.33056343336287079271e-03,
	7.57367548795184059029e-03,
	6.94284010720952991791e-03,
	6.40899418800420714315e-03,
	5.95137011275884749567e-03,
	5.55473355196280105250e-03,
};

/*
 * The asymptotic series of stirlerr, good to a few ulps for x > 15 with
 * as many terms as below (the first omitted term is under 1e-17); it
 * holds for any real x, which lgam() below relies on.
 */
static double
stirlerr_series(double x)
{
	const double	s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260,
			s3 = 1.0 / 1680, s4 = 1.0 / 1188;
	double		xx = x * x;

	if (x > 500)
		return (s0 - s1 / xx) / x;
	if (x > 80)
		return (s0 - (s1 - s2 / xx) / xx) / x;
	if (x > 35)
		return (s0 - (s1 - (s2 - s3 / xx) / xx) / xx) / x;
	return (s0 - (s1 - (s2 - (s3 - s4 / xx) / xx) / xx) / xx) / x;
}

/* For whole n >= 0. */
static double
stirlerr(double n)
{
	if (n <= 15)
		return sferr[(int)n];
	return stirlerr_series(n);
}

/*
 * log Gamma(x) for x > 0: Stirling's formula with the series above for
 * x >= 16, and the recurrence Gamma(x) = Gamma(x + j) / (x (x+1) ...
 * (x+j-1)) below that.  Absolute error about 1e-14 for the arguments
 * used here (half-integers and reals up to 1e8).
 */
double
lgam(double x)
{
	double	prod = 1;

	while (x < 16) {
		prod *= x;
		x += 1;
	}
	return (x - 0.5) * log(x) - x + LN_SQRT_2PI + stirlerr_series(x) -
	    log(prod);
}

/* x log(x / np) + np - x, without cancellation when x is near np. */
static double
bd0(double x, double np)
{
	double	ej, s, s1, v;
	int	j;

	if (fabs(x - np) < 0.1 * (x + np)) {
		v = (x - np) / (x + np);
		s = (x - np) * v;
		ej = 2 * x * v;
		v *= v;
		for (j = 1; j < 1000; j++) {
			ej *= v;
			s1 = s + ej / (2 * j + 1);
			if (s1 == s)
				return s1;
			s = s1;
		}
		return s;
	}
	return x * log(x / np) + np - x;
}

/*
 * log P(X = x) for X ~ Binomial(n, p), q = 1 - p given separately so
 * that neither loses precision near 0; x and n whole.
 */
double
ldbinom(double x, double n, double p, double q)
{
	double	lc;

	if (x < 0 || x > n)
		return -HUGE_VAL;
	if (p == 0)
		return x == 0 ? 0 : -HUGE_VAL;
	if (q == 0)
		return x == n ? 0 : -HUGE_VAL;
	if (x == 0)
		return p < 0.5 ? n * log1p(-p) : n * log(q);
	if (x == n)
		return q < 0.5 ? n * log1p(-q) : n * log(p);
	lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n * p) -
	    bd0(n - x, n * q);
	return lc - 0.5 * (LN_2PI + log(x) + log1p(-x / n));
}

/*
 * The hypergeometric probability as a ratio of three binomial ones
 * sharing p = K / N, which cancels the powers of p and q exactly:
 * C(n1, x) C(n2, K - x) / C(N, K) = b(x; n1) b(K - x; n2) / b(K; N).
 * Choosing p = K / N puts every binomial near its mode, where Loader's
 * terms are smallest.
 */
static double
hyper_lp(double x, double n1, double n2, double K)
{
	double	N = n1 + n2, p = K / N, q = (N - K) / N;

	return ldbinom(x, n1, p, q) + ldbinom(K - x, n2, p, q) -
	    ldbinom(K, N, p, q);
}

double
stats_hyper_logpmf(int64_t x, int64_t n1, int64_t n2, int64_t K)
{
	if (n1 < 0 || n2 < 0 || n1 > STATS_MAX_N || n2 > STATS_MAX_N ||
	    K < 0 || K > n1 + n2 || x < 0 || x > n1 || x > K ||
	    K - x > n2)
		return -HUGE_VAL;
	if (n1 + n2 == 0)
		return 0;
	return hyper_lp(x, n1, n2, K);
}

/*
 * Fisher's exact test.
 *
 * Why Fisher's, and not the exact conditional binomial test.  Both
 * condition on the total K = k1 + k2.  Fisher's takes n1 and n2 as fixed
 * and k1, k2 binomial, so that k1 given K is hypergeometric; that is the
 * model above.  The conditional binomial test (k1 given K is Binomial(K,
 * n1 / N)) is exact when k1 and k2 are Poisson, that is when a function
 * is a negligible share of its profile.  It agrees with Fisher's when
 * K << N, and otherwise is conservative, because a binomial count with a
 * large p varies less than a Poisson one (by the factor 1 - p).  A
 * function at 40% of the samples is common in a profile, so Fisher's is
 * the right test, and it costs no more.
 *
 * Fisher's test as used here is not the most powerful one.  Against a
 * one-sided alternative the uniformly most powerful unbiased test in
 * this model is the randomized form of Fisher's test, which rejects the
 * boundary table with just the probability that makes the size exactly
 * alpha (Tocher 1950); two-sided it is a randomized conditional test
 * whose two cutoffs are set for unbiasedness, not the sum of the least
 * likely tables (Lehmann and Romano, Testing Statistical Hypotheses,
 * ch. 4).
 * profdiff does not randomize, so that the same profiles always give
 * the same verdict; the price is that its size is at most alpha, and
 * well below it when the counts are small.
 *
 * The two-sided p-value is the one R's fisher.test() gives: the sum of
 * P(y) over all tables y with P(y) <= P(x) (1 + 1e-7), x the observed
 * one.  The hypergeometric distribution is log-concave, hence unimodal
 * with mode m, so that set is two tails, [lo, a] and [b, hi], with a <= m
 * < b.  a and b are found by searching the log-probability, which
 * Loader's method gives accurately enough to compare with P(x) at the
 * 1e-7 tolerance even when n is 1e9.  Each tail is then summed outward
 * from its boundary by the ratio of successive probabilities,
 *
 *	P(y + 1) / P(y) = (K - y)(n1 - y) / ((y + 1)(n2 - K + y + 1)),
 *
 * one multiplication per term, and stops when what is left is below
 * 1e-17 of the sum.  Log-concavity means these ratios shrink as the walk
 * moves away from the mode, so the rest of a tail is at most t r / (1 -
 * r) after a term t with ratio r: the stopping rule is a bound, not a
 * hope.  A tail starting near the mode needs about 9 standard deviations
 * of terms before they fall by 1e-17, so the cost is about 20 sqrt(var)
 * multiplications plus the two searches, whatever the size of n and of
 * the support.
 *
 * The searches.  One boundary is next to x itself, and the other is
 * near x's mirror image about the mean, where it would be if the
 * distribution were symmetric.  So each search starts from a guess a few
 * tables from the answer and brackets it by steps that double; plain
 * bisection from the ends of [lo, m] took some 20 log-probabilities
 * each, and these were most of the time of a diff's tests.  Because
 * "P(y) <= P(x) (1 + 1e-7)" changes only once on each side of the mode,
 * every order of probing finds the same boundary: the result is the
 * bisection's, to the bit.
 */

#define TAIL_BLOCK	8

/* The ratios of nb terms from y; a whole block has a constant count. */
static void
tail_ratios(double *r, int nb, double y, int dir, double n1, double n2,
    double K)
{
	int	i;

	if (nb == TAIL_BLOCK && dir > 0)
		for (i = 0; i < TAIL_BLOCK; i++)
			r[i] = ratio_up(y + i, n1, n2, K);
	else if (nb == TAIL_BLOCK)
		for (i = 0; i < TAIL_BLOCK; i++)
			r[i] = 1 / ratio_up(y - i - 1, n1, n2, K);
	else
		for (i = 0; i < nb; i++)
			r[i] = dir > 0 ? ratio_up(y + i, n1, n2, K) :
			    1 / ratio_up(y - i - 1, n1, n2, K);
}

/*
 * Sum t + t r(y) + ... walking from y in direction dir (+1 or -1) up to
 * and including end, where t stands for P(y) relative to some reference.
 *
 * The ratios of a block of terms do not depend on one another, so they
 * are computed together (the compiler puts them side by side in vector
 * registers), and the stopping rule is tried once a block.  That is
 * exact: once the rule holds, every further term is below 1e-17 of the
 * sum, less than half a unit in its last place, and adding it leaves
 * the sum as it was.  So a block that runs past the point where the
 * rule first held gives the same sum as stopping there.
 */
static double
tail_sum(double y, double end, int dir, double t, double n1, double n2,
    double K)
{
	double	r[TAIL_BLOCK], s = t;
	int	i, nb;

	while (y != end && t > 0) {
		nb = fabs(end - y) < TAIL_BLOCK ? (int)fabs(end - y) :
		    TAIL_BLOCK;
		tail_ratios(r, nb, y, dir, n1, n2, K);
		for (i = 0; i < nb; i++) {
			t *= r[i];
			s += t;
		}
		y += dir * nb;
		if (r[nb - 1] < 1 &&
		    t * r[nb - 1] / (1 - r[nb - 1]) <= s * 1e-17)
			break;
	}
	return s;
}

/*
 * One boundary of a tail: between t, where P(y) <= P(x) (1 + tol) holds
 * (lp(t) is lpt), and f, where it does not, the y nearest f where it
 * holds, with its log-probability in *lpo.  The guess g is probed first;
 * it becomes t or f, and the probes that follow step away from it,
 * doubling, until one lands on the other side; then halving.
 */
static double
edge_search(double t, double f, double g, double lpt, double lt, double n1,
    double n2, double K, double *lpo)
{
	double	y = g, step, lp;
	int	held, first = -1;

	for (step = 1; fabs(f - t) > 1; step *= 2) {
		y = clamp(y, fmin(t, f) + 1, fmax(t, f) - 1);
		if ((held = (lp = hyper_lp(y, n1, n2, K)) <= lt)) {
			t = y;
			lpt = lp;
		} else
			f = y;
		if (first != -1 && held != first)
			break;
		first = held;
		/* On, towards the end the boundary lies by. */
		y += (held ? f > t : t > f) ? step : -step;
	}
	while (fabs(f - t) > 1) {
		y = floor(fmin(t, f) + fabs(f - t) / 2);
		if ((lp = hyper_lp(y, n1, n2, K)) <= lt) {
			t = y;
			lpt = lp;
		} else
			f = y;
	}
	*lpo = lpt;
	return t;
}

/*
 * The mode of the hypergeometric distribution on [lo, hi]: floor((K +
 * 1)(n1 + 1) / (N + 2)).  The product may round at 1e18, so the guess
 * steps to the true mode by the ratios.
 */
double
hyper_mode(double lo, double hi, double n1, double n2, double K)
{
	double	m;

	m = floor((K + 1) * (n1 + 1) / (n1 + n2 + 2));
	m = clamp(m, lo, hi);
	while (m < hi && ratio_up(m, n1, n2, K) > 1)
		m++;
	while (m > lo && ratio_up(m - 1, n1, n2, K) < 1)
		m--;
	return m;
}

static double
fisher(double k1, double n1, double n2, double K)
{
	double	N = n1 + n2, lo, hi, m, lx, lt, a, b, mirror, lp, s;
	double	lpa = 0, lpb = 0;
	int	left, right;

	lo = K > n2 ? K - n2 : 0;
	hi = K < n1 ? K : n1;
	if (lo == hi)
		return 1;
	m = hyper_mode(lo, hi, n1, n2, K);

	lx = hyper_lp(k1, n1, n2, K);
	lt = lx + log1p(FISHER_RELTOL);
	mirror = floor(2 * K * n1 / N - k1 + 0.5);

	/*
	 * a: the largest y <= m with P(y) <= P(x), if any.  P rises on
	 * [lo, m], and x itself is such a y if it lies there.
	 */
	left = (lpa = hyper_lp(lo, n1, n2, K)) <= lt;
	a = lo;
	if (left && (lp = hyper_lp(m, n1, n2, K)) <= lt) {
		a = m;
		lpa = lp;
	} else if (left && k1 > lo && k1 < m)
		a = edge_search(k1, m, k1 + 1, lx, lt, n1, n2, K, &lpa);
	else if (left)
		a = edge_search(lo, m, mirror, lpa, lt, n1, n2, K, &lpa);

	/* b: the smallest y > m with P(y) <= P(x), if any; P falls there. */
	right = m < hi && (lpb = hyper_lp(hi, n1, n2, K)) <= lt;
	b = hi;
	if (right && (lp = hyper_lp(m + 1, n1, n2, K)) <= lt) {
		b = m + 1;
		lpb = lp;
	} else if (right && k1 > m + 1 && k1 < hi)
		b = edge_search(k1, m + 1, k1 - 1, lx, lt, n1, n2, K, &lpb);
	else if (right)
		b = edge_search(hi, m + 1, mirror, lpb, lt, n1, n2, K, &lpb);

	/* Both tails reach the mode: every table counts. */
	if (left && a == m && (m == hi || (right && b == m + 1)))
		return 1;
	s = 0;
	if (left)
		s += tail_sum(a, lo, -1, exp(lpa - lx), n1, n2, K);
	if (right)
		s += tail_sum(b, hi, +1, exp(lpb - lx), n1, n2, K);
	if (s <= 0)
		return 0;
	return fmin(1, exp(lx + log(s)));
}

double
stats_fisher(int64_t k1, int64_t n1, int64_t k2, int64_t n2)
{
	if (!valid_count(k1, n1) || !valid_count(k2, n2))
		return -1;
	if (n1 == 0 || n2 == 0)
		return 1;
	return fisher(k1, n1, n2, (double)k1 + k2);
}

/*
 * The normal approximation, and when to use it.
 *
 * Under H0, k1 given K has mean E = n1 K / N and variance
 *
 *	V = n1 n2 K (N - K) / (N^2 (N - 1)),
 *
 * and z = (|k1 - E| - 1/2) / sqrt(V) is the continuity-corrected
 * statistic whose two-sided normal p-value approximates Fisher's.  (It
 * is the pooled two-proportion z test, up to the factor (N - 1) / N in
 * V, with Yates's correction, whose purpose was exactly to track the
 * exact test.)
 *
 * The switch.  Writing E_ij for the four expected cells of the table,
 * 1 / V = (N - 1) / N * sum 1 / E_ij, so V is at most N / (N - 1) times
 * the smallest expected cell: "V >= 1e5" implies the classic "every
 * expected cell >= 5" twenty thousand times over.  What limits the
 * normal tail is the skewness of k1, (1 - 2 K/N)(1 - 2 n1/N) / sqrt(V)
 * for large N, and the excess kurtosis, of order 1 / V.  The skewness
 * vanishes when the two profiles are the same size, and is largest for
 * a small share of a small profile against a huge one.  Fisher's test
 * adds the other tail from the point of equal probability, not of equal
 * distance, and under skew the two differ by about skewness (z^2 - 3) /
 * 3 standard deviations, so the normal p-value drifts from Fisher's by
 * a relative error that grows like skewness * z^3.  Measured at V = 1e5
 * in the worst shape (a 12% share, n1 = 1e6 against n2 = 1e12) the gap is
 * 0.4% at p = 0.05, 1.2% at p = 0.001 and 2% at p = 1e-4; with equal
 * profile sizes it is below 1e-4 everywhere.  At V = 1e4 the worst shape
 * is off by 5% at p = 0.001, which is why the switch is not lower.
 * Below the switch the exact test costs at most about 20 sqrt(1e5) =
 * 6000 multiplications plus the bisections, some 50 microseconds, so
 * nothing is gained by approximating sooner; above it the exact test
 * would still be right, only slower (170 microseconds at V = 1e6).
 */
static double
normal_p(double k1, double n1, double n2, double K, double *var)
{
	double	N = n1 + n2, d;

	*var = n1 * n2 * K * (N - K) / (N * N * (N - 1));
	if (*var <= 0)
		return 1;
	/* k1 - E as (k1 n2 - k2 n1) / N: one rounding per product. */
	d = fabs((k1 * n2 - (K - k1) * n1) / N) - 0.5;
	if (d <= 0)
		return 1;
	return fmin(1, erfc(d / sqrt(2 * *var)));
}

double
stats_normal(int64_t k1, int64_t n1, int64_t k2, int64_t n2)
{
	double	var;

	if (!valid_count(k1, n1) || !valid_count(k2, n2))
		return -1;
	if (n1 == 0 || n2 == 0)
		return 1;
	return normal_p(k1, n1, n2, (double)k1 + k2, &var);
}

/*
 * One-sided tests.
 *
 * Against "the new share is larger" (p2 > p1) the tables at least as
 * extreme as the observed one are those with at most k1 of the K samples
 * in base, so the p-value is the lower tail P(X <= k1) of the same
 * hypergeometric distribution; against p2 < p1 it is the upper tail P(X
 * >= k1).  (R's fisher.test() names its alternatives by the odds ratio
 * of the table with the base row first: its "less" is the first of
 * these and its "greater" the second.)  No tolerance is needed, since
 * no probabilities are compared.
 *
 * A tail that lies on one side of the mode is summed from x outward by
 * tail_sum(), exactly as the two-sided test sums its tails, and costs at
 * most about 20 sqrt(var) multiplications.  A tail that reaches past the
 * mode would take as long as the distance to its far end, which can be
 * most of a support of 1e9 tables; it is one minus the opposite tail
 * instead, summed from the table next to x, which lies beyond the mode.
 * Such a tail holds the mode, so it is at least P(X = m) and, when the
 * variance is large, about 1/2: the subtraction costs nothing a p-value
 * of that size needs.
 *
 * Above STATS_EXACT_MAXVAR the normal approximation takes over, as it
 * does for the two-sided test: P(X <= k1) is about Phi((k1 + 1/2 - E) /
 * sqrt(V)), half the two-sided p-value of a table on the far side.
 */
/*
 * P(X <= x) for dir = -1 (the alternative STATS_GREATER) and P(X >= x)
 * for dir = +1 (STATS_LESS): the tail in direction dir.
 */
static double
fisher_tail(double x, int dir, double n1, double n2, double K)
{
	double	lo, hi, m, y, lp, s;

	lo = K > n2 ? K - n2 : 0;
	hi = K < n1 ? K : n1;
	if (dir < 0 ? x >= hi : x <= lo)
		return 1;
	m = hyper_mode(lo, hi, n1, n2, K);
	if (dir < 0 ? x <= m : x >= m) {
		lp = hyper_lp(x, n1, n2, K);
		s = tail_sum(x, dir < 0 ? lo : hi, dir, 1, n1, n2, K);
		return fmin(1, exp(lp + log(s)));
	}
	y = x - dir;
	lp = hyper_lp(y, n1, n2, K);
	s = tail_sum(y, dir < 0 ? hi : lo, -dir, 1, n1, n2, K);
	return fmax(0, 1 - exp(lp + log(s)));
}

/* The normal approximation to fisher_tail(), with the null variance. */
static double
normal_tail(double k1, double n1, double n2, double K, int dir,
    double *var)
{
	double	N = n1 + n2, u;

	*var = n1 * n2 * K * (N - K) / (N * N * (N - 1));
	if (*var <= 0)
		return 1;
	u = dir * (k1 * n2 - (K - k1) * n1) / N;
	return fmin(1, 0.5 * erfc((u - 0.5) / sqrt(2 * *var)));
}

/*
 * The p-value stats_counts() reports, for any alternative: exact below
 * the switch, normal above it.  method, if not NULL, says which.
 */
double
pvalue(double k1, double n1, double n2, double K, enum stats_alt alt,
    enum stats_method *method)
{
	double	var, p;

	if (alt == STATS_TWO_SIDED)
		p = normal_p(k1, n1, n2, K, &var);
	else
		p = normal_tail(k1, n1, n2, K, -alt, &var);
	if (method != NULL)
		*method = STATS_NORMAL;
	if (var < STATS_EXACT_MAXVAR) {
		p = alt == STATS_TWO_SIDED ? fisher(k1, n1, n2, K) :
		    fisher_tail(k1, -alt, n1, n2, K);
		if (method != NULL)
			*method = STATS_FISHER;
	}
	return p;
}

double
stats_fisher_alt(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
    enum stats_alt alt)
{
	if (!valid_count(k1, n1) || !valid_count(k2, n2) || !valid_alt(alt))
		return -1;
	if (n1 == 0 || n2 == 0)
		return 1;
	if (alt == STATS_TWO_SIDED)
		return fisher(k1, n1, n2, (double)k1 + k2);
	return fisher_tail(k1, -alt, n1, n2, (double)k1 + k2);
}

double
stats_pvalue(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
    enum stats_alt alt)
{
	if (!valid_count(k1, n1) || !valid_count(k2, n2) || !valid_alt(alt))
		return -1;
	if (n1 == 0 || n2 == 0)
		return 1;
	return pvalue(k1, n1, n2, (double)k1 + k2, alt, NULL);
}

/*
 * The minimum attainable p-value.
 *
 * Given its margins (K samples in all, n1 and n2 in the windows), a row's
 * p-value can take only the values of its K + 1 possible tables, and the
 * smallest of them is that of the most extreme split: as many of the K
 * samples as possible in base (lo = max(0, K - n2) in base is the other
 * extreme).  One-sided, it is the split at the end the alternative
 * points to, and its p-value is that table's probability.  Two-sided,
 * the two-sided p-value grows with the probability of the table, and
 * the least likely table of a log-concave distribution is one of the two
 * ends: the end with the smaller probability, whose p-value also counts
 * the other end if it is no more likely (within R's tolerance).  The
 * p-value is then pvalue()'s, so that it is exactly the number the test
 * would give that table and never more than any p-value the row can
 * have.  Above STATS_EXACT_MAXVAR both ends lie at least sqrt(V) >= 316
 * standard deviations from the mean (the distance from the mean to an
 * end is at least V), so the normal p-value there is 0, as the exact one
 * would be.
 *
 * The cost is one p-value at an end of the support, where the searches
 * are short and the tails to sum are tiny.  When the end's probability
 * is under 1e-300 / (K + 1), the answer (a sum of at most K + 1 tables
 * no more likely) is below 1e-300 and is given as 0 at once.
 */
double
stats_pmin(int64_t K, int64_t n1, int64_t n2, enum stats_alt alt)
{
	double	lo, hi, x, llo, lhi;

	if (n1 < 0 || n2 < 0 || n1 > STATS_MAX_N || n2 > STATS_MAX_N ||
	    K < 0 || K > n1 + n2 || !valid_alt(alt))
		return -1;
	if (n1 == 0 || n2 == 0)
		return 1;
	lo = K > n2 ? K - n2 : 0;
	hi = K < n1 ? K : n1;
	if (lo == hi)
		return 1;
	llo = alt == STATS_LESS ? HUGE_VAL : hyper_lp(lo, n1, n2, K);
	lhi = alt == STATS_GREATER ? HUGE_VAL : hyper_lp(hi, n1, n2, K);
	x = llo <= lhi ? lo : hi;
	if (fmin(llo, lhi) + log((double)K + 1) < PMIN_LOG_TINY)
		return 0;
	return pvalue(x, n1, n2, K, alt, NULL);
}

/*
 * Wilson's score interval for one proportion is the set of p that a
 * score test would not reject: the roots of (k/n - p)^2 = z^2 p (1 - p)
 * / n.  It never leaves [0, 1] and is not degenerate at k = 0 or k = n,
 * which is what makes it good at small counts (Newcombe 1998, "Two-sided
 * confidence intervals for the single proportion").  With a = k + z^2/2
 * and b = z sqrt(k (n - k) / n + z^2 / 4), the lower root is (a - b) /
 * (n + z^2); multiplying by (a + b) / (a + b) and using a^2 - b^2 =
 * k^2 (n + z^2) / n gives k^2 / (n (a + b)), which does not cancel when
 * k is tiny and n huge.  The upper root is the mirror image.
 */
static void
wilson(double k, double n, double z, double *lo, double *hi)
{
	double	b, zz = z * z;

	if (n == 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	b = z * sqrt(k * ((n - k) / n) + zz / 4);
	*lo = k * k / (n * (k + zz / 2 + b));
	*hi = 1 - (n - k) * (n - k) / (n * (n - k + zz / 2 + b));
	*lo = clamp(*lo, 0, 1);
	*hi = clamp(*hi, 0, 1);
}

int
stats_wilson(int64_t k, int64_t n, double alpha, double *lo, double *hi)
{
	if (!valid_count(k, n) || !valid_alpha(alpha))
		return -1;
	wilson(k, n, z_half(alpha), lo, hi);
	return 0;
}

/*
 * Newcombe's hybrid score interval for d = p2 - p1 (his method 10, in
 * "Interval estimation for the difference between independent
 * proportions: comparison of eleven methods", Stat Med 1998): with
 * Wilson limits l_i, u_i,
 *
 *	lower = d - sqrt((p2 - l2)^2 + (u1 - p1)^2),
 *	upper = d + sqrt((u2 - p2)^2 + (p1 - l1)^2).
 *
 * Each side's distance to its own Wilson limit stands in for z times
 * its standard error, but with the asymmetry Wilson's interval has near
 * 0 and 1, so the interval keeps close to its nominal coverage down to a
 * handful of samples, where the Wald interval d +- z se collapses to a
 * point (at k = 0) or spills outside [-1, 1].  The tests reproduce all
 * eight examples of the paper's Table II.
 */
void
newcombe(double k1, double n1, double k2, double n2, double z, double *lo,
    double *hi)
{
	double	p1, p2, l1, u1, l2, u2, d;

	if (n1 == 0 || n2 == 0) {
		*lo = -1;
		*hi = 1;
		return;
	}
	p1 = k1 / n1;
	p2 = k2 / n2;
	wilson(k1, n1, z, &l1, &u1);
	wilson(k2, n2, z, &l2, &u2);
	d = p2 - p1;
	*lo = clamp(d - hypot(p2 - l2, u1 - p1), -1, 1);
	*hi = clamp(d + hypot(u2 - p2, p1 - l1), -1, 1);
}

int
stats_newcombe(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double alpha,
    double *lo, double *hi)
{
	if (!valid_count(k1, n1) || !valid_count(k2, n2) ||
	    !valid_alpha(alpha))
		return -1;
	newcombe(k1, n1, k2, n2, z_half(alpha), lo, hi);
	return 0;
}

/*
 * stats_counts() without its interval (lo and hi are [-1, 1]): the test
 * a family runs before it knows the level of its intervals.  The counts
 * are valid.
 */
void
counts_test(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
    struct stats_result *r)
{
	double	K, var, pp, se;

	r->lo = -1;
	r->hi = 1;
	r->df = 0;
	r->stat = 0;
	r->diff = (n2 ? (double)k2 / n2 : 0) - (n1 ? (double)k1 / n1 : 0);
	if (n1 == 0 || n2 == 0) {
		r->method = STATS_UNTESTABLE;
		r->p = 1;
		return;
	}
	K = (double)k1 + k2;
	r->p = normal_p(k1, n1, n2, K, &var);
	r->method = STATS_NORMAL;
	if (var < STATS_EXACT_MAXVAR) {
		r->p = fisher(k1, n1, n2, K);
		r->method = STATS_FISHER;
	}
	pp = K / ((double)n1 + n2);
	se = sqrt(pp * (1 - pp) * (1.0 / n1 + 1.0 / n2));
	if (se > 0)
		r->stat = r->diff / se;
}

int
stats_counts(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double alpha,
    struct stats_result *r)
{
	if (!valid_count(k1, n1) || !valid_count(k2, n2) ||
	    !valid_alpha(alpha))
		return -1;
	counts_test(k1, n1, k2, n2, r);
	if (r->method != STATS_UNTESTABLE)
		newcombe(k1, n1, k2, n2, z_half(alpha), &r->lo, &r->hi);
	return 0;
}

const char *
stats_method_name(enum stats_method m)
{
	switch (m) {
	case STATS_UNTESTABLE:
		return "untestable";
	case STATS_FISHER:
		return "fisher";
	case STATS_NORMAL:
		return "normal";
	case STATS_QUASI:
		return "quasi-binomial";
	}
	return "unknown";
}

/*
 * The statistics behind profdiff's verdicts: is a function's change in
 * share between a base and a new window more than sampling noise?
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

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* log(2 pi) / 2, log(2 pi) and log(pi). */
#define LN_SQRT_2PI	0.918938533204672741780329736406
#define LN_2PI		1.837877066409345483560659472811
#define LN_PI		1.144729885849400174143427351353

/* R's relative tolerance for "no more likely than observed". */
#define FISHER_RELTOL	1e-7

/* log(1e-300): stats_pmin() reports a p-value bounded below it as 0. */
#define PMIN_LOG_TINY	(-690.7755278982137)

static int
valid_count(int64_t k, int64_t n)
{
	return n >= 0 && n <= STATS_MAX_N && k >= 0 && k <= n;
}

static int
valid_alpha(double a)
{
	return a > 0 && a < 1;		/* false for NaN as well */
}

static double
clamp(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/*
 * The standard normal distribution.
 *
 * The CDF is erfc(3), which keeps full relative precision in the upper
 * tail: P(Z > z) = erfc(z / sqrt 2) / 2 is right to the last bits even
 * at z = 30, where 1 - P(Z <= z) would be 0.
 */
double
stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z * M_SQRT1_2);
}

double
stats_norm_sf(double z)
{
	return 0.5 * erfc(z * M_SQRT1_2);
}

/*
 * The quantile is Wichura's algorithm AS 241 (PPND16), good to about
 * 1e-16 relative: a rational function of degree 7 in the middle
 * (|p - 1/2| <= 0.425), and two more in r = sqrt(-log(min(p, 1 - p)))
 * for the tails, split at r = 5 (min(p, 1 - p) about 1.4e-11).  The
 * coefficients are as published; R's qnorm() uses the same ones.
 */
double
stats_norm_quantile(double p)
{
	double	q, r, v;

	if (isnan(p) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -HUGE_VAL;
	if (p == 1)
		return HUGE_VAL;
	q = p - 0.5;
	if (fabs(q) <= 0.425) {
		r = 0.180625 - q * q;
		return q * (((((((r * 2509.0809287301226727 +
		    33430.575583588128105) * r + 67265.770927008700853) * r +
		    45921.953931549871457) * r + 13731.693765509461125) * r +
		    1971.5909503065514427) * r + 133.14166789178437745) * r +
		    3.387132872796366608) /
		    (((((((r * 5226.495278852854561 +
		    28729.085735721942674) * r + 39307.89580009271061) * r +
		    21213.794301586595867) * r + 5394.1960214247511077) * r +
		    687.1870074920579083) * r + 42.313330701600911252) * r +
		    1.0);
	}
	r = sqrt(-log(q < 0 ? p : 1 - p));
	if (r <= 5) {
		r -= 1.6;
		v = (((((((r * 7.7454501427834140764e-4 +
		    0.0227238449892691845833) * r + 0.24178072517745061177) *
		    r + 1.27045825245236838258) * r +
		    3.64784832476320460504) * r + 5.7694972214606914055) *
		    r + 4.6303378461565452959) * r +
		    1.42343711074968357734) /
		    (((((((r * 1.05075007164441684324e-9 +
		    5.475938084995344946e-4) * r + 0.0151986665636164571966) *
		    r + 0.14810397642748007459) * r +
		    0.68976733498510000455) * r + 1.6763848301838038494) *
		    r + 2.05319162663775882187) * r + 1.0);
	} else {
		r -= 5;
		v = (((((((r * 2.01033439929228813265e-7 +
		    2.71155556874348757815e-5) * r +
		    0.0012426609473880784386) * r + 0.026532189526576123093) *
		    r + 0.29656057182850489123) * r +
		    1.7848265399172913358) * r + 5.4637849111641143699) *
		    r + 6.6579046435011037772) /
		    (((((((r * 2.04426310338993978564e-15 +
		    1.4215117583164458887e-7) * r +
		    1.8463183175100546818e-5) * r +
		    7.868691311456132591e-4) * r + 0.0148753612908506148525) *
		    r + 0.13692988092273580531) * r +
		    0.59983220655588793769) * r + 1.0);
	}
	return q < 0 ? -v : v;
}

/* z(1 - alpha/2), computed from the small tail for precision. */
static double
z_half(double alpha)
{
	return -stats_norm_quantile(alpha / 2);
}

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
static double
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
static double
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
 * Fisher's test as used here is not the most powerful one.  The
 * uniformly most powerful unbiased test of H0 in this model is the
 * randomized form of Fisher's test, which rejects the boundary table
 * with just the probability that makes the size exactly alpha (Tocher
 * 1950; Lehmann and Romano, Testing Statistical Hypotheses, ch. 4).
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

/* P(y + 1) / P(y). */
static double
ratio_up(double y, double n1, double n2, double K)
{
	return (K - y) * (n1 - y) / ((y + 1) * (n2 - K + y + 1));
}

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
static double
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
static double
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

static int
valid_alt(enum stats_alt alt)
{
	return alt == STATS_TWO_SIDED || alt == STATS_GREATER ||
	    alt == STATS_LESS;
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
static void
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

int
stats_counts(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double alpha,
    struct stats_result *r)
{
	double	K, var, pp, se;

	if (!valid_count(k1, n1) || !valid_count(k2, n2) ||
	    !valid_alpha(alpha))
		return -1;
	r->df = 0;
	r->stat = 0;
	r->diff = (n2 ? (double)k2 / n2 : 0) - (n1 ? (double)k1 / n1 : 0);
	if (n1 == 0 || n2 == 0) {
		r->method = STATS_UNTESTABLE;
		r->p = 1;
		r->lo = -1;
		r->hi = 1;
		return 0;
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
	newcombe(k1, n1, k2, n2, z_half(alpha), &r->lo, &r->hi);
	return 0;
}

/*
 * Benjamini-Hochberg.
 *
 * profdiff tests every function at once, often thousands.  At alpha =
 * 0.05 each, a thousand unchanged functions give fifty "significant"
 * ones.  Bonferroni (test at alpha / m) bounds the chance of even one
 * false positive, which at m = 1000 needs z = 4.06 instead of 1.96: a
 * change must be twice as large to be seen.  Benjamini and Hochberg
 * (1995) bound instead the expected fraction of false ones among those
 * reported, which is the error a reader of a diff actually pays for, and
 * loses much less power: with p-values sorted p_(1) <= ... <= p_(m),
 *
 *	q_(i) = min over j >= i of min(1, m p_(j) / j),
 *
 * and reporting every q <= alpha keeps the false discovery rate at most
 * alpha (for independent or positively dependent tests, which shares of
 * one profile are close enough to).  The running minimum from the top
 * makes q monotone in p and gives tied p-values the same q, since the
 * minimum over a run of ties is reached at its last rank.
 *
 * The sort is a heapsort of indices, keyed on (p, index) so that the
 * order is total and the result deterministic; qsort(3) has no way to
 * pass p to its comparison, and the caller owns the scratch.
 */
static int
bh_less(const double *p, size_t a, size_t b)
{
	return p[a] < p[b] || (p[a] == p[b] && a < b);
}

static void
sift_down(const double *p, size_t *h, size_t i, size_t n)
{
	size_t	c, t;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && bh_less(p, h[c], h[c + 1]))
			c++;
		if (!bh_less(p, h[i], h[c]))
			return;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

/* A p-value as BH reads it: NaN and anything above 1 count as 1. */
static double
clean_p(double p)
{
	if (isnan(p) || p > 1)
		return 1;
	return p < 0 ? 0 : p;
}

/* Sort the n indices in idx by (key, index), ascending. */
static void
sort_idx(const double *key, size_t *idx, size_t n)
{
	size_t	i, t;

	for (i = n / 2; i-- > 0; )
		sift_down(key, idx, i, n);
	for (i = n; i-- > 1; ) {
		t = idx[0];
		idx[0] = idx[i];
		idx[i] = t;
		sift_down(key, idx, 0, i);
	}
}

/*
 * The step-up: p[idx[0..n)], sorted, replaced by their q-values in a
 * family of n.
 */
static void
step_up(double *p, const size_t *idx, size_t n)
{
	size_t	i;
	double	q, qmin = 1;

	for (i = n; i-- > 0; ) {
		q = (double)n / (double)(i + 1) * p[idx[i]];
		if (q < qmin)
			qmin = q;
		p[idx[i]] = qmin;
	}
}

void
stats_bh(double *p, size_t m, size_t *idx)
{
	size_t	i;

	for (i = 0; i < m; i++) {
		p[i] = clean_p(p[i]);
		idx[i] = i;
	}
	sort_idx(p, idx, m);
	step_up(p, idx, m);
}

/*
 * A discrete FDR: Tarone's trimming, then BH (Gilbert 2005).
 *
 * A p-value from counts can take only a few values, and the smallest of
 * them, pmin (stats_pmin()), depends only on the margins of its table:
 * a row with 6 samples in all can never have p below 1/32, whatever the
 * windows.  BH counts every row in m, so each such row raises every
 * other row's threshold and can never be a discovery itself.  Tarone
 * (1990) saw this for Bonferroni: at a per-test level of alpha / K, only
 * the M(K) rows with pmin <= alpha / K can be rejected, so only they
 * need to be counted, and when M(K) <= K, testing those rows at alpha /
 * K keeps the familywise error at alpha.  The smallest such K, K*, is
 * the least conservative choice.  Gilbert (2005) keeps Tarone's family,
 * the M(K*) rows with pmin <= alpha / K*, and runs BH at alpha over it
 * alone.  Because the family is chosen from the margins only, and a
 * row's p-value is valid given its margins (Fisher's test conditions on
 * them), BH's guarantee holds for the family as for any other fixed
 * set, and the false discovery rate over all rows is at most alpha:
 * every dropped row is a non-discovery.
 *
 * It is not uniformly more powerful than BH over all m.  With pmin = p
 * = 0.02 for three rows at alpha = 0.05, M(1) = M(2) = 3 and M(3) = 0,
 * so the family is empty, while BH over the three rejects all of them
 * at 3 x 0.05 / 3.  The loss needs a row whose pmin lies between alpha
 * / K* and BH's final threshold R alpha / m, that is a row with only a
 * handful of samples, all in one window, in a diff that has several
 * other discoveries; the gain is every tiny row dropped from the count.
 * doc/statistics.md gives the measured balance on simulated profiles.
 *
 * M(K) is the number of pmin <= alpha / K, so with pmin sorted it is a
 * count that falls as K rises, and one pass finds K*.  The q-values are
 * BH's within the family: q <= alpha is then exactly "rejected by the
 * procedure at alpha".  They mean nothing at another level, since the
 * family depends on alpha.  The threshold a further discovery would need
 * is BH's next one, (R + 1) alpha / |family|, and never above alpha; a
 * row outside the family cannot be one.
 */
int
stats_fdr_discrete(const double *p, const double *pmin, size_t m,
    double alpha, double *q, size_t *idx, struct stats_fdr *r)
{
	size_t	i, k, cnt;

	if (!valid_alpha(alpha) || r == NULL ||
	    (m > 0 && (p == NULL || pmin == NULL || q == NULL || idx == NULL)))
		return -1;
	for (i = 0; i < m; i++) {
		q[i] = clean_p(pmin[i]);
		idx[i] = i;
	}
	sort_idx(q, idx, m);
	cnt = m;
	for (k = 1; ; k++) {
		while (cnt > 0 && q[idx[cnt - 1]] > alpha / (double)k)
			cnt--;
		if (cnt <= k)
			break;
	}
	r->kstar = k;
	r->cutoff = alpha / (double)k;
	r->kept = cnt;
	for (i = 0; i < m; i++)
		q[i] = NAN;
	for (i = 0; i < cnt; i++)
		q[idx[i]] = clean_p(p[idx[i]]);
	sort_idx(q, idx, cnt);
	step_up(q, idx, cnt);
	r->rejected = 0;
	for (i = 0; i < cnt; i++)
		r->rejected += q[idx[i]] <= alpha;
	r->threshold = cnt == 0 ? alpha :
	    fmin(alpha, (double)(r->rejected + 1) * alpha / (double)cnt);
	return 0;
}

/*
 * False-coverage-rate intervals (Benjamini and Yekutieli 2005).  An
 * interval printed only beside the rows a procedure selected is not a
 * 95% interval any more: selection favours the rows whose estimate
 * strayed furthest.  Benjamini and Yekutieli show that building each of
 * the R intervals selected out of m at level 1 - R alpha / m keeps the
 * expected share of non-covering ones among the selected at alpha, when
 * the selection is BH's (or any step-up) at alpha.  At that level an
 * interval excludes 0 about when its p-value is below R alpha / m, which
 * is where BH's verdict falls, so interval and verdict agree but for the
 * difference between the score interval and the exact test.  With no
 * selection the level is that of a first discovery, 1 - alpha / m: the
 * interval a reader sees is then as wide as the evidence a discovery
 * would have needed.
 */
double
stats_fcr_alpha(size_t R, size_t m, double alpha)
{
	if (!valid_alpha(alpha) || R > m)
		return -1;
	if (m == 0)
		return alpha;
	return fmin(alpha, (double)(R > 0 ? R : 1) * alpha / (double)m);
}

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

/*
 * Student's t.
 *
 * For T with nu degrees of freedom, P(|T| > t) = I_x(nu/2, 1/2) with x =
 * nu / (nu + t^2), I the regularized incomplete beta function.  I is
 * computed as in Numerical Recipes (section 6.4): the prefactor x^a (1 -
 * x)^b / (a B(a, b)) times Lentz's evaluation of the continued fraction
 *
 *	1 / (1 + d1 / (1 + d2 / (1 + ...))),
 *	d(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)),
 *	d(2m) = m (b - m) x / ((a + 2m - 1)(a + 2m)),
 *
 * which converges quickly for x < (a + 1) / (a + b + 2); above that,
 * I_x(a, b) = 1 - I_(1-x)(b, a) is used instead.  It takes O(sqrt(max(a,
 * b))) terms, so beyond nu = 1e8 (where t and the normal differ by less
 * than 1e-8) the normal is used.  x and 1 - x are passed separately:
 * 1 - x = t^2 / (nu + t^2) is tiny for small t and must not be formed by
 * subtraction.
 */
#define BETA_MAXIT	20000
#define BETA_EPS	1e-16
#define BETA_TINY	1e-300
#define T_NORMAL_DF	1e8

static double
betacf(double a, double b, double x)
{
	double	aa, c, d, del, h;
	int	m, m2;

	c = 1;
	d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < BETA_TINY)
		d = BETA_TINY;
	d = 1 / d;
	h = d;
	for (m = 1; m <= BETA_MAXIT; m++) {
		m2 = 2 * m;
		aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < BETA_TINY)
			d = BETA_TINY;
		c = 1 + aa / c;
		if (fabs(c) < BETA_TINY)
			c = BETA_TINY;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		d = 1 + aa * d;
		if (fabs(d) < BETA_TINY)
			d = BETA_TINY;
		c = 1 + aa / c;
		if (fabs(c) < BETA_TINY)
			c = BETA_TINY;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < BETA_EPS)
			break;
	}
	return h;
}

/* I_x(a, b), with y = 1 - x given accurately. */
static double
betai(double a, double b, double x, double y)
{
	double	lbt;

	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	lbt = lgam(a + b) - lgam(a) - lgam(b) + a * log(x) + b * log(y);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, y) / b;
}

double
stats_betai(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1))
		return NAN;
	return betai(a, b, x, 1 - x);
}

/* P(T > t) for t >= 0. */
static double
t_sf(double t, double df)
{
	double	r, x, y;

	if (df > T_NORMAL_DF)
		return stats_norm_sf(t);
	r = t / sqrt(df);
	if (r > 1e150)
		return 0;
	x = 1 / (1 + r * r);
	y = r * r / (1 + r * r);
	return 0.5 * betai(df / 2, 0.5, x, y);
}

static double
t_pdf(double t, double df)
{
	return exp(lgam((df + 1) / 2) - lgam(df / 2) - 0.5 * (log(df) +
	    LN_PI) - (df + 1) / 2 * log1p(t * t / df));
}

double
stats_t_cdf(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	return t >= 0 ? 1 - t_sf(t, df) : t_sf(-t, df);
}

/*
 * The t quantile: the t >= 0 with P(T > t) = q, for 0 < q <= 1/2, by
 * Newton's method on log P(T > t), whose derivative is -pdf / sf,
 * safeguarded by a bracket [lo, hi] and bisection whenever a step
 * leaves it.  The start is the normal quantile with the first
 * Cornish-Fisher term, z + (z^3 + z) / (4 nu).  Nu = 1 and 2 have closed
 * forms, used as checks in the tests rather than here.
 */
static double
t_upper(double q, double df)
{
	double	lo = 0, hi = 1, t, tn, f, z, lq = log(q), sf;
	int	i;

	if (q >= 0.5)
		return 0;
	if (df > T_NORMAL_DF)
		return -stats_norm_quantile(q);
	for (i = 0; i < 2000 && t_sf(hi, df) > q; i++) {
		lo = hi;
		hi *= 2;
	}
	z = -stats_norm_quantile(q);
	t = z + (z * z * z + z) / (4 * df);
	if (!(t > lo && t < hi))
		t = lo + (hi - lo) / 2;
	for (i = 0; i < 200; i++) {
		sf = t_sf(t, df);
		if (sf > q)
			lo = t;
		else
			hi = t;
		if (sf <= 0)
			tn = lo + (hi - lo) / 2;
		else {
			f = log(sf) - lq;
			tn = t + f * sf / t_pdf(t, df);
		}
		if (!(tn > lo && tn < hi))
			tn = lo + (hi - lo) / 2;
		if (fabs(tn - t) <= 4 * DBL_EPSILON * tn)
			return tn;
		t = tn;
	}
	return t;
}

double
stats_t_quantile(double p, double df)
{
	if (!(df > 0) || !(p >= 0 && p <= 1))
		return NAN;
	if (p == 0)
		return -HUGE_VAL;
	if (p == 1)
		return HUGE_VAL;
	if (p < 0.5)
		return -t_upper(p, df);
	return t_upper(1 - p, df);
}

/*
 * Digamma, trigamma and tetragamma (psi, psi' and psi''), for x > 0:
 * the recurrences psi(x) = psi(x + 1) - 1 / x, psi'(x) = psi'(x + 1) +
 * 1 / x^2 and psi''(x) = psi''(x + 1) - 2 / x^3 carry x to at least 10,
 * where the asymptotic series (Abramowitz and Stegun 6.3.18, 6.4.12 and
 * its derivative) are good to about 1e-16 with the terms below: the
 * first term left out is about 1e-17 at x = 10.
 */
#define PSI_SHIFT	10

static double
digamma(double x)
{
	double	s = 0, xx;

	for (; x < PSI_SHIFT; x += 1)
		s -= 1 / x;
	xx = 1 / (x * x);
	return s + log(x) - 0.5 / x - xx * (1.0 / 12 - xx * (1.0 / 120 -
	    xx * (1.0 / 252 - xx * (1.0 / 240 - xx * (1.0 / 132 - xx *
	    (691.0 / 32760 - xx / 12))))));
}

static double
trigamma(double x)
{
	double	s = 0, xx;

	for (; x < PSI_SHIFT; x += 1)
		s += 1 / (x * x);
	xx = 1 / (x * x);
	return s + 1 / x + xx / 2 + xx / x * (1.0 / 6 - xx * (1.0 / 30 -
	    xx * (1.0 / 42 - xx * (1.0 / 30 - xx * (5.0 / 66 - xx *
	    (691.0 / 2730 - xx * 7.0 / 6))))));
}

static double
tetragamma(double x)
{
	double	s = 0, xx;

	for (; x < PSI_SHIFT; x += 1)
		s -= 2 / (x * x * x);
	xx = 1 / (x * x);
	return s - xx - xx / x - xx * xx * (0.5 - xx * (1.0 / 6 - xx *
	    (1.0 / 6 - xx * (3.0 / 10 - xx * (5.0 / 6 - xx * (691.0 / 210 -
	    xx * 35.0 / 2))))));
}

double
stats_digamma(double x)
{
	return x > 0 && x < HUGE_VAL ? digamma(x) : NAN;
}

double
stats_trigamma(double x)
{
	return x > 0 && x < HUGE_VAL ? trigamma(x) : NAN;
}

/*
 * The y > 0 with trigamma(y) = x, by Newton's method on 1 / trigamma(y),
 * which is close to linear in y (Smyth 2004, and limma's
 * trigammaInverse): y += t (1 - t / x) / psi''(y), t = psi'(y), from y =
 * 1/2 + 1/x.  trigamma falls from infinity to 0, so there is one root for
 * every x > 0.  The start is within O(x) of it for small x (trigamma(y)
 * = 1/y + 1/(2 y^2) + ...), and above it for large x, where 1 /
 * trigamma(y) is about y^2 and each step about halves y, so even x =
 * 1e12 takes only some twenty steps more.  The iteration stops when a
 * step is below 1e-12 of y (t_stats checks the round trip from 1e-10 to
 * 1e12).
 */
double
stats_trigamma_inv(double x)
{
	double	y, t, d;
	int	i;

	if (!(x > 0) || x == HUGE_VAL)
		return NAN;
	y = 0.5 + 1 / x;
	for (i = 0; i < 100; i++) {
		t = trigamma(y);
		d = t * (1 - t / x) / tetragamma(y);
		y += d;
		if (-d < 1e-12 * y)
			break;
	}
	return y;
}

/*
 * The regularized upper incomplete gamma function Q(a, x) = Gamma(a, x)
 * / Gamma(a), so that P(chi^2(k) > x) = Q(k / 2, x / 2): the series of
 * P = 1 - Q for x < a + 1, and Lentz's continued fraction for Q above,
 * as in Numerical Recipes (section 6.2).  Both converge in O(sqrt(a))
 * terms; the prefactor x^a e^-x / Gamma(a) is taken through its log.
 */
static double
gamma_q(double a, double x)
{
	double	lpre, sum, term, b, c, d, h, an;
	int	i;

	if (x <= 0)
		return 1;
	lpre = a * log(x) - x - lgam(a);
	if (x < a + 1) {
		sum = term = 1 / a;
		for (i = 1; i < BETA_MAXIT; i++) {
			term *= x / (a + i);
			sum += term;
			if (fabs(term) < fabs(sum) * BETA_EPS)
				break;
		}
		return fmax(0, 1 - sum * exp(lpre));
	}
	b = x + 1 - a;
	c = 1 / BETA_TINY;
	d = 1 / b;
	h = d;
	for (i = 1; i < BETA_MAXIT; i++) {
		an = -i * (i - a);
		b += 2;
		d = an * d + b;
		if (fabs(d) < BETA_TINY)
			d = BETA_TINY;
		c = b + an / c;
		if (fabs(c) < BETA_TINY)
			c = BETA_TINY;
		d = 1 / d;
		h *= d * c;
		if (fabs(d * c - 1) < BETA_EPS)
			break;
	}
	return fmin(1, exp(lpre) * h);
}

double
stats_chisq_sf(double x, double k)
{
	if (!(k > 0) || k == HUGE_VAL || isnan(x))
		return NAN;
	return gamma_q(k / 2, x / 2);
}

/*
 * Replicates that add power: a dispersion shared across functions.
 *
 * With several profiles per side, run-to-run variation (load, input,
 * GC timing) adds to the binomial noise of a function's count.  The
 * model here is quasi-binomial: run r's count k_r of n_r samples has
 * mean n_r p and variance phi n_r p (1 - p), phi >= 1, which is what a
 * beta-binomial count gives when runs of similar size draw their true
 * share from a common distribution.  Summed over a side, K = sum k_r has
 * variance phi N p (1 - p): the pooled counts carry all the information
 * about p, and phi says how much to discount them.  Welch's test on
 * per-run shares, which profdiff used before, estimated a variance from
 * two or three values a side instead and threw that information away,
 * which is why 0% in three base runs against 40% in three new ones gave
 * q = 0.057 with it.
 *
 * A function's own estimate is Pearson's statistic on the runs of each
 * side, X^2 = sum (k_r - n_r p^)^2 / (n_r p^ (1 - p^)) with p^ = K / N
 * of that side, runs - 1 df a side: s2 = X^2 / df estimates phi without
 * bias whatever the shape of the distribution.  A side whose expected
 * count in either cell is under STATS_DISP_MINCOUNT a run says nothing
 * usable (a handful of samples, or none, are all discreteness) and is
 * left out.
 *
 * With two or three runs a side s2 has 2 to 4 df and is very noisy.  But
 * hundreds of functions are measured on the same runs, so their
 * estimates are pooled and each is shrunk toward the pool, the way
 * limma shrinks gene variances (Smyth 2004), in three steps.
 *
 * 1. Do the runs vary more than sampling makes them at all?  Under phi
 * = 1, sum X^2 over the functions is chi^2 with sum df.  It is tested
 * twice, over all the functions and over those with at least
 * STATS_DISP_FITCOUNT expected samples a run: variation that is a fixed
 * fraction of each share (a function 10% busier in one run than the
 * next, as simprof -d makes it) gives phi = 1 + c n p, which the many
 * small functions would hide.  When neither test rejects at
 * STATS_DISP_LEVEL, phi is 1 for every function, and the test is
 * Fisher's exact test on the pooled counts, bit for bit: runs that agree
 * lose nothing to pooling.
 *
 * 2. The pool.  The common dispersion is sum X^2 / sum df, unbiased for
 * the average phi; it is what the report shows.  Since variation
 * proportional to the share makes phi grow with a run's binomial
 * variance v = n p (1 - p), the prior's scale is a line c + b v, b >=
 * 0, fitted by least squares weighted by 1 / Var(s2) = df / (2 (c + b
 * v)^2), three rounds of reweighting from the constant; with a constant
 * phi, b comes out near 0.  Then Smyth's scaled F: given its phi, s2 is
 * phi chi^2(d) / d, and across functions 1 / phi is chi^2(d0) / (d0 s0^2)
 * with s0^2 the trend at the function's v.  The moments of e = log(s2 /
 * trend) - digamma(d / 2) + log(d / 2), whose variance is trigamma(d /
 * 2) + trigamma(d0 / 2), give d0 through the inverse of trigamma, over
 * the functions with STATS_DISP_FITCOUNT samples a run, where Pearson's
 * statistic is close enough to chi^2 (below it, ties between runs make
 * s2 = 0 often, and its log is -inf); when the variance of e is no more
 * than the trigamma term, d0 is infinite and the functions share the
 * trend exactly.  (Smyth's own estimate of s0^2, from the mean of e, is
 * not used: it relies on s2 being a scaled chi^2, which Pearson's
 * statistic on counts of tens is not, and in the 2-run simulations of
 * t_stats.c it came out 23% low at phi = 1 and 34% high at phi = 5,
 * where the pooled estimate, which relies only on the mean, was within
 * 6% and 16%.)
 *
 * 3. The posterior, phi~ = (d0 s0^2 + d s2) / (d0 + d), known to d0 + d
 * df, floored at 1 since the runs cannot vary less than sampling makes
 * them.  Flooring changes phi~, not what is known about it: a function
 * whose runs happen to agree has phi~ = 1 with d0 + d df, not a known
 * phi of 1.  Dropping those df (testing it by Fisher's test) was what
 * made the family-wide false discovery rate 20% in 2-run simulations at
 * phi = 2.
 *
 * The test at phi~ is on effective counts k / phi~ of n / phi~, whose
 * binomial variance is that of the real counts: the continuity-
 * corrected z of the normal branch, computed on them, is
 *
 *	z = (|k1 - E| - phi / 2) / sqrt(phi V),
 *
 * E and V the hypergeometric mean and variance of the pooled table, and
 * it is referred to Student's t with d0 + d df, as limma's moderated t
 * is (the normal when that is infinite): phi~ is an estimate, and the
 * plug-in normal rejected up to 1.9 times as often in the simulations.
 * The interval is Newcombe's on the effective counts with the same t
 * quantile in place of z, so that it widens as the runs disagree.
 * t_stats.c checks all of this by
 * simulation, at phi = 1, 2 and 5 and with variation proportional to
 * the share, with 2, 3 and 5 runs a side.
 */
int
stats_disp_pearson(const int64_t *k1, const int64_t *n1, size_t m1,
    const int64_t *k2, const int64_t *n2, size_t m2, struct stats_disp *o)
{
	const int64_t	*k, *n;
	double		 x2 = 0, d = 0, K, N, p, e, side, low = HUGE_VAL;
	size_t		 i, m, runs, j;

	if ((m1 && (k1 == NULL || n1 == NULL)) ||
	    (m2 && (k2 == NULL || n2 == NULL)) || o == NULL)
		return -1;
	for (j = 0; j < 2; j++) {
		k = j ? k2 : k1;
		n = j ? n2 : n1;
		m = j ? m2 : m1;
		K = N = 0;
		runs = 0;
		for (i = 0; i < m; i++) {
			if (!valid_count(k[i], n[i]) ||
			    N + n[i] > (double)STATS_MAX_N)
				return -1;
			K += k[i];
			N += n[i];
			runs += n[i] > 0;
		}
		if (runs < 2 || fmin(K, N - K) < STATS_DISP_MINCOUNT * runs)
			continue;
		p = K / N;
		side = 0;
		for (i = 0; i < m; i++) {
			if (n[i] == 0)
				continue;
			e = k[i] - n[i] * p;
			side += e * e / (n[i] * p * (1 - p));
		}
		x2 += side;
		d += runs - 1;
		low = fmin(low, fmin(K, N - K) / runs);
	}
	o->df = d;
	o->s2 = d > 0 ? x2 / d : NAN;
	o->minexp = d > 0 ? low : 0;
	/* The binomial variance of a run, at the share of all the runs. */
	K = N = 0;
	runs = 0;
	for (j = 0; j < 2; j++)
		for (i = 0; i < (j ? m2 : m1); i++) {
			K += (j ? k2 : k1)[i];
			N += (j ? n2 : n1)[i];
			runs += (j ? n2 : n1)[i] > 0;
		}
	o->v = runs ? N / runs * (K / N) * (1 - K / N) : 0;
	return 0;
}

static int
disp_usable(const struct stats_disp *f)
{
	return f->df > 0 && f->df < HUGE_VAL && f->s2 >= 0 &&
	    f->s2 < HUGE_VAL;
}

/*
 * Smyth's moment estimate of d0 from the functions with at least
 * `least` expected samples a run: 0 if fewer than two qualify, HUGE_VAL
 * if their log-estimates vary no more than their df allow.
 */
static double
disp_trend(const struct stats_disp_prior *pr, double v)
{
	return pr->c + pr->b * v;
}

/*
 * Smyth's moment estimate of d0, from the functions with at least
 * `least` expected samples a run, each s2 taken relative to the trend:
 * 0 if fewer than two qualify, HUGE_VAL if they vary about the trend no
 * more than their df allow.
 */
static double
disp_d0(const struct stats_disp *f, size_t m,
    const struct stats_disp_prior *pr, double least, size_t *used)
{
	double	e, emean = 0, evar = 0, tri = 0, h, x, r;
	size_t	i, n = 0;

	for (i = 0; i < m; i++)
		n += disp_usable(&f[i]) && f[i].minexp >= least &&
		    disp_trend(pr, f[i].v) > 0;
	*used = n;
	if (n < 2)
		return 0;
	for (i = 0; i < m; i++) {
		if (!disp_usable(&f[i]) || f[i].minexp < least ||
		    (r = disp_trend(pr, f[i].v)) <= 0)
			continue;
		/* s2 = 0 (runs that tie exactly) would have log -inf. */
		h = f[i].df / 2;
		emean += log(fmax(f[i].s2 / r, 1e-5)) - digamma(h) + log(h);
		tri += trigamma(h);
	}
	emean /= n;
	for (i = 0; i < m; i++) {
		if (!disp_usable(&f[i]) || f[i].minexp < least ||
		    (r = disp_trend(pr, f[i].v)) <= 0)
			continue;
		h = f[i].df / 2;
		e = log(fmax(f[i].s2 / r, 1e-5)) - digamma(h) + log(h) - emean;
		evar += e * e;
	}
	x = evar / (n - 1) - tri / n;
	return x > 0 ? 2 * stats_trigamma_inv(x) : HUGE_VAL;
}

/*
 * The trend c + b v of the dispersion in a run's binomial variance v,
 * b >= 0, by least squares weighted by the inverse variance of each s2
 * under the trend, 2 (c + b v)^2 / df: three rounds of reweighting from
 * the constant s02.
 */
static void
disp_fit_trend(const struct stats_disp *f, size_t m,
    struct stats_disp_prior *pr)
{
	double	sw, sx, sy, sxx, sxy, w, r, xb, yb, vxx;
	size_t	i;
	int	round;

	pr->c = pr->s02;
	pr->b = 0;
	for (round = 0; round < 3; round++) {
		sw = sx = sy = sxx = sxy = 0;
		for (i = 0; i < m; i++) {
			if (!disp_usable(&f[i]))
				continue;
			r = fmax(disp_trend(pr, f[i].v), 1e-3);
			w = f[i].df / (r * r);
			sw += w;
			sx += w * f[i].v;
			sy += w * f[i].s2;
		}
		if (sw <= 0)
			return;
		xb = sx / sw;
		yb = sy / sw;
		for (i = 0; i < m; i++) {
			if (!disp_usable(&f[i]))
				continue;
			r = fmax(disp_trend(pr, f[i].v), 1e-3);
			w = f[i].df / (r * r);
			sxx += w * (f[i].v - xb) * (f[i].v - xb);
			sxy += w * (f[i].v - xb) * (f[i].s2 - yb);
		}
		vxx = sxx;
		pr->b = vxx > 0 && sxy > 0 ? sxy / vxx : 0;
		pr->c = yb - pr->b * xb;
	}
}

int
stats_disp_prior(const struct stats_disp *f, size_t m,
    struct stats_disp_prior *pr)
{
	double	x2 = 0, df = 0, xb = 0, db = 0;
	size_t	i, n = 0, fit;

	if (pr == NULL || (m && f == NULL))
		return -1;
	for (i = 0; i < m; i++)
		if (disp_usable(&f[i])) {
			x2 += f[i].df * f[i].s2;
			df += f[i].df;
			n++;
			if (f[i].minexp >= STATS_DISP_FITCOUNT) {
				xb += f[i].df * f[i].s2;
				db += f[i].df;
			}
		}
	pr->n = n;
	pr->df = df;
	pr->s02 = n ? x2 / df : NAN;
	pr->p = n ? gamma_q(df / 2, x2 / 2) : 1;
	if (db > 0)
		pr->p = fmin(pr->p, gamma_q(db / 2, xb / 2));
	pr->binomial = pr->p > STATS_DISP_LEVEL;
	disp_fit_trend(f, m, pr);
	pr->d0 = disp_d0(f, m, pr, STATS_DISP_FITCOUNT, &fit);
	if (fit < 2)
		pr->d0 = disp_d0(f, m, pr, 0, &fit);
	return 0;
}

double
stats_disp_posterior(const struct stats_disp *f,
    const struct stats_disp_prior *pr, double *dfpost)
{
	double	phi, d, d0, t;

	if (f == NULL || pr == NULL || !(f->df >= 0) || f->df == HUGE_VAL ||
	    (f->df > 0 && !disp_usable(f)) || !(f->v >= 0) ||
	    !(pr->d0 >= 0))
		return NAN;
	d0 = pr->d0;
	t = fmax(disp_trend(pr, f->v), 0);
	if (pr->binomial || !(pr->s02 >= 0)) {
		phi = 1;
		d = HUGE_VAL;
	} else if (d0 == HUGE_VAL) {
		phi = t;
		d = HUGE_VAL;
	} else if (d0 + f->df == 0) {
		phi = t;	/* no prior, no runs of its own */
		d = pr->df;
	} else {
		phi = ((d0 > 0 ? d0 * t : 0) +
		    (f->df > 0 ? f->df * f->s2 : 0)) / (d0 + f->df);
		d = d0 + f->df;
	}
	if (dfpost != NULL)
		*dfpost = d;
	return phi > 1 ? phi : 1;
}

/*
 * The quasi-binomial p-value, from d = k1 - E of the pooled table and
 * its hypergeometric variance V, at phi > 1 with df df.
 */
static double
quasi_p(double d, double V, double phi, double df, enum stats_alt alt)
{
	double	z, u;

	if (V <= 0)
		return 1;
	if (alt == STATS_TWO_SIDED) {
		z = (fabs(d) - phi / 2) / sqrt(phi * V);
		return z <= 0 ? 1 : fmin(1, 2 * t_sf(z, df));
	}
	u = alt == STATS_GREATER ? -d : d;	/* into the alternative */
	z = (u - phi / 2) / sqrt(phi * V);
	return z >= 0 ? t_sf(z, df) : 1 - t_sf(-z, df);
}

static int
valid_phi(double phi, double df)
{
	return !isnan(phi) && phi < HUGE_VAL && df > 0;
}

int
stats_disp_test(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double phi,
    double df, double alpha, enum stats_alt alt, struct stats_result *r)
{
	double	N, K, V, d, zq;

	if (!valid_count(k1, n1) || !valid_count(k2, n2) ||
	    !valid_alpha(alpha) || !valid_alt(alt) || !valid_phi(phi, df) ||
	    r == NULL)
		return -1;
	if ((phi <= 1 && df == HUGE_VAL) || n1 == 0 || n2 == 0) {
		if (stats_counts(k1, n1, k2, n2, alpha, r) == -1)
			return -1;
		if (alt != STATS_TWO_SIDED && r->method != STATS_UNTESTABLE)
			r->p = pvalue(k1, n1, n2, (double)k1 + k2, alt, NULL);
		return 0;
	}
	phi = fmax(phi, 1);
	N = (double)n1 + n2;
	K = (double)k1 + k2;
	V = (double)n1 * n2 * K * (N - K) / (N * N * (N - 1));
	d = (k1 * (double)n2 - k2 * (double)n1) / N;
	r->method = STATS_QUASI;
	r->df = df;
	r->diff = (double)k2 / n2 - (double)k1 / n1;
	r->p = quasi_p(d, V, phi, df, alt);
	r->stat = V > 0 ? -d / sqrt(phi * V) : 0;
	zq = t_upper(alpha / 2, df);
	newcombe(k1 / phi, n1 / phi, k2 / phi, n2 / phi, zq, &r->lo, &r->hi);
	return 0;
}

double
stats_disp_pmin(int64_t K, int64_t n1, int64_t n2, double phi, double df,
    enum stats_alt alt)
{
	double	N, V, lo, hi, dlo, dhi, d;

	if (n1 < 0 || n2 < 0 || n1 > STATS_MAX_N || n2 > STATS_MAX_N ||
	    K < 0 || K > n1 + n2 || !valid_alt(alt) || !valid_phi(phi, df))
		return -1;
	if (phi <= 1 && df == HUGE_VAL)
		return stats_pmin(K, n1, n2, alt);
	if (n1 == 0 || n2 == 0)
		return 1;
	phi = fmax(phi, 1);
	N = (double)n1 + n2;
	V = (double)n1 * n2 * K * (N - K) / (N * N * (N - 1));
	lo = K > n2 ? K - n2 : 0;
	hi = K < n1 ? K : n1;
	dlo = (lo * (double)n2 - (K - lo) * (double)n1) / N;
	dhi = (hi * (double)n2 - (K - hi) * (double)n1) / N;
	if (alt == STATS_GREATER)
		d = dlo;
	else if (alt == STATS_LESS)
		d = dhi;
	else
		d = fabs(dlo) > fabs(dhi) ? dlo : dhi;
	return quasi_p(d, V, phi, df, alt);
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

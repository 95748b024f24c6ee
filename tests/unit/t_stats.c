/*
 * Tests for stats.c.  Every expected value says where it comes from:
 * exact rational arithmetic (the python3 snippet that computed it is in
 * the comment, run offline: this machine has no scipy or R), a closed
 * form, or a published table.  The last part simulates the tests with a
 * seeded generator and checks that they are calibrated: the false
 * positive rate under the null is at most alpha (plus three standard
 * errors of the simulation), and the power under a known effect is what
 * normal theory predicts.  The measured rates are printed as "#" lines.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"
#include "tap.h"

#define NSIM		2000
/* alpha + 3 standard errors of a rate estimated from NSIM trials. */
#define NULL_LIMIT	(0.05 + 3 * sqrt(0.05 * 0.95 / NSIM))

/* splitmix64 (Steele, Lea and Flood 2014): tiny, seeded, good enough. */
struct rng {
	uint64_t	 s;
};

static uint64_t
rng_next(struct rng *r)
{
	uint64_t	z = (r->s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static double
rng_unif(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/*
 * Binomial(n, p).  Up to 10000 draws, as a sum of Bernoulli draws: slow,
 * but plainly right.  Above, by inversion in the order m, m + 1, m - 1,
 * m + 2, ... from the mode m: inversion is exact for any ordering of
 * the support, and this one takes about 1.6 standard deviations of
 * steps.  The pmf at the mode comes from lgamma, whose 1e-9 relative
 * error at n = 1e7 is far below what 2000 draws can see; test_sampler
 * checks the mean and variance.
 */
static int64_t
rng_binom(struct rng *r, int64_t n, double p)
{
	uint64_t	thr;
	int64_t		i, k = 0, m, up, dn;
	double		u, cum, fm, fu, fd;

	if (p <= 0)
		return 0;
	if (p >= 1)
		return n;
	if (n <= 10000) {
		thr = (uint64_t)(p * 0x1p64);
		for (i = 0; i < n; i++)
			k += rng_next(r) < thr;
		return k;
	}
	m = (int64_t)floor((n + 1) * p);
	if (m > n)
		m = n;
	fm = exp(lgamma(n + 1.0) - lgamma(m + 1.0) - lgamma(n - m + 1.0) +
	    m * log(p) + (n - m) * log1p(-p));
	u = rng_unif(r);
	cum = fm;
	if (u < cum)
		return m;
	up = dn = m;
	fu = fd = fm;
	for (;;) {
		if (up < n) {
			fu *= (double)(n - up) / (up + 1) * p / (1 - p);
			up++;
			cum += fu;
			if (u < cum)
				return up;
		}
		if (dn > 0) {
			fd *= (double)dn / (n - dn + 1) * (1 - p) / p;
			dn--;
			cum += fd;
			if (u < cum)
				return dn;
		}
		if ((up == n || fu < 1e-300) && (dn == 0 || fd < 1e-300))
			return m;	/* u beyond the rounding of cum */
	}
}

static double
rng_normal(struct rng *r)
{
	double	u1 = 1 - rng_unif(r), u2 = rng_unif(r);

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static int
near_rel(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

#define CHECK_REL(a, b, rel)	do {					\
	double ga_ = (a), wb_ = (b);					\
	tap_result(near_rel(ga_, wb_, rel), __FILE__, __LINE__,		\
	    #a " ~= " #b " (relative)");				\
	if (!near_rel(ga_, wb_, rel))					\
		printf("#   got %.17g, want %.17g\n", ga_, wb_);	\
} while (0)

/*
 * Normal quantiles: the values every table prints (R's qnorm gives the
 * same digits).  The round trip through erfc checks the tails, where no
 * table helps.
 */
static void
test_normal(void)
{
	static const double ps[] = { 1e-300, 1e-100, 1e-20, 1e-11, 1e-5,
	    0.001, 0.0249, 0.075, 0.3, 0.5, 0.7, 0.925, 0.99, 0.99999 };
	size_t	i;
	double	z;

	CHECK_NEAR(stats_norm_quantile(0.975), 1.959963984540054, 1e-15);
	CHECK_NEAR(stats_norm_quantile(0.025), -1.959963984540054, 1e-15);
	CHECK_NEAR(stats_norm_quantile(0.995), 2.5758293035489004, 1e-14);
	CHECK_NEAR(stats_norm_quantile(0.8), 0.8416212335729143, 1e-15);
	CHECK_NEAR(stats_norm_quantile(0.9), 1.2815515655446004, 1e-15);
	CHECK_NEAR(stats_norm_quantile(0.999), 3.090232306167813, 1e-14);
	CHECK(stats_norm_quantile(0.5) == 0);
	CHECK(stats_norm_quantile(0) == -HUGE_VAL);
	CHECK(stats_norm_quantile(1) == HUGE_VAL);
	CHECK(isnan(stats_norm_quantile(1.5)));
	CHECK_NEAR(stats_norm_cdf(1.959963984540054), 0.975, 1e-15);
	CHECK_NEAR(stats_norm_cdf(0), 0.5, 0);
	/* 1 - Phi(10), Abramowitz and Stegun's table 26.1 digits. */
	CHECK_REL(stats_norm_sf(10), 7.6198530241605269e-24, 1e-13);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		z = stats_norm_quantile(ps[i]);
		/* dp/p = |z| dz: at z = -37, 1e-16 in z is 4e-15 in p. */
		CHECK_REL(z < 0 ? stats_norm_cdf(z) : 1 - stats_norm_sf(z),
		    ps[i], 1e-12);
	}
}

/*
 * Student's t.  df = 1 and 2 have closed forms: F(t) = 1/2 + atan(t)/pi
 * and F(t) = 1/2 + t / (2 sqrt(2 + t^2)).  Other whole df use the finite
 * series of Abramowitz and Stegun 26.7.3-4 in double precision:
 *
 *	import math
 *	def A(t, nu):		# P(|T| < t)
 *	    th = math.atan(t / math.sqrt(nu)); c, s = math.cos(th), math.sin(th)
 *	    if nu == 1: return 2 * th / math.pi
 *	    tot = term = (c if nu % 2 else 1.0)
 *	    for k in range(3 if nu % 2 else 2, nu - 1, 2):
 *	        term *= c * c * (k - 1) / k; tot += term
 *	    return 2 / math.pi * (th + s * tot) if nu % 2 else s * tot
 *
 * and the quantiles are 200 bisections of it.
 */
static void
test_t(void)
{
	static const struct {
		double	 t, df, two;
	} cdf[] = {
		{ 2.228, 10, 0.05001177181711136 },
		{ 1.0, 3, 0.3910022189557706 },
		{ 3.0, 5, 0.030099247897462544 },
		{ 0.5, 7, 0.6324071356892842 },
		{ 10.0, 4, 0.0005620036227160785 },
		{ 2.0, 30, 0.05462504496298293 },
	};
	static const struct {
		double	 p, df, t;
	} qt[] = {
		{ 0.975, 10, 2.2281388519862735 },
		{ 0.975, 5, 2.570581835636314 },
		{ 0.995, 3, 5.84090930973332 },
		{ 0.975, 30, 2.0422724563012413 },
		{ 0.9995, 7, 5.4078825208616585 },
	};
	static const double ts[] = { -40, -3, -0.7, 0, 0.01, 1.5, 8, 300 };
	static const double dfs[] = { 0.5, 1.7, 2.5, 13.3, 24.988529, 1e4 };
	size_t	i, j;
	double	t, p;

	for (i = 0; i < sizeof(cdf) / sizeof(cdf[0]); i++)
		CHECK_REL(2 * stats_t_cdf(-cdf[i].t, cdf[i].df), cdf[i].two,
		    1e-12);
	for (i = 0; i < sizeof(qt) / sizeof(qt[0]); i++) {
		CHECK_NEAR(stats_t_quantile(qt[i].p, qt[i].df), qt[i].t,
		    1e-11);
		CHECK_NEAR(stats_t_quantile(1 - qt[i].p, qt[i].df),
		    -qt[i].t, 1e-11);
	}
	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		t = ts[i];
		CHECK_NEAR(stats_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-14);
		CHECK_NEAR(stats_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)),
		    1e-14);
	}
	for (p = 0.6; p < 0.9999; p = 1 - (1 - p) / 3) {
		CHECK_NEAR(stats_t_quantile(p, 1), tan(M_PI * (p - 0.5)),
		    1e-10 * tan(M_PI * (p - 0.5)));
		CHECK_NEAR(stats_t_quantile(p, 2),
		    (2 * p - 1) / sqrt(2 * p * (1 - p)), 1e-11);
	}
	/* Whole and fractional df: the quantile inverts the CDF. */
	for (i = 0; i < sizeof(dfs) / sizeof(dfs[0]); i++)
		for (j = 0; j < 4; j++) {
			p = (double[]){ 0.9, 0.975, 0.995, 1 - 1e-9 }[j];
			t = stats_t_quantile(p, dfs[i]);
			CHECK_REL(stats_t_cdf(-t, dfs[i]), 1 - p, 1e-10);
		}
	/* A huge df is the normal. */
	CHECK_NEAR(stats_t_quantile(0.975, 1e9), 1.959963984540054, 1e-8);
	CHECK_NEAR(stats_t_cdf(1.959963984540054, 1e5), 0.975, 1e-5);
	CHECK(stats_t_cdf(0, 3.5) == 0.5);
	CHECK(isnan(stats_t_cdf(1, 0)));
	CHECK(isnan(stats_t_quantile(0.5, -1)));
}

/* The incomplete beta function's closed forms and its symmetry. */
static void
test_betai(void)
{
	CHECK_REL(stats_betai(2.5, 1, 0.3), pow(0.3, 2.5), 1e-13);
	CHECK_REL(stats_betai(1, 3.5, 0.2), 1 - pow(0.8, 3.5), 1e-13);
	CHECK_NEAR(stats_betai(7.3, 7.3, 0.5), 0.5, 1e-14);
	CHECK_NEAR(stats_betai(3.2, 0.7, 0.45) + stats_betai(0.7, 3.2, 0.55),
	    1, 1e-14);
	/* I_x(2, 3) = 6x^2 - 8x^3 + 3x^4 (integrate 12 t (1 - t)^2). */
	CHECK_NEAR(stats_betai(2, 3, 0.4), 6 * 0.16 - 8 * 0.064 +
	    3 * 0.0256, 1e-14);
	CHECK(stats_betai(2, 3, 0) == 0);
	CHECK(stats_betai(2, 3, 1) == 1);
	CHECK(isnan(stats_betai(0, 3, 0.5)));
}

/*
 * The hypergeometric log-probability against exact big-integer values:
 *
 *	from decimal import Decimal, getcontext; getcontext().prec = 60
 *	from math import comb
 *	def lp(x, n1, n2, K):
 *	    return (Decimal(comb(n1, x) * comb(n2, K - x)).ln() -
 *	        Decimal(comb(n1 + n2, K)).ln())
 *
 * The big cases are where lgamma differences lose five digits or more.
 */
static void
test_hyper(void)
{
	static const struct {
		int64_t	 x, n1, n2, K;
		double	 lp;
	} c[] = {
		{ 3, 1000000000, 1000000000, 10, -2.143980064317407 },
		{ 60, 123456789, 987654321, 500, -3.0991203142300163 },
		{ 0, 1000, 3000, 40, -11.572786517498853 },
		{ 40, 1000, 3000, 40, -56.046607117667179 },
		{ 250, INT64_C(1) << 40, INT64_C(1) << 40, 500,
		    -3.3335954014088047 },
		{ 2, 5, 7, 6, -0.97077891715822484 },
		{ 7, INT64_C(1) << 45, INT64_C(1) << 46, 20,
		    -1.7030411795181621 },
	};
	size_t	i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		CHECK_NEAR(stats_hyper_logpmf(c[i].x, c[i].n1, c[i].n2,
		    c[i].K), c[i].lp, 1e-12);
	CHECK(stats_hyper_logpmf(5, 4, 4, 4) == -HUGE_VAL);
	CHECK(stats_hyper_logpmf(0, 4, 4, 5) == -HUGE_VAL);	/* K - x > n2 */
	CHECK(stats_hyper_logpmf(0, 0, 0, 0) == 0);
}

/*
 * Fisher's exact test against exact rational arithmetic:
 *
 *	from fractions import Fraction; from math import comb
 *	def fisher(k1, n1, k2, n2):
 *	    K, N = k1 + k2, n1 + n2
 *	    P = lambda y: Fraction(comb(n1, y) * comb(n2, K - y), comb(N, K))
 *	    return sum(P(y) for y in range(max(0, K - n2), min(K, n1) + 1)
 *	        if P(y) <= P(k1))
 *
 * (no tolerance is needed with exact fractions; R's 1 + 1e-7 changes
 * none of these).  The first is Fisher's (1935) lady tasting tea: 3 of 4
 * cups called right, one-sided 17/70 = 0.2429, two-sided 34/70 =
 * 0.4857.  (1, 1e9, 9, 1e9) is nearly Binomial(10, 1/2), whose two-sided
 * p is 22/1024 = 0.0215: that one needs the mirror-image table to be
 * recognised as equally likely at n = 1e9.
 */
static void
test_fisher(void)
{
	static const struct {
		int64_t	 k1, n1, k2, n2;
		double	 p;
	} c[] = {
		{ 3, 4, 1, 4, 0.485714285714286 },
		{ 0, 10, 5, 10, 0.0325077399380805 },
		{ 0, 5, 5, 5, 0.00793650793650794 },
		{ 2, 30, 9, 25, 0.0150180814690697 },
		{ 12, 40, 3, 35, 0.023714852742637 },
		{ 1, 1000, 8, 1200, 0.0457007937104876 },
		{ 3, 100, 7, 100, 0.331129164404388 },
		{ 10, 10, 0, 20, 3.32833916042312e-08 },
		{ 5, 56, 0, 29, 0.160621443209471 },
		{ 7, 34, 1, 34, 0.0544001304950657 },
		{ 0, 1, 1, 1, 1 },
		{ 4, 1000000, 16, 1000000, 0.0118175255234759 },
		{ 1, 1000000000, 9, 1000000000, 0.0214843746923828 },
		{ 3, 1000000000, 14, 2000000000, 0.205897485465725 },
		{ 40, 200, 60, 200, 0.0279468940734931 },
	};
	struct stats_result r;
	size_t	i;
	double	one;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CHECK_REL(stats_fisher(c[i].k1, c[i].n1, c[i].k2, c[i].n2),
		    c[i].p, 1e-9);
		/* Swapping the sides changes nothing. */
		CHECK_REL(stats_fisher(c[i].k2, c[i].n2, c[i].k1, c[i].n1),
		    c[i].p, 1e-9);
		CHECK_INT(stats_counts(c[i].k1, c[i].n1, c[i].k2, c[i].n2,
		    0.05, &r), 0);
		CHECK_INT(r.method, STATS_FISHER);
		CHECK_REL(r.p, c[i].p, 1e-9);
	}
	one = exp(stats_hyper_logpmf(3, 4, 4, 4)) +
	    exp(stats_hyper_logpmf(4, 4, 4, 4));
	CHECK_NEAR(one, 17.0 / 70, 1e-14);
	CHECK_NEAR(stats_fisher(3, 4, 1, 4), 0.4857, 5e-5);

	/* Edges: nothing to compare, or only one possible table. */
	CHECK(stats_fisher(0, 100, 0, 100) == 1);
	CHECK(stats_fisher(100, 100, 7, 7) == 1);
	CHECK(stats_fisher(0, 0, 5, 10) == 1);
	CHECK(stats_fisher(5, 4, 1, 4) == -1);
	CHECK(stats_fisher(-1, 4, 1, 4) == -1);
	CHECK_INT(stats_counts(0, 0, 3, 10, 0.05, &r), 0);
	CHECK_INT(r.method, STATS_UNTESTABLE);
	CHECK(r.p == 1 && r.lo == -1 && r.hi == 1);
	CHECK_INT(stats_counts(0, 500, 0, 700, 0.05, &r), 0);
	CHECK(r.p == 1 && r.diff == 0 && r.lo < 0 && r.hi > 0);
	CHECK_INT(stats_counts(500, 500, 700, 700, 0.05, &r), 0);
	CHECK(r.p == 1 && r.diff == 0);
	CHECK_INT(stats_counts(1, 2, 1, 2, 1.5, &r), -1);
	CHECK_INT(stats_counts(1, STATS_MAX_N + 1, 1, 2, 0.05, &r), -1);
	/* All of one side, none of the other, at n = 1e9: p underflows. */
	CHECK_INT(stats_counts(1000000000, 1000000000, 0, 1000000000, 0.05,
	    &r), 0);
	CHECK(r.p == 0 && r.hi < -0.99);
}

/*
 * Fisher's test against brute force on 3000 random tables with n up to
 * 60: every probability from binomial coefficients built in doubles by
 * Pascal's rule (exact below 2^53, within a few ulps above), summed over
 * the whole support with R's tolerance.  This exercises the mode
 * search, both bisections and the tail walks.
 */
static double
brute_fisher(int k1, int n1, int k2, int n2)
{
	static double	c[121][121];
	static int	init;
	double		px, py, s = 0;
	int		i, j, y, K = k1 + k2, lo, hi;

	if (!init) {
		for (i = 0; i <= 120; i++) {
			c[i][0] = c[i][i] = 1;
			for (j = 1; j < i; j++)
				c[i][j] = c[i - 1][j - 1] + c[i - 1][j];
		}
		init = 1;
	}
	lo = K > n2 ? K - n2 : 0;
	hi = K < n1 ? K : n1;
	px = c[n1][k1] * c[n2][K - k1] / c[n1 + n2][K];
	for (y = lo; y <= hi; y++) {
		py = c[n1][y] * c[n2][K - y] / c[n1 + n2][K];
		if (py <= px * (1 + 1e-7))
			s += py;
	}
	return s > 1 ? 1 : s;
}

static void
test_fisher_brute(void)
{
	struct rng rng = { 31337 };
	int	i, n1, n2, k1, k2, ok = 1;
	double	got, want;

	for (i = 0; i < 3000; i++) {
		n1 = 1 + rng_next(&rng) % 60;
		n2 = 1 + rng_next(&rng) % 60;
		k1 = rng_next(&rng) % (n1 + 1);
		k2 = rng_next(&rng) % (n2 + 1);
		got = stats_fisher(k1, n1, k2, n2);
		want = brute_fisher(k1, n1, k2, n2);
		if (!near_rel(got, want, 1e-11)) {
			printf("#   fisher(%d, %d, %d, %d) = %.17g, brute "
			    "%.17g\n", k1, n1, k2, n2, got, want);
			ok = 0;
		}
	}
	CHECK(ok);
}

/*
 * Fisher's test on larger tables, where the searches for the tails'
 * boundaries start from a guess and walk: 600 random tables with n up
 * to 5000 (some with one side a hundred times the other), x anywhere in
 * the support or within 6 standard deviations of the mean.  The answer
 * is the sum over the whole support of every probability at most P(x)
 * (1 + 1e-7), each from stats_hyper_logpmf() (checked above against
 * exact values).  A boundary one table off changes p by that table's
 * probability, a part in a few hundred near the mode.
 */
static double
support_fisher(int64_t k1, int64_t n1, int64_t k2, int64_t n2)
{
	int64_t	 K = k1 + k2, lo = K > n2 ? K - n2 : 0, hi = K < n1 ? K : n1;
	int64_t	 y;
	double	 lx = stats_hyper_logpmf(k1, n1, n2, K), lp, s = 0;

	for (y = lo; y <= hi; y++)
		if ((lp = stats_hyper_logpmf(y, n1, n2, K)) <=
		    lx + log1p(1e-7))
			s += exp(lp - lx);
	return fmin(1, exp(lx) * s);
}

static void
test_fisher_wide(void)
{
	struct rng rng = { 4242 };
	int64_t	 n1, n2, K, k1, lo, hi;
	double	 N, mean, sd, got, want;
	int	 i, ok = 1;

	for (i = 0; i < 600; i++) {
		n1 = 1 + (int64_t)(rng_next(&rng) % 5000);
		n2 = i % 4 == 0 ? 1 + n1 / 100 :
		    1 + (int64_t)(rng_next(&rng) % 5000);
		if (i % 8 == 0) {	/* the small side first */
			K = n1;
			n1 = n2;
			n2 = K;
		}
		K = (int64_t)(rng_next(&rng) % (uint64_t)(n1 + n2 + 1));
		lo = K > n2 ? K - n2 : 0;
		hi = K < n1 ? K : n1;
		N = (double)(n1 + n2);
		mean = (double)K * n1 / N;
		sd = sqrt(mean * n2 / N * (N - K) / fmax(N - 1, 1));
		if (i % 3 == 0)
			k1 = lo + (int64_t)(rng_next(&rng) %
			    (uint64_t)(hi - lo + 1));
		else
			k1 = (int64_t)floor(mean + (rng_unif(&rng) * 12 - 6) *
			    sd);
		k1 = k1 < lo ? lo : k1 > hi ? hi : k1;
		got = stats_fisher(k1, n1, K - k1, n2);
		want = support_fisher(k1, n1, K - k1, n2);
		if (!near_rel(got, want, 1e-9)) {
			printf("#   fisher(%lld, %lld, %lld, %lld) = %.17g, "
			    "support sum %.17g\n", (long long)k1,
			    (long long)n1, (long long)(K - k1),
			    (long long)n2, got, want);
			ok = 0;
		}
	}
	CHECK(ok);
}

/*
 * One-sided Fisher against exact rational arithmetic, with P as in
 * test_fisher():
 *
 *	lower = sum(P(y) for y in range(lo, k1 + 1))	# P(X <= k1)
 *	upper = sum(P(y) for y in range(k1, hi + 1))	# P(X >= k1)
 *
 * STATS_GREATER (the new share larger) is the lower tail.  The tea
 * table's upper tail is Fisher's one-sided 17/70.  Then the tails of 600
 * random tables with n up to 5000 against sums over the support, and
 * the identities that tie them to each other and to the two-sided test.
 */
static void
test_fisher_alt(void)
{
	static const struct {
		int64_t	 k1, n1, k2, n2;
		double	 lower, upper;
	} c[] = {
		{ 3, 4, 1, 4, 0.98571428571428577, 0.24285714285714285 },
		{ 0, 10, 5, 10, 0.016253869969040248, 1 },
		{ 2, 30, 9, 25, 0.0082840349801409623, 0.9991431914354435 },
		{ 12, 40, 3, 35, 0.99648588117525083, 0.019551729597549878 },
		{ 1, 1000, 8, 1200, 0.036046769355221393, 0.99578416904715228 },
		{ 3, 100, 7, 100, 0.16556458220219397, 0.94972747982466332 },
		{ 10, 10, 0, 20, 1, 3.3283391604231188e-08 },
		{ 5, 56, 0, 29, 1, 0.11645241895367217 },
		{ 40, 200, 60, 200, 0.013973447036746538, 0.99246503745446157 },
		{ 150, 300, 120, 300, 0.99455028036293969,
		    0.0086240841849755442 },
		{ 0, 300, 12, 300, 0.00021823835005266965, 1 },
		{ 4, 1000000, 16, 1000000, 0.0059087627617379684,
		    0.99871164606488605 },
		{ 1, 1000000000, 9, 1000000000, 0.010742187346191407,
		    0.99902343752197265 },
		{ 3, 1000000000, 14, 2000000000, 0.13042225995188025,
		    0.95584927406128173 },
		{ 7, 9, 2, 3, 0.87272727272727268, 0.61818181818181817 },
	};
	struct rng rng = { 5150 };
	struct stats_result r;
	int64_t	 n1, n2, K, k1, lo, hi, y;
	double	 lx, lp, lower, upper, two, gl, gu;
	size_t	 i;
	int	 ok = 1, okid = 1;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CHECK_REL(stats_fisher_alt(c[i].k1, c[i].n1, c[i].k2, c[i].n2,
		    STATS_GREATER), c[i].lower, 1e-12);
		CHECK_REL(stats_fisher_alt(c[i].k1, c[i].n1, c[i].k2, c[i].n2,
		    STATS_LESS), c[i].upper, 1e-12);
		/* Swapping the sides swaps the alternatives. */
		CHECK_REL(stats_fisher_alt(c[i].k2, c[i].n2, c[i].k1, c[i].n1,
		    STATS_LESS), c[i].lower, 1e-12);
		/* Two-sided is stats_fisher(), to the bit. */
		CHECK(stats_fisher_alt(c[i].k1, c[i].n1, c[i].k2, c[i].n2,
		    STATS_TWO_SIDED) == stats_fisher(c[i].k1, c[i].n1,
		    c[i].k2, c[i].n2));
		CHECK(stats_pvalue(c[i].k1, c[i].n1, c[i].k2, c[i].n2,
		    STATS_GREATER) == stats_fisher_alt(c[i].k1, c[i].n1,
		    c[i].k2, c[i].n2, STATS_GREATER));
	}
	CHECK(stats_fisher_alt(0, 0, 3, 5, STATS_GREATER) == 1);
	CHECK(stats_fisher_alt(4, 3, 3, 5, STATS_GREATER) == -1);
	CHECK(stats_fisher_alt(1, 3, 3, 5, (enum stats_alt)2) == -1);
	CHECK(stats_pvalue(1, 3, 3, 5, (enum stats_alt)-2) == -1);

	for (i = 0; i < 600; i++) {
		n1 = 1 + (int64_t)(rng_next(&rng) % 5000);
		n2 = i % 4 == 0 ? 1 + n1 / 50 :
		    1 + (int64_t)(rng_next(&rng) % 5000);
		K = (int64_t)(rng_next(&rng) % (uint64_t)(n1 + n2 + 1));
		lo = K > n2 ? K - n2 : 0;
		hi = K < n1 ? K : n1;
		k1 = lo + (int64_t)(rng_next(&rng) % (uint64_t)(hi - lo + 1));
		lx = stats_hyper_logpmf(k1, n1, n2, K);
		lower = upper = 0;
		for (y = lo; y <= hi; y++) {
			lp = exp(stats_hyper_logpmf(y, n1, n2, K) - lx);
			lower += y <= k1 ? lp : 0;
			upper += y >= k1 ? lp : 0;
		}
		lower = fmin(1, exp(lx) * lower);
		upper = fmin(1, exp(lx) * upper);
		gl = stats_fisher_alt(k1, n1, K - k1, n2, STATS_GREATER);
		gu = stats_fisher_alt(k1, n1, K - k1, n2, STATS_LESS);
		if (!near_rel(gl, lower, 1e-9) || !near_rel(gu, upper, 1e-9)) {
			printf("#   tails(%lld, %lld, %lld, %lld) = %.17g %.17g,"
			    " support sums %.17g %.17g\n", (long long)k1,
			    (long long)n1, (long long)(K - k1), (long long)n2,
			    gl, gu, lower, upper);
			ok = 0;
		}
		/*
		 * The two tails overlap in x itself.  The two-sided p-value
		 * holds the whole tail on x's side of the mode, so it is at
		 * least the smaller tail (it may exceed twice that when the
		 * distribution is skewed).
		 */
		two = stats_fisher(k1, n1, K - k1, n2);
		if (fabs(gl + gu - 1 - exp(lx)) > 1e-12 ||
		    two < fmin(gl, gu) * (1 - 1e-9)) {
			printf("#   identity fails at (%lld, %lld, %lld, %lld):"
			    " %.17g %.17g %.17g\n", (long long)k1,
			    (long long)n1, (long long)(K - k1), (long long)n2,
			    gl, gu, two);
			okid = 0;
		}
	}
	CHECK(ok);
	CHECK(okid);

	/* Above the switch, the normal tail: half the two-sided p. */
	CHECK_INT(stats_counts(500000000, 1000000000, 500100000,
	    1000000000, 0.05, &r), 0);
	CHECK_INT(r.method, STATS_NORMAL);
	CHECK_REL(stats_pvalue(500000000, 1000000000, 500100000, 1000000000,
	    STATS_GREATER), r.p / 2, 1e-12);
	CHECK(stats_pvalue(500000000, 1000000000, 500100000, 1000000000,
	    STATS_LESS) > 0.999);
	CHECK(stats_pvalue(500000000, 1000000000, 500100000, 1000000000,
	    STATS_TWO_SIDED) == r.p);
}

/*
 * The minimum attainable p-value against exact rational arithmetic
 * (fisher() and P as in the tests above):
 *
 *	two = min(fisher(lo, n1, K - lo, n2), fisher(hi, n1, K - hi, n2))
 *	greater, less = P(lo), P(hi)
 *
 * and on random margins, against the smallest p-value of every table
 * of the support.  K = 12 of 300 and 300 is 2 / C(600, 12) times
 * C(300, 12): the p of all twelve samples landing in one window.
 */
static void
test_pmin(void)
{
	static const struct {
		int64_t	 K, n1, n2;
		double	 two, greater, less;
	} c[] = {
		{ 10, 300, 300, 0.0018098081142298827,
		    0.00090490405711494135, 0.00090490405711494135 },
		{ 12, 300, 300, 0.0004364767001053393,
		    0.00021823835005266965, 0.00021823835005266965 },
		{ 3, 1000, 1000, 0.2496248124062031, 0.12481240620310155,
		    0.12481240620310155 },
		{ 5, 7, 3, 0.16666666666666666, 0.083333333333333329,
		    0.083333333333333329 },
		{ 20, 50, 1000, 5.1844953655972392e-29, 0.37345140690805373,
		    5.1844953655972392e-29 },
		{ 9, 1000000000, 1000000000, 0.0039062499296875003,
		    0.0019531249648437501, 0.0019531249648437501 },
		{ 1, 5, 5, 1, 0.5, 0.5 },
		{ 64, 300, 300, 2.5080525877174323e-21,
		    1.2540262938587162e-21, 1.2540262938587162e-21 },
		{ 30, 40, 25, 2.1867223462576123e-13, 2.1867223462576123e-13,
		    2.8169843202789728e-10 },
	};
	struct rng rng = { 99991 };
	int64_t	 n1, n2, K, lo, hi, y;
	double	 best[3], p, pm;
	size_t	 i;
	int	 a, ok = 1;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CHECK_REL(stats_pmin(c[i].K, c[i].n1, c[i].n2,
		    STATS_TWO_SIDED), c[i].two, 1e-12);
		CHECK_REL(stats_pmin(c[i].K, c[i].n1, c[i].n2, STATS_GREATER),
		    c[i].greater, 1e-12);
		CHECK_REL(stats_pmin(c[i].K, c[i].n1, c[i].n2, STATS_LESS),
		    c[i].less, 1e-12);
	}
	/* Edges, and the underflow: 1e5 samples all in one of two windows. */
	CHECK(stats_pmin(0, 300, 300, STATS_TWO_SIDED) == 1);
	CHECK(stats_pmin(600, 300, 300, STATS_TWO_SIDED) == 1);
	CHECK(stats_pmin(5, 0, 300, STATS_TWO_SIDED) == 1);
	CHECK(stats_pmin(100000, 1000000, 1000000, STATS_TWO_SIDED) == 0);
	CHECK(stats_pmin(100000, 1000000, 1000000, STATS_GREATER) == 0);
	CHECK(stats_pmin(601, 300, 300, STATS_TWO_SIDED) == -1);
	CHECK(stats_pmin(-1, 300, 300, STATS_TWO_SIDED) == -1);
	CHECK(stats_pmin(3, 300, 300, (enum stats_alt)3) == -1);

	for (i = 0; i < 300; i++) {
		n1 = 1 + (int64_t)(rng_next(&rng) % (i % 2 ? 40 : 800));
		n2 = 1 + (int64_t)(rng_next(&rng) % (i % 3 ? 40 : 800));
		K = (int64_t)(rng_next(&rng) % (uint64_t)(n1 + n2 + 1));
		if (i % 5 == 0)
			K %= 30;
		lo = K > n2 ? K - n2 : 0;
		hi = K < n1 ? K : n1;
		best[0] = best[1] = best[2] = 1;
		for (y = lo; y <= hi; y++)
			for (a = -1; a <= 1; a++) {
				p = stats_pvalue(y, n1, K - y, n2, a);
				if (p < best[a + 1])
					best[a + 1] = p;
			}
		for (a = -1; a <= 1; a++) {
			pm = stats_pmin(K, n1, n2, a);
			if (!(pm <= best[a + 1] * (1 + 1e-12)) ||
			    !(pm >= best[a + 1] * (1 - 1e-12))) {
				printf("#   pmin(%lld, %lld, %lld, %d) = %.17g, "
				    "smallest p %.17g\n", (long long)K,
				    (long long)n1, (long long)n2, a, pm,
				    best[a + 1]);
				ok = 0;
			}
		}
	}
	CHECK(ok);
}

/*
 * The switch to the normal approximation: just above the threshold,
 * the two agree.  Four shapes of table, each at z = 1.96, 2.58 and 3.29
 * (p = 0.05, 0.01, 0.001): equal profiles with a 30% share; a 5% share
 * with the new profile ten times the base; a 12% share of a profile a
 * thousand times smaller than the other (the most skewed case); and a
 * tiny share of two huge profiles.  Also the huge-count path matches the
 * closed form, and the exact test still copes there.
 */
static double
pick_k1(double n1, double n2, double K, double z)
{
	double	N = n1 + n2, var = n1 * n2 * K * (N - K) / (N * N * (N - 1));

	return floor(n1 * K / N - z * sqrt(var) - 0.5);
}

static void
test_switch(void)
{
	static const struct {
		int64_t	 n1, n2, K;
	} shape[] = {
		{ 1000000, 1000000, 600000 },
		{ 3000000, 30000000, 1650000 },
		{ 1000000, 1000000000, 120120000 },
		{ 1000000000, 1000000000, 420000 },
	};
	static const double zs[] = { 1.96, 2.58, 3.29 };
	struct stats_result r;
	double	k1, pe, pn, worst = 0;
	size_t	i, j;

	for (i = 0; i < sizeof(shape) / sizeof(shape[0]); i++)
		for (j = 0; j < 3; j++) {
			k1 = pick_k1(shape[i].n1, shape[i].n2, shape[i].K,
			    zs[j]);
			pe = stats_fisher(k1, shape[i].n1, shape[i].K - k1,
			    shape[i].n2);
			pn = stats_normal(k1, shape[i].n1, shape[i].K - k1,
			    shape[i].n2);
			CHECK_REL(pn, pe, 0.015);
			if (fabs(pn / pe - 1) > worst)
				worst = fabs(pn / pe - 1);
			CHECK_INT(stats_counts(k1, shape[i].n1,
			    shape[i].K - k1, shape[i].n2, 0.05, &r), 0);
			CHECK_INT(r.method, STATS_NORMAL);
		}
	printf("# switch at var >= %g: normal vs Fisher, worst relative "
	    "gap %.4f\n", STATS_EXACT_MAXVAR, worst);

	/* Half of 1e9 against half plus 1e5: z about 3.16, closed form. */
	CHECK_INT(stats_counts(500000000, 1000000000, 500100000,
	    1000000000, 0.05, &r), 0);
	CHECK_INT(r.method, STATS_NORMAL);
	k1 = 500000000;
	pe = erfc((50000 - 0.5) / sqrt(2 * (1e9 * 1e9 * 1000100000.0 *
	    999900000.0 / (4e18 * (2e9 - 1)))));
	CHECK_REL(r.p, pe, 1e-9);
	/* And the exact test still copes there, in milliseconds. */
	CHECK_REL(stats_fisher(500000000, 1000000000, 500100000,
	    1000000000), pe, 1e-3);
}

/*
 * Wilson's interval, Newcombe (1998, Stat Med 17:857-872) Table I, and
 * Newcombe's hybrid score interval, Newcombe (1998, Stat Med 17:873-890)
 * Table II, method 10: examples (a) to (h), printed to 4 decimals.  The
 * paper's difference is p1 - p2 with p1 the first proportion, so here the
 * first is the new side.
 */
static void
test_intervals(void)
{
	static const struct {
		int64_t	 a, m, b, n;	/* a/m - b/n */
		double	 lo, hi;
	} t2[] = {
		{ 56, 70, 48, 80, 0.0524, 0.3339 },
		{ 9, 10, 3, 10, 0.1705, 0.8090 },
		{ 6, 7, 2, 7, 0.0582, 0.8062 },
		{ 5, 56, 0, 29, -0.0381, 0.1926 },
		{ 0, 10, 0, 20, -0.1611, 0.2775 },
		{ 0, 10, 0, 10, -0.2775, 0.2775 },
		{ 10, 10, 0, 20, 0.6791, 1.0000 },
		{ 10, 10, 0, 10, 0.6075, 1.0000 },
	};
	struct stats_result r;
	double	lo, hi, lo2, hi2;
	size_t	i;

	CHECK_INT(stats_wilson(81, 263, 0.05, &lo, &hi), 0);
	CHECK_NEAR(lo, 0.2553, 5e-5);
	CHECK_NEAR(hi, 0.3662, 5e-5);
	CHECK_INT(stats_wilson(15, 148, 0.05, &lo, &hi), 0);
	CHECK_NEAR(lo, 0.0624, 5e-5);
	CHECK_NEAR(hi, 0.1605, 5e-5);
	CHECK_INT(stats_wilson(0, 20, 0.05, &lo, &hi), 0);
	CHECK(lo == 0);
	CHECK_NEAR(hi, 0.1611, 5e-5);
	/* One in 1e15: no cancellation, and the estimate is inside. */
	CHECK_INT(stats_wilson(1, INT64_C(1000000000000000), 0.05, &lo,
	    &hi), 0);
	CHECK(lo > 0 && lo < 1e-15 && hi > 1e-15 && hi < 1e-14);
	CHECK_INT(stats_wilson(3, 2, 0.05, &lo, &hi), -1);

	for (i = 0; i < sizeof(t2) / sizeof(t2[0]); i++) {
		CHECK_INT(stats_newcombe(t2[i].b, t2[i].n, t2[i].a, t2[i].m,
		    0.05, &lo, &hi), 0);
		CHECK_NEAR(lo, t2[i].lo, 5e-5 + 1e-9);
		CHECK_NEAR(hi, t2[i].hi, 5e-5 + 1e-9);
		/* The other way round, the interval is mirrored. */
		CHECK_INT(stats_newcombe(t2[i].a, t2[i].m, t2[i].b, t2[i].n,
		    0.05, &lo2, &hi2), 0);
		CHECK_NEAR(lo2, -hi, 1e-15);
		CHECK_NEAR(hi2, -lo, 1e-15);
	}
	CHECK_INT(stats_counts(48, 80, 56, 70, 0.05, &r), 0);
	CHECK_NEAR(r.diff, 0.2, 1e-15);
	CHECK_NEAR(r.lo, 0.0524, 5e-5);
	CHECK_NEAR(r.hi, 0.3339, 5e-5);
	CHECK(r.stat > 0);
}

/*
 * Benjamini-Hochberg by hand.  p = .01 .04 .03 .005 .20 .04, m = 6;
 * sorted with ranks: .005 (1), .01 (2), .03 (3), .04 (4), .04 (5), .20
 * (6); m p / rank = .03 .03 .06 .06 .048 .2; the running minimum from
 * the top gives .03 .03 .048 .048 .048 .2, so the tied .04s share .048.
 */
static int
cmp_naive(const double *p, size_t m, const double *q)
{
	size_t	i, j, rank;
	double	best, v;

	/* q_i = min over p_j >= p_i of m p_j / rank(j), rank by (p, index). */
	for (i = 0; i < m; i++) {
		best = 1;
		for (j = 0; j < m; j++) {
			if (p[j] < p[i])
				continue;
			rank = 0;
			{
				size_t	k;

				for (k = 0; k < m; k++)
					rank += p[k] < p[j] ||
					    (p[k] == p[j] && k <= j);
			}
			v = (double)m / rank * p[j];
			if (v < best)
				best = v;
		}
		if (fabs(best - q[i]) > 1e-15)
			return 0;
	}
	return 1;
}

static void
test_bh(void)
{
	double	p[6] = { 0.01, 0.04, 0.03, 0.005, 0.20, 0.04 };
	double	want[6] = { 0.03, 0.048, 0.048, 0.03, 0.2, 0.048 };
	double	perm[6] = { 0.20, 0.04, 0.005, 0.04, 0.03, 0.01 };
	double	c1[2] = { 0.9, 0.8 }, c2[4] = { 0.7, 0.7, 0.99, NAN };
	double	big[1000], orig[1000];
	size_t	idx[1000], i, j;
	struct rng rng = { 42 };
	int	ok;

	stats_bh(p, 6, idx);
	for (i = 0; i < 6; i++)
		CHECK_NEAR(p[i], want[i], 1e-15);
	stats_bh(perm, 6, idx);
	CHECK_NEAR(perm[0], 0.2, 1e-15);
	CHECK_NEAR(perm[1], 0.048, 1e-15);
	CHECK(perm[1] == perm[3]);
	CHECK_NEAR(perm[2], 0.03, 1e-15);
	stats_bh(c1, 2, idx);
	CHECK(c1[0] == 0.9 && c1[1] == 0.9);
	stats_bh(c2, 4, idx);
	CHECK(c2[0] == 1 && c2[1] == 1 && c2[2] == 1 && c2[3] == 1);
	stats_bh(NULL, 0, NULL);

	/* Random p-values, many ties: monotone, >= p, <= 1, as naive. */
	for (i = 0; i < 1000; i++)
		orig[i] = big[i] = floor(rng_unif(&rng) * 200) / 1000;
	stats_bh(big, 1000, idx);
	ok = 1;
	for (i = 0; i < 1000; i++) {
		ok &= big[i] >= orig[i] && big[i] <= 1;
		for (j = 0; j < 1000; j++)
			if (orig[i] < orig[j] && big[i] > big[j])
				ok = 0;
			else if (orig[i] == orig[j] && big[i] != big[j])
				ok = 0;
	}
	CHECK(ok);
	for (i = 0; i < 200; i++)
		big[i] = orig[i];
	stats_bh(big, 200, idx);
	CHECK(cmp_naive(orig, 200, big));
}

/*
 * The discrete FDR by hand.  Six rows, alpha = 0.05:
 *
 *	pmin	1e-6	1e-6	0.004	0.02	0.3	0.6
 *	p	1e-4	0.012	0.004	0.03	0.5	0.8
 *
 * M(1) = 4 (pmin <= 0.05), M(2) = 4 (<= 0.025), M(3) = 3 (<= 0.0167):
 * K* = 3, and the family is the first three.  BH over three: sorted p
 * 1e-4, 0.004, 0.012; 3p / rank = 3e-4, 0.006, 0.012, which are the
 * q-values; all three are rejected, and a fourth discovery would need p
 * <= min(0.05, 4 x 0.05 / 3) = 0.05.  Plain BH over the six rejects
 * four, the fourth at 0.03 <= 4 x 0.05 / 6: the row with pmin 0.02 was
 * trimmed, which is the price of the procedure (stats.c).  Three rows
 * with pmin = p = 0.02 give an empty family (M(3) = 0), where BH
 * rejects all three.  The naive version below is the definition, word
 * for word, with BH by its O(m^2) formula.
 */
static int
naive_gilbert(const double *p, const double *pmin, size_t m, double alpha,
    const double *q, const struct stats_fdr *r)
{
	size_t	i, j, l, k, cnt, rank, rej = 0;
	double	best, v, cut;

	for (k = 1; ; k++) {
		for (cnt = 0, i = 0; i < m; i++)
			cnt += pmin[i] <= alpha / k;
		if (cnt <= k)
			break;
	}
	cut = alpha / k;
	if (r->kstar != k || r->kept != cnt)
		return 0;
	for (i = 0; i < m; i++) {
		if (!(pmin[i] <= cut)) {
			if (!isnan(q[i]))
				return 0;
			continue;
		}
		/* min over family rows j with p_j >= p_i of cnt p_j / rank */
		best = 1;
		for (j = 0; j < m; j++) {
			if (!(pmin[j] <= cut) || p[j] < p[i])
				continue;
			for (rank = 0, l = 0; l < m; l++)
				rank += pmin[l] <= cut && (p[l] < p[j] ||
				    (p[l] == p[j] && l <= j));
			v = (double)cnt / rank * p[j];
			if (v < best)
				best = v;
		}
		if (fabs(best - q[i]) > 1e-15)
			return 0;
		rej += q[i] <= alpha;
	}
	return r->rejected == rej && r->threshold == (cnt == 0 ? alpha :
	    fmin(alpha, (double)(rej + 1) * alpha / cnt));
}

static void
test_fdr_discrete(void)
{
	double	pm[6] = { 1e-6, 1e-6, 0.004, 0.02, 0.3, 0.6 };
	double	p[6] = { 1e-4, 0.012, 0.004, 0.03, 0.5, 0.8 };
	double	want[3] = { 3e-4, 0.012, 0.006 }, q[6], bh[6];
	double	flat[3] = { 0.02, 0.02, 0.02 }, bp[300], bpm[300], bq[300];
	double	bq2[300], bp2[300], bpm2[300];
	size_t	idx[300], i, run;
	struct stats_fdr r, r2;
	struct rng rng = { 1717 };
	int	ok = 1, okperm = 1, trimmed = 0, found = 0;

	CHECK_INT(stats_fdr_discrete(p, pm, 6, 0.05, q, idx, &r), 0);
	CHECK_INT(r.kstar, 3);
	CHECK_INT(r.kept, 3);
	CHECK_INT(r.rejected, 3);
	CHECK_NEAR(r.cutoff, 0.05 / 3, 1e-17);
	CHECK(r.threshold == 0.05);
	for (i = 0; i < 3; i++)
		CHECK_NEAR(q[i], want[i], 1e-17);
	CHECK(isnan(q[3]) && isnan(q[4]) && isnan(q[5]));
	for (i = 0; i < 6; i++)
		bh[i] = p[i];
	stats_bh(bh, 6, idx);
	CHECK_NEAR(bh[3], 0.045, 1e-16);	/* BH's fourth */

	CHECK_INT(stats_fdr_discrete(flat, flat, 3, 0.05, q, idx, &r), 0);
	CHECK_INT(r.kstar, 3);
	CHECK_INT(r.kept, 0);
	CHECK_INT(r.rejected, 0);
	CHECK(r.threshold == 0.05);
	CHECK(isnan(q[0]) && isnan(q[1]) && isnan(q[2]));

	/* A lone row that can reach alpha is tested at alpha. */
	CHECK_INT(stats_fdr_discrete(p + 3, pm + 3, 1, 0.05, q, idx, &r), 0);
	CHECK(r.kept == 1 && r.rejected == 1 && q[0] == 0.03);
	CHECK(r.threshold == 0.05);
	CHECK_INT(stats_fdr_discrete(NULL, NULL, 0, 0.05, NULL, NULL, &r), 0);
	CHECK(r.kstar == 1 && r.kept == 0 && r.threshold == 0.05);
	CHECK_INT(stats_fdr_discrete(p, pm, 6, 0, q, idx, &r), -1);
	CHECK_INT(stats_fdr_discrete(p, NULL, 6, 0.05, q, idx, &r), -1);

	/*
	 * Random families against the definition: pmin on a coarse grid
	 * (many ties, many trimmed), p at or above pmin, some NaN.  And
	 * the order of the rows changes nothing.
	 */
	for (run = 0; run < 40; run++) {
		size_t	m = 1 + rng_next(&rng) % 300;

		for (i = 0; i < m; i++) {
			bpm[i] = pow(10, -(double)(rng_next(&rng) % 40) / 8);
			bp[i] = fmin(1, bpm[i] * (1 + (double)(rng_next(&rng) %
			    1000) / (i % 4 ? 10 : 1000)));
		}
		if (run % 5 == 0)
			bp[0] = bpm[m - 1] = NAN;
		CHECK_INT(stats_fdr_discrete(bp, bpm, m, 0.05, bq, idx, &r),
		    0);
		for (i = 0; i < m; i++) {
			if (isnan(bp[i]))
				bp[i] = 1;
			if (isnan(bpm[i]))
				bpm[i] = 1;
		}
		ok &= naive_gilbert(bp, bpm, m, 0.05, bq, &r);
		trimmed += r.kept < m;
		found += r.rejected > 0 && r.rejected < r.kept;
		for (i = 0; i < m; i++) {
			bp2[i] = bp[m - 1 - i];
			bpm2[i] = bpm[m - 1 - i];
		}
		CHECK_INT(stats_fdr_discrete(bp2, bpm2, m, 0.05, bq2, idx,
		    &r2), 0);
		for (i = 0; i < m; i++)
			if (!(bq2[i] == bq[m - 1 - i] ||
			    (isnan(bq2[i]) && isnan(bq[m - 1 - i]))))
				okperm = 0;
		okperm &= r.kept == r2.kept && r.rejected == r2.rejected &&
		    r.threshold == r2.threshold;
	}
	CHECK(ok);
	CHECK(okperm);
	printf("# discrete FDR: %d of 40 random families trimmed, %d with "
	    "some but not all rejected\n", trimmed, found);
	CHECK(trimmed > 20 && found > 10);

	/* The FCR level. */
	CHECK(stats_fcr_alpha(3, 60, 0.05) == 3 * 0.05 / 60);
	CHECK(stats_fcr_alpha(0, 60, 0.05) == 0.05 / 60);
	CHECK(stats_fcr_alpha(60, 60, 0.05) == 0.05);
	CHECK(stats_fcr_alpha(0, 0, 0.05) == 0.05);
	CHECK(stats_fcr_alpha(61, 60, 0.05) == -1);
	CHECK(stats_fcr_alpha(1, 60, 1) == -1);
}

/*
 * Noise and MDE.  With 312 and 298 samples at p = 1/2, sigma =
 * sqrt(0.25 (1/312 + 1/298)) = 0.040506, so the noise is 7.94 points
 * and the MDE (1.96 + 0.8416) sigma = 11.35 points.  The simulation
 * below checks that the MDE really is found 80% of the time.
 */
static void
test_mde(void)
{
	double	s = sqrt(0.25 * (1.0 / 312 + 1.0 / 298));

	CHECK_NEAR(stats_noise(0.5, 312, 298, 0.05),
	    1.959963984540054 * s, 1e-15);
	CHECK_NEAR(stats_mde(0.5, 312, 298, 0.05, 0.8),
	    (1.959963984540054 + 0.8416212335729143) * s, 1e-15);
	CHECK_NEAR(stats_noise(0.5, 312, 298, 0.05), 0.0794, 5e-5);
	CHECK_NEAR(stats_mde(0.5, 312, 298, 0.05, 0.8), 0.1135, 5e-5);
	CHECK(stats_noise(0.1, 312, 298, 0.05) <
	    stats_noise(0.5, 312, 298, 0.05));
	CHECK(stats_mde(0.5, 0, 298, 0.05, 0.8) == 1);
	CHECK(stats_mde(0.5, 2, 2, 0.001, 0.99) == 1);
	CHECK(stats_noise(1.5, 312, 298, 0.05) == -1);
	CHECK(stats_mde(0.5, 312, 298, 0.05, 1) == -1);
}

/*
 * Welch.  The first example of Wikipedia's "Welch's t-test" article
 * (A1 against A2, 15 values each), divided by 100 to make shares, which
 * changes neither t nor df.  Exact mean and variance with fractions, and
 * p by Simpson's rule on the t density (200000 panels):
 *
 *	t = 2.4553563982860047, df = 24.988529290231416,
 *	p = 0.021378001462861174
 *
 * (the article: t = -2.46, df = 25.0, p = 0.021, with the sides the
 * other way round).
 */
static void
test_welch(void)
{
	static const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9,
	    16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5,
	    25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	double	x[15], y[15], tq, se;
	double	z3[3] = { 0.1, 0.1, 0.1 }, w2[2] = { 0.2, 0.2 };
	double	bad[2] = { 0.1, 1.5 }, nan2[2] = { 0.1, NAN };
	struct stats_result r;
	struct rng rng = { 7 };
	size_t	i, j, n1, n2;
	int	ok;

	for (i = 0; i < 15; i++) {
		x[i] = a1[i] / 100;
		y[i] = a2[i] / 100;
	}
	CHECK_INT(stats_welch(x, 15, y, 15, 0.05, &r), 0);
	CHECK_INT(r.method, STATS_WELCH);
	CHECK_NEAR(r.diff, 0.021666666666666667, 1e-15);
	CHECK_REL(r.stat, 2.4553563982860047, 1e-12);
	CHECK_REL(r.df, 24.988529290231416, 1e-12);
	CHECK_REL(r.p, 0.021378001462861174, 1e-10);
	/* The interval is diff +- t(.975, df) se, and excludes 0 as p < .05. */
	se = r.diff / r.stat;
	tq = (r.hi - r.diff) / se;
	CHECK_REL(stats_t_cdf(-tq, r.df), 0.025, 1e-10);
	CHECK_NEAR(r.diff - r.lo, r.hi - r.diff, 1e-15);
	CHECK(r.lo > 0);
	CHECK_INT(stats_welch(y, 15, x, 15, 0.05, &r), 0);
	CHECK_REL(r.stat, -2.4553563982860047, 1e-12);

	/* No variance anywhere. */
	CHECK_INT(stats_welch(z3, 3, z3, 3, 0.05, &r), 0);
	CHECK_INT(r.method, STATS_WELCH_ZEROVAR);
	CHECK(r.p == 1 && r.lo == 0 && r.hi == 0);
	CHECK_INT(stats_welch(z3, 3, w2, 2, 0.05, &r), 0);
	CHECK_INT(r.method, STATS_WELCH_ZEROVAR);
	CHECK(r.p == 0 && r.stat == HUGE_VAL);
	CHECK_NEAR(r.lo, 0.1, 1e-15);
	/* No variance on one side: df is the other side's n - 1. */
	CHECK_INT(stats_welch(z3, 3, x, 15, 0.05, &r), 0);
	CHECK_NEAR(r.df, 14, 1e-12);
	/* Too few, or not shares. */
	CHECK_INT(stats_welch(z3, 1, w2, 2, 0.05, &r), 0);
	CHECK_INT(r.method, STATS_UNTESTABLE);
	CHECK(r.p == 1 && r.lo == -1 && r.hi == 1);
	CHECK_INT(stats_welch(bad, 2, w2, 2, 0.05, &r), -1);
	CHECK_INT(stats_welch(nan2, 2, w2, 2, 0.05, &r), -1);

	/* Satterthwaite's df lies in [min(n) - 1, n1 + n2 - 2]. */
	ok = 1;
	for (i = 0; i < 200; i++) {
		n1 = 2 + rng_next(&rng) % 6;
		n2 = 2 + rng_next(&rng) % 6;
		for (j = 0; j < n1; j++)
			x[j] = rng_unif(&rng) * (i % 3 ? 0.1 : 1);
		for (j = 0; j < n2; j++)
			y[j] = rng_unif(&rng);
		if (stats_welch(x, n1, y, n2, 0.05, &r) != 0)
			ok = 0;
		else if (r.df < (n1 < n2 ? n1 : n2) - 1 - 1e-9 ||
		    r.df > n1 + n2 - 2 + 1e-9 || r.p < 0 || r.p > 1 ||
		    r.lo > r.diff || r.hi < r.diff)
			ok = 0;
	}
	CHECK(ok);
}

/*
 * Mann-Whitney, exact values by counting arrangements in python3:
 *
 *	@lru_cache(None)
 *	def cnt(m, n, u):	# orders of m x's, n y's with u pairs y > x
 *	    if u < 0: return 0
 *	    if m == 0 or n == 0: return 1 if u == 0 else 0
 *	    return cnt(m, n - 1, u - m) + cnt(m - 1, n, u)
 *
 * p = min(1, 2 min(P(U <= u), P(U >= u))).  With ties, R's normal
 * formula with the tie and continuity corrections.
 */
static void
test_mw(void)
{
	static const double x3[] = { .1, .2, .3 }, y3[] = { .4, .5, .6 };
	static const double x4[] = { .1, .2, .3, .35 },
	    y4[] = { .4, .5, .6, .7 };
	static const double x5[] = { 0.11, 0.15, 0.19, 0.22, 0.30 },
	    y6[] = { 0.14, 0.25, 0.27, 0.31, 0.33, 0.40 };
	static const double x20[] = { 0.323833, 0.150849, 0.650934,
	    0.072436, 0.535882, 0.365689, 0.057999, 0.507436, 0.037496,
	    0.433646, 0.069855, 0.090713, 0.424519, 0.826852, 0.123802,
	    0.223239, 0.627433, 0.947709, 0.577103, 0.39668 };
	static const double y22[] = { 0.931004, 0.187266, 0.836775,
	    0.381687, 0.265404, 0.244234, 0.396785, 0.802901, 0.294581,
	    0.61528, 0.661131, 0.447918, 0.588196, 0.200231, 0.197681,
	    0.314767, 0.69432, 0.492074, 0.401318, 0.618449, 0.512548,
	    0.389814 };
	static const double xt[] = { .1, .2, .2, .3, .5 },
	    yt[] = { .2, .4, .5, .5, .6, .7 };
	struct stats_result r;

	CHECK_INT(stats_mannwhitney(x3, 3, y3, 3, &r), 0);
	CHECK_INT(r.method, STATS_MW_EXACT);
	CHECK(r.stat == 9);
	CHECK_NEAR(r.p, 0.1, 1e-15);
	CHECK_INT(stats_mannwhitney(x4, 4, y4, 4, &r), 0);
	CHECK_NEAR(r.p, 2.0 / 70, 1e-15);
	CHECK_INT(stats_mannwhitney(x5, 5, y6, 6, &r), 0);
	CHECK(r.stat == 24);
	CHECK_NEAR(r.p, 0.12554112554112554, 1e-15);
	CHECK_INT(stats_mannwhitney(x20, 20, y22, 22, &r), 0);
	CHECK_INT(r.method, STATS_MW_EXACT);
	CHECK(r.stat == 275);
	CHECK_NEAR(r.p, 0.1716693811736377, 1e-14);
	CHECK_INT(stats_mannwhitney(y22, 22, x20, 20, &r), 0);
	CHECK_NEAR(r.p, 0.1716693811736377, 1e-14);
	CHECK_INT(stats_mannwhitney(xt, 5, yt, 6, &r), 0);
	CHECK_INT(r.method, STATS_MW_NORMAL);
	CHECK(r.stat == 25);
	CHECK_NEAR(r.p, 0.07724878165472983, 1e-14);
	CHECK_INT(stats_mannwhitney(xt, 0, yt, 6, &r), 0);
	CHECK_INT(r.method, STATS_UNTESTABLE);
	CHECK_INT(stats_mannwhitney(yt + 2, 2, yt + 2, 2, &r), 0);
	CHECK(r.p == 1);		/* all four values 0.5: no spread */
}

/* Which test stats_replicates() picks. */
static void
test_replicates(void)
{
	int64_t	k1[3] = { 100, 120, 90 }, n1[3] = { 1000, 1000, 1000 };
	int64_t	k2[4] = { 150, 160, 140, 5 }, n2[4] = { 1000, 1000, 1000, 0 };
	int64_t	e1[3] = { 100, 100, 100 }, e2[3] = { 200, 200, 200 };
	double	scratch[7];
	struct stats_result r;

	CHECK_INT(stats_replicates(k1, n1, 3, k2, n2, 3, 0.05, scratch, &r),
	    0);
	CHECK_INT(r.method, STATS_WELCH);
	CHECK_NEAR(r.diff, 0.15 - 310.0 / 3000, 1e-15);
	CHECK_INT(stats_replicates(k1, n1, 3, k2, n2, 4, 0.05, scratch, &r),
	    -1);			/* 5 of 0 */
	k2[3] = 0;
	CHECK_INT(stats_replicates(k1, n1, 3, k2, n2, 4, 0.05, scratch, &r),
	    0);
	CHECK_INT(r.method, STATS_WELCH);	/* the empty one is left out */
	/* s^2/n = 7/90000 and 3/90000: df = 10^2 / ((7^2 + 3^2) / 2). */
	CHECK_NEAR(r.df, 100.0 / 29, 1e-12);
	CHECK_INT(stats_replicates(k1, n1, 1, k2, n2, 3, 0.05, scratch, &r),
	    0);
	CHECK_INT(r.method, STATS_FISHER);	/* one base profile: counts */
	CHECK_REL(r.p, stats_fisher(100, 1000, 450, 3000), 1e-15);
	CHECK_INT(stats_replicates(e1, n1, 3, e2, n1, 3, 0.05, scratch, &r),
	    0);
	CHECK_INT(r.method, STATS_FISHER);	/* no variance: counts */
	CHECK_INT(stats_replicates(e1, n1, 3, e1, n1, 3, 0.05, scratch, &r),
	    0);
	CHECK(r.p == 1);
	CHECK_INT(stats_replicates(NULL, NULL, 0, NULL, NULL, 0, 0.05, NULL,
	    &r), 0);
	CHECK_INT(r.method, STATS_UNTESTABLE);
	CHECK_STR(stats_method_name(STATS_WELCH), "welch");
}

/* The large-n sampler has the binomial's mean and variance. */
static void
test_sampler(void)
{
	struct rng rng = { 5 };
	double	s = 0, ss = 0, k, n = 1e7, p = 0.05, mean, var;
	int	i;

	for (i = 0; i < 4000; i++) {
		k = rng_binom(&rng, n, p);
		s += k;
		ss += k * k;
	}
	mean = s / 4000;
	var = ss / 4000 - mean * mean;
	/* SE of the mean 11, of the variance about 2.2% of it. */
	CHECK_NEAR(mean, n * p, 45);
	CHECK_NEAR(var / (n * p * (1 - p)), 1, 0.09);
}

/*
 * Calibration.  Under H0 (both windows at share p, n samples each) a
 * 0.05-level test must reject at most 5% of the time; Fisher's exact
 * test is conservative by construction, so it may reject less.  NSIM
 * pairs per cell give a standard error of 0.0049, so the bound checked
 * is 0.05 + 3 SE = 0.065.  n = 1e6 and 1e7 reach the normal branch.  The
 * same loop measures how often Newcombe's 95% interval covers the true
 * difference, 0.
 */
static void
test_null(void)
{
	static const int64_t ns[] = { 30, 300, 3000, 1000000, 10000000 };
	static const double ps[] = { 0.01, 0.1, 0.5 };
	struct stats_result r;
	struct rng rng = { 20240601 };
	size_t	i, j, s;
	int	rej, cover, exact;
	int64_t	k1, k2;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (j = 0; j < 3; j++) {
			rej = cover = exact = 0;
			for (s = 0; s < NSIM; s++) {
				k1 = rng_binom(&rng, ns[i], ps[j]);
				k2 = rng_binom(&rng, ns[i], ps[j]);
				stats_counts(k1, ns[i], k2, ns[i], 0.05, &r);
				rej += r.p <= 0.05;
				cover += r.lo <= 0 && r.hi >= 0;
				exact += r.method == STATS_FISHER;
			}
			printf("# null n=%lld p=%.2f: rejected %.4f, "
			    "Newcombe covers %.4f (%d%% exact)\n",
			    (long long)ns[i], ps[j], (double)rej / NSIM,
			    (double)cover / NSIM, exact * 100 / NSIM);
			CHECK((double)rej / NSIM <= NULL_LIMIT);
			CHECK((double)cover / NSIM >= 0.95 -
			    3 * sqrt(0.05 * 0.95 / NSIM));
		}
}

/*
 * Power: the rejection rate under a known effect against the normal
 * theory prediction Phi((|d| - z s0 - c) / s1) + Phi((-|d| - z s0 - c)
 * / s1), with s0 the pooled null and s1 the alternative standard error
 * of p2 - p1, and c = (1/n1 + 1/n2) / 2 the continuity correction that
 * Fisher's test behaves as if it had.  Then the MDE: a true change of
 * stats_mde() is found 80% of the time.
 */
static double
power_theory(double p1, double p2, double n1, double n2, double cc)
{
	double	pb = (p1 * n1 + p2 * n2) / (n1 + n2), d = fabs(p2 - p1);
	double	s0 = sqrt(pb * (1 - pb) * (1 / n1 + 1 / n2));
	double	s1 = sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2);
	double	z = 1.959963984540054, c = cc * 0.5 * (1 / n1 + 1 / n2);

	return stats_norm_cdf((d - z * s0 - c) / s1) +
	    stats_norm_cdf((-d - z * s0 - c) / s1);
}

static double
sim_power(struct rng *rng, int64_t n1, double p1, int64_t n2, double p2)
{
	struct stats_result r;
	int	rej = 0;
	size_t	s;

	for (s = 0; s < NSIM; s++) {
		stats_counts(rng_binom(rng, n1, p1), n1, rng_binom(rng, n2,
		    p2), n2, 0.05, &r);
		rej += r.p <= 0.05;
	}
	return (double)rej / NSIM;
}

static void
test_power(void)
{
	static const struct {
		int64_t	 n1;
		double	 p1;
		int64_t	 n2;
		double	 p2;
	} c[] = {
		{ 1000, 0.10, 1000, 0.13 },
		{ 300, 0.50, 300, 0.60 },
		{ 3000, 0.30, 2000, 0.335 },
		{ 3000, 0.004, 3000, 0.009 },
		{ 200, 0.05, 400, 0.12 },
		{ 10000000, 0.05, 10000000, 0.0503 },
		{ 1000000, 0.30, 1000000, 0.302 },
	};
	struct rng rng = { 99 };
	double	got, plain, cc, d, exact;
	size_t	i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		got = sim_power(&rng, c[i].n1, c[i].p1, c[i].n2, c[i].p2);
		plain = power_theory(c[i].p1, c[i].p2, c[i].n1, c[i].n2, 0);
		cc = power_theory(c[i].p1, c[i].p2, c[i].n1, c[i].n2, 1);
		exact = stats_fisher_power(c[i].p1, c[i].n1, c[i].p2, c[i].n2,
		    0.05, STATS_TWO_SIDED);
		printf("# power n=%lld/%lld p=%.4f->%.4f: measured %.4f, "
		    "exact %.4f, theory %.4f (%.4f without continuity "
		    "correction)\n", (long long)c[i].n1, (long long)c[i].n2,
		    c[i].p1, c[i].p2, got, exact, cc, plain);
		/* Within 0.05 of normal theory, with or without the CC. */
		CHECK(got >= cc - 0.05 && got <= plain + 0.05);
		/* And within 3 standard errors of the exact power. */
		CHECK(fabs(got - exact) <= 3 * sqrt(exact * (1 - exact) /
		    NSIM) + 1e-9);
	}
	d = stats_mde(0.1, 1000, 1000, 0.05, 0.8);
	got = sim_power(&rng, 1000, 0.1 - d / 2, 1000, 0.1 + d / 2);
	printf("# MDE at p=0.1, n=1000/1000 is %.4f: found %.4f of the "
	    "time\n", d, got);
	CHECK_NEAR(got, 0.8, 0.05);
	d = stats_mde(0.5, 312, 298, 0.05, 0.8);
	got = sim_power(&rng, 312, 0.5 - d / 2, 298, 0.5 + d / 2);
	printf("# MDE at p=0.5, n=312/298 is %.4f: found %.4f of the "
	    "time\n", d, got);
	CHECK_NEAR(got, 0.8, 0.05);
}

/*
 * Exact power against brute force: every pair (k1, k2) of two small
 * binomials, each weighted by its probability from lgamma(3), summed
 * where stats_pvalue() <= thr.  The sum over the rectangle leaves out at
 * most 4e-12.  Under the null the power is the size, at most thr.
 */
static double
brute_power(double p1, int n1, double p2, int n2, double thr,
    enum stats_alt alt)
{
	double	s = 0, l1, l2;
	int	a, b;

	for (a = 0; a <= n1; a++)
		for (b = 0; b <= n2; b++) {
			if (stats_pvalue(a, n1, b, n2, alt) > thr)
				continue;
			l1 = lgamma(n1 + 1.0) - lgamma(a + 1.0) -
			    lgamma(n1 - a + 1.0) + (a ? a * log(p1) : 0) +
			    (n1 - a ? (n1 - a) * log1p(-p1) : 0);
			l2 = lgamma(n2 + 1.0) - lgamma(b + 1.0) -
			    lgamma(n2 - b + 1.0) + (b ? b * log(p2) : 0) +
			    (n2 - b ? (n2 - b) * log1p(-p2) : 0);
			s += exp(l1 + l2);
		}
	return s;
}

static void
test_fisher_power(void)
{
	static const struct {
		double	 p1;
		int	 n1;
		double	 p2;
		int	 n2;
		double	 thr;
	} c[] = {
		{ 0.1, 30, 0.4, 25, 0.05 },
		{ 0.5, 40, 0.5, 40, 0.05 },
		{ 0.02, 60, 0.2, 80, 0.01 },
		{ 0.3, 7, 0.9, 9, 0.1 },
		{ 0.2, 50, 0.2, 3, 0.3 },
		{ 0.05, 120, 0.12, 100, 0.001 },
	};
	size_t	i;
	int	a;
	double	pw;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (a = -1; a <= 1; a++)
			CHECK_NEAR(stats_fisher_power(c[i].p1, c[i].n1,
			    c[i].p2, c[i].n2, c[i].thr, a), brute_power(c[i].p1,
			    c[i].n1, c[i].p2, c[i].n2, c[i].thr, a), 1e-11);
	/* A share of 0 on one side: one binomial is a point. */
	CHECK_NEAR(stats_fisher_power(0, 20, 0.3, 20, 0.05, STATS_GREATER),
	    brute_power(1e-300, 20, 0.3, 20, 0.05, STATS_GREATER), 1e-11);
	CHECK(stats_fisher_power(0.3, 20, 0.3, 20, 0.05, STATS_TWO_SIDED) <=
	    0.05);
	pw = stats_fisher_power(0.1, 1000, 0.13, 1000, 0.05, STATS_GREATER);
	CHECK(pw > stats_fisher_power(0.1, 1000, 0.13, 1000, 0.05,
	    STATS_TWO_SIDED));
	CHECK(stats_fisher_power(0.1, 1000, 0.13, 1000, 0.05, STATS_LESS) <
	    1e-4);
	CHECK(stats_fisher_power(0.1, 0, 0.13, 1000, 0.05, 0) == 0);
	CHECK(stats_fisher_power(1.1, 10, 0.13, 1000, 0.05, 0) == -1);
	CHECK(stats_fisher_power(0.1, 10, 0.13, 1000, 1, 0) == -1);
}

/*
 * Replicates with run-to-run variation: each profile's true share is p
 * + tau N(0, 1), and then n samples are drawn from it.  The shares of
 * the two sides come from the same distribution, so any rejection is
 * false.  Summing each side's counts into one binomial test sees only
 * the sampling part of the variance and must over-reject; Welch's test
 * sees all of it and must not.  With tau = 0 (pure sampling noise) both
 * are calibrated.
 */
static void
sim_replicates(struct rng *rng, size_t m, double tau, double *welch,
    double *pooled, double *mw)
{
	int64_t	n = 2000, k[2][8];
	double	sh[2][8], p = 0.1, q;
	struct stats_result r;
	int64_t	K[2];
	size_t	s, side, i;
	int	rw = 0, rp = 0, rm = 0;

	for (s = 0; s < NSIM; s++) {
		for (side = 0; side < 2; side++) {
			K[side] = 0;
			for (i = 0; i < m; i++) {
				q = p + tau * rng_normal(rng);
				q = q < 0 ? 0 : q > 1 ? 1 : q;
				k[side][i] = rng_binom(rng, n, q);
				sh[side][i] = (double)k[side][i] / n;
				K[side] += k[side][i];
			}
		}
		stats_welch(sh[0], m, sh[1], m, 0.05, &r);
		rw += r.p <= 0.05;
		stats_counts(K[0], n * m, K[1], n * m, 0.05, &r);
		rp += r.p <= 0.05;
		stats_mannwhitney(sh[0], m, sh[1], m, &r);
		rm += r.p <= 0.05;
	}
	*welch = (double)rw / NSIM;
	*pooled = (double)rp / NSIM;
	*mw = (double)rm / NSIM;
}

static void
test_replicate_null(void)
{
	static const size_t ms[] = { 3, 5 };
	static const double taus[] = { 0, 0.01 };
	struct rng rng = { 4242 };
	double	w, pooled, mw;
	size_t	i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			sim_replicates(&rng, ms[i], taus[j], &w, &pooled, &mw);
			printf("# replicates %zu vs %zu, n=2000, p=0.1, "
			    "tau=%.2f: Welch rejects %.4f, pooled counts "
			    "%.4f, Mann-Whitney %.4f\n", ms[i], ms[i],
			    taus[j], w, pooled, mw);
			CHECK(w <= NULL_LIMIT);
			CHECK(mw <= NULL_LIMIT);
			if (taus[j] == 0)
				CHECK(pooled <= NULL_LIMIT);
			else
				CHECK(pooled > 0.15);
		}
}

/*
 * BH across a whole profile.  Forty functions with shares from 30% down
 * to 0.1%, 1000 samples per window drawn from the same multinomial, all
 * forty tested: under this global null any discovery is false, so the
 * chance of one is the FDR, which BH keeps at 0.05 although the shares
 * are dependent (they sum to 1).  Unadjusted, most runs "find" a change.
 */
static void
test_fdr(void)
{
	enum { NF = 40, NRUN = 1000, NS = 1000 };
	double	w[NF], cum[NF], p[NF], tot = 0, u;
	size_t	idx[NF], f, run, s, lo, hi, mid;
	int64_t	k[2][NF];
	struct stats_result r;
	struct rng rng = { 777 };
	int	anyraw = 0, anybh = 0, raw, bh, side;

	for (f = 0; f < NF; f++) {
		w[f] = 0.3 / (1 + f * 0.7) + 0.001;
		tot += w[f];
	}
	for (f = 0; f < NF; f++)
		cum[f] = (f ? cum[f - 1] : 0) + w[f] / tot;
	for (run = 0; run < NRUN; run++) {
		for (side = 0; side < 2; side++) {
			for (f = 0; f < NF; f++)
				k[side][f] = 0;
			for (s = 0; s < NS; s++) {
				u = rng_unif(&rng);
				lo = 0;
				hi = NF - 1;
				while (lo < hi) {
					mid = (lo + hi) / 2;
					if (cum[mid] > u)
						hi = mid;
					else
						lo = mid + 1;
				}
				k[side][lo]++;
			}
		}
		raw = bh = 0;
		for (f = 0; f < NF; f++) {
			stats_counts(k[0][f], NS, k[1][f], NS, 0.05, &r);
			p[f] = r.p;
			raw |= r.p <= 0.05;
		}
		stats_bh(p, NF, idx);
		for (f = 0; f < NF; f++)
			bh |= p[f] <= 0.05;
		anyraw += raw;
		anybh += bh;
	}
	printf("# 40 functions under the null, %d runs: some p <= 0.05 in "
	    "%.3f, some BH q <= 0.05 in %.3f\n", NRUN,
	    (double)anyraw / NRUN, (double)anybh / NRUN);
	CHECK((double)anybh / NRUN <= 0.05 + 3 * sqrt(0.05 * 0.95 / NRUN));
	CHECK((double)anyraw / NRUN > 0.3);
}

int
main(void)
{
	test_normal();
	test_t();
	test_betai();
	test_hyper();
	test_fisher();
	test_fisher_brute();
	test_fisher_wide();
	test_fisher_alt();
	test_pmin();
	test_switch();
	test_intervals();
	test_bh();
	test_fdr_discrete();
	test_mde();
	test_welch();
	test_mw();
	test_replicates();
	test_sampler();
	test_null();
	test_power();
	test_fisher_power();
	test_replicate_null();
	test_fdr();
	return tap_done();
}

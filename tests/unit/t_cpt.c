/*
 * The change-point scan of stats_cpt.c, checked against values computed
 * here another way: the likelihood ratio from the per-point likelihood
 * (not the pooled sums the scan uses), Fisher's and the binomial test's
 * p-values by summing every table, and the scan's null by enumerating
 * every sequence of counts of tiny series under the exact conditional
 * null (the multivariate hypergeometric given the total), which also
 * measures the test's size.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/stats.h"
#include "tap.h"

#define TOL(a, b, t)	CHECK(fabs((a) - (b)) <= (t) * fmax(1, fabs(b)))

static double
lchoose(double n, double k)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

/* Per-point log-likelihood at level p (binomial) or rate l (Poisson). */
static double
loglik(const int64_t *k, const double *n, size_t lo, size_t hi, double p,
    int poisson)
{
	double	 s = 0;
	size_t	 t;

	for (t = lo; t < hi; t++) {
		if (poisson)
			s += (k[t] ? (double)k[t] * log(p * n[t]) : 0) - p * n[t];
		else
			s += (k[t] ? (double)k[t] * log(p) : 0) +
			    (n[t] - (double)k[t] > 0 ? (n[t] - (double)k[t]) *
			    log(1 - p) : 0);
	}
	return s;
}

static double
mle(const int64_t *k, const double *n, size_t lo, size_t hi)
{
	double	 a = 0, b = 0;
	size_t	 t;

	for (t = lo; t < hi; t++) {
		a += (double)k[t];
		b += n[t];
	}
	return a / b;
}

static double
lr_direct(const int64_t *k, const double *n, size_t T, size_t s,
    int poisson)
{
	return 2 * (loglik(k, n, 0, s, mle(k, n, 0, s), poisson) +
	    loglik(k, n, s, T, mle(k, n, s, T), poisson) -
	    loglik(k, n, 0, T, mle(k, n, 0, T), poisson));
}

static void
test_lr(void)
{
	int64_t	 k[] = { 0, 0, 10, 10 }, k2[] = { 3, 7, 1, 12, 9, 4 };
	double	 n[] = { 10, 10, 10, 10 }, n2[] = { 40, 55, 31, 60, 47, 38 };
	double	 e[] = { 1.5, 2, 3, 1, 2.5, 4 };
	size_t	 s;

	/* 0 of 20, then 20 of 20: 2 * 40 log 2. */
	TOL(stats_cpt_lr(k, n, 0, 2, 4, STATS_CPT_BINOMIAL), 80 * log(2),
	    1e-12);
	for (s = 1; s < 6; s++) {
		TOL(stats_cpt_lr(k2, n2, 0, s, 6, STATS_CPT_BINOMIAL),
		    lr_direct(k2, n2, 6, s, 0), 1e-9);
		TOL(stats_cpt_lr(k2, e, 0, s, 6, STATS_CPT_POISSON),
		    lr_direct(k2, e, 6, s, 1), 1e-9);
	}
	CHECK(stats_cpt_lr(k, n, 0, 0, 4, STATS_CPT_BINOMIAL) == -1);
	CHECK(stats_cpt_lr(k, n, 0, 4, 4, STATS_CPT_BINOMIAL) == -1);
}

/* Fisher's two-sided p by summing every table (R's 1 + 1e-7 rule). */
static double
fisher_brute(int64_t x, int64_t n1, int64_t n2, int64_t K)
{
	double	 p0, s = 0, lp;
	int64_t	 y;

	p0 = lchoose(n1, x) + lchoose(n2, K - x) - lchoose(n1 + n2, K);
	for (y = 0; y <= K; y++) {
		if (y > n1 || K - y > n2)
			continue;
		lp = lchoose(n1, y) + lchoose(n2, K - y) - lchoose(n1 + n2, K);
		if (lp <= p0 + log(1 + 1e-7))
			s += exp(lp);
	}
	return fmin(1, s);
}

/* The scan finds the best split, and its p is Fisher's there times S. */
static void
test_scan(void)
{
	int64_t		 k[] = { 3, 7, 1, 12, 9, 4 };
	double		 n[] = { 40, 55, 31, 60, 47, 38 }, best = -1, lr;
	struct stats_cpt c;
	size_t		 s, bs = 0;
	int64_t		 k1 = 0;
	double		 n1 = 0;

	for (s = 1; s < 6; s++)
		if ((lr = lr_direct(k, n, 6, s, 0)) > best) {
			best = lr;
			bs = s;
		}
	CHECK(stats_cpt_scan(k, n, 0, 6, STATS_CPT_BINOMIAL, 1, HUGE_VAL,
	    &c) == 0);
	CHECK_INT(c.split, bs);
	CHECK_INT(c.nsplits, 5);
	TOL(c.lr, best, 1e-9);
	for (s = 0; s < bs; s++) {
		k1 += k[s];
		n1 += n[s];
	}
	CHECK_INT(c.k1, k1);
	TOL(c.p_split, fisher_brute(k1, (int64_t)n1, 271 - (int64_t)n1, 36),
	    1e-9);
	TOL(c.p, fmin(1, 5 * c.p_split), 1e-12);
	CHECK(c.pmin <= c.p);
	/* A series of one point has no split: p is 1. */
	CHECK(stats_cpt_scan(k, n, 0, 1, STATS_CPT_BINOMIAL, 1, HUGE_VAL,
	    &c) == 0 && c.p == 1 && c.nsplits == 0);
	/* Dispersion: the quasi test is milder than the binomial one. */
	CHECK(stats_cpt_scan(k, n, 0, 6, STATS_CPT_BINOMIAL, 1, HUGE_VAL,
	    &c) == 0);
	lr = c.p;
	CHECK(stats_cpt_scan(k, n, 0, 6, STATS_CPT_BINOMIAL, 3, 40, &c) == 0);
	CHECK(c.p > lr);
}

/* The binomial test by doubling the smaller tail, by summing. */
static double
binom_brute(int64_t x, int64_t K, double f)
{
	double	 up = 0, down = 0, lp;
	int64_t	 y;

	for (y = 0; y <= K; y++) {
		lp = lchoose((double)K, (double)y) + (double)y * log(f) +
		    (double)(K - y) * log(1 - f);
		if (y >= x)
			up += exp(lp);
		if (y <= x)
			down += exp(lp);
	}
	return fmin(1, 2 * fmin(up, down));
}

static void
test_rates(void)
{
	int64_t		 k[] = { 2, 3, 1, 9, 8 };
	double		 e[] = { 1, 1.5, 1, 1.2, 0.8 };
	struct stats_cpt c;

	CHECK(stats_cpt_scan(k, e, 0, 5, STATS_CPT_POISSON, 1, HUGE_VAL,
	    &c) == 0);
	CHECK_INT(c.split, 3);
	TOL(c.p_split, binom_brute(6, 23, 3.5 / 5.5), 1e-9);
	TOL(c.p, fmin(1, 4 * c.p_split), 1e-12);
}

/*
 * Every sequence of counts of a series of T points of n samples each,
 * with K in all, under the conditional null: the scan's p is a valid
 * p-value (the probability of a p at most as small as any one attained
 * is at most that p: Bonferroni's bound holds), pmin is never above p,
 * and at alpha the test rejects with probability at most alpha (its
 * size).
 */
#define BT	4
#define BN	5

static void
test_null_exact(void)
{
	int64_t		 k[BT];
	double		 n[BT] = { BN, BN, BN, BN }, size05, size10, pr, tail;
	double		 prs[1296], ps[1296];
	struct stats_cpt c;
	int		 K, a, b, d, m, i, j, bound_ok = 1, pmin_ok = 1;
	int		 size_ok = 1;

	for (K = 1; K < BT * BN; K++) {
		m = 0;
		for (a = 0; a <= BN; a++)
			for (b = 0; b <= BN; b++)
				for (d = 0; d <= BN; d++) {
					int e4 = K - a - b - d;

					if (e4 < 0 || e4 > BN)
						continue;
					k[0] = a;
					k[1] = b;
					k[2] = d;
					k[3] = e4;
					pr = exp(lchoose(BN, a) + lchoose(BN, b) +
					    lchoose(BN, d) + lchoose(BN, e4) -
					    lchoose(BT * BN, K));
					if (stats_cpt_scan(k, n, 0, BT,
					    STATS_CPT_BINOMIAL, 1, HUGE_VAL,
					    &c) == -1)
						return;
					prs[m] = pr;
					ps[m++] = c.p;
					pmin_ok &= c.pmin <= c.p + 1e-15;
				}
		size05 = size10 = 0;
		for (i = 0; i < m; i++) {
			for (j = 0, tail = 0; j < m; j++)
				if (ps[j] <= ps[i])
					tail += prs[j];
			bound_ok &= tail <= ps[i] + 1e-12;
			size05 += ps[i] <= 0.05 ? prs[i] : 0;
			size10 += ps[i] <= 0.10 ? prs[i] : 0;
		}
		size_ok &= size05 <= 0.05 + 1e-12 && size10 <= 0.10 + 1e-12;
	}
	CHECK(bound_ok);
	CHECK(pmin_ok);
	CHECK(size_ok);
}

static void
test_level(void)
{
	double	 est, lo, hi;

	/* Wilson, 5 of 10 at 95%: 0.2366 to 0.7634. */
	CHECK(stats_cpt_level(5, 10, STATS_CPT_BINOMIAL, 1, HUGE_VAL, 0.05,
	    &est, &lo, &hi) == 0);
	TOL(est, 0.5, 1e-12);
	TOL(lo, 0.236593, 1e-5);
	TOL(hi, 0.763407, 1e-5);
	/* Poisson score, 10 in 1 s: 10 + z^2/2 -+ z sqrt(10 + z^2/4). */
	CHECK(stats_cpt_level(10, 1, STATS_CPT_POISSON, 1, HUGE_VAL, 0.05,
	    &est, &lo, &hi) == 0);
	TOL(lo, 10 + 1.959964 * 1.959964 / 2 - 1.959964 * sqrt(10 +
	    1.959964 * 1.959964 / 4), 1e-5);
	TOL(hi, 10 + 1.959964 * 1.959964 / 2 + 1.959964 * sqrt(10 +
	    1.959964 * 1.959964 / 4), 1e-5);
	/* At dispersion 4 the interval is that of 2.5 of 5 at 95%. */
	CHECK(stats_cpt_level(10, 20, STATS_CPT_BINOMIAL, 4, HUGE_VAL, 0.05,
	    &est, &lo, &hi) == 0);
	TOL(est, 0.5, 1e-12);
	CHECK(lo < 0.2366 && hi > 0.7634);
	CHECK(stats_cpt_level(11, 10, STATS_CPT_BINOMIAL, 1, HUGE_VAL, 0.05,
	    &est, &lo, &hi) == -1);
}

int
main(void)
{
	test_lr();
	test_scan();
	test_rates();
	test_null_exact();
	test_level();
	return tap_done();
}

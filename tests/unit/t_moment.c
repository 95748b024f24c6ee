/*
 * Tests of stats_moment.c: the delta-method intervals of value-weighted
 * shares, rates and values per count.  Each is checked by simulation:
 * 2000 pairs of windows drawn with a known true difference, and the
 * share of intervals that hold it must be within three binomial
 * standard errors of 1 - alpha; every interval must hold its own
 * estimate.  The draws come from a fixed seed, so the run is the same
 * every time.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stats/stats.h"
#include "tap.h"

#define REPS	2000

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static double
unif(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	/* (0, 1): never 0, so that log() is finite */
	return ((double)((rng * 2685821657736338717ULL) >> 11) + 0.5) /
	    9007199254740992.0;
}

static double
expo(double mean)
{
	return -mean * log(unif());
}

static void
add(struct stats_vsum *s, double v, double c)
{
	s->v += v;
	s->c += c;
	s->vv += v * v;
	s->vc += v * c;
	s->cc += c * c;
}

/* Is the coverage of hits in REPS within 3 standard errors of 1 - alpha? */
static int
covers(long hits, double alpha)
{
	double	 cov = (double)hits / REPS;
	double	 se = sqrt(alpha * (1 - alpha) / REPS);

	printf("# coverage %.4f, want %.4f +- %.4f\n", cov, 1 - alpha, 3 * se);
	return fabs(cov - (1 - alpha)) <= 3 * se;
}

/*
 * One window of n events: an event is the node's with probability p,
 * its value exponential of mean mn, else of mean mo.  The true share of
 * the value is p mn / (p mn + (1 - p) mo).
 */
static void
share_window(int n, double p, double mn, double mo, struct stats_vsum *node,
    struct stats_vsum *total)
{
	double	 v;
	int	 i;

	memset(node, 0, sizeof(*node));
	memset(total, 0, sizeof(*total));
	for (i = 0; i < n; i++) {
		if (unif() < p) {
			v = expo(mn);
			add(node, v, 1);
		} else
			v = expo(mo);
		add(total, v, 1);
	}
}

static void
test_share(double alpha)
{
	struct stats_vsum n1, t1, n2, t2;
	struct stats_vci ci;
	double		 r1 = 0.2 * 3 / (0.2 * 3 + 0.8 * 1);
	double		 r2 = 0.25 * 4 / (0.25 * 4 + 0.75 * 1);
	long		 hits = 0, inside = 0, fail = 0;
	int		 k;

	for (k = 0; k < REPS; k++) {
		share_window(1500, 0.2, 3, 1, &n1, &t1);
		share_window(1500, 0.25, 4, 1, &n2, &t2);
		if (stats_vshare_diff(&n1, &t1, &n2, &t2, alpha, &ci) == -1) {
			fail++;
			continue;
		}
		hits += ci.lo <= r2 - r1 && r2 - r1 <= ci.hi;
		inside += ci.lo <= ci.est && ci.est <= ci.hi &&
		    fabs(ci.est - (n2.v / t2.v - n1.v / t1.v)) < 1e-12;
	}
	CHECK_INT(fail, 0);
	CHECK_INT(inside, REPS);
	CHECK(covers(hits, alpha));
}

/*
 * A window of t seconds of a Poisson process of rate lambda, each
 * event's value exponential of mean m: the rate of the value is lambda
 * m, and its sum a compound Poisson sum.
 */
static void
rate_window(double t, double lambda, double m, struct stats_vsum *s)
{
	double	 at = 0;

	memset(s, 0, sizeof(*s));
	for (;;) {
		at += expo(1 / lambda);
		if (at > t)
			break;
		add(s, expo(m), 1);
	}
}

static void
test_rate(double alpha)
{
	struct stats_vsum s1, s2;
	struct stats_vci ci;
	double		 truth = 120 * 5e6 - 100 * 4e6;	/* per second */
	long		 hits = 0, inside = 0, fail = 0;
	int		 k;

	for (k = 0; k < REPS; k++) {
		rate_window(10, 100, 4e6, &s1);	/* 10 s at 100 events/s */
		rate_window(5, 120, 5e6, &s2);	/* 5 s, a shorter window */
		if (stats_vrate_diff(&s1, 10, &s2, 5, alpha, &ci) == -1) {
			fail++;
			continue;
		}
		hits += ci.lo <= truth && truth <= ci.hi;
		inside += ci.lo <= ci.est && ci.est <= ci.hi;
	}
	CHECK_INT(fail, 0);
	CHECK_INT(inside, REPS);
	CHECK(covers(hits, alpha));
}

/*
 * n allocations of 1 to 4 objects each (uniformly), each object of a
 * size 16 + exponential(mean): bytes per object is 16 + mean.
 */
static void
ratio_window(int n, double mean, struct stats_vsum *s)
{
	double	 c, v;
	int	 i, j;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		c = 1 + (int)(4 * unif());
		for (v = 0, j = 0; j < c; j++)
			v += 16 + expo(mean);
		add(s, v, c);
	}
}

static void
test_ratio(double alpha)
{
	struct stats_vsum s1, s2;
	struct stats_vci ci, c1, c2;
	long		 hits = 0, hits1 = 0, inside = 0, fail = 0;
	int		 k;

	for (k = 0; k < REPS; k++) {
		ratio_window(800, 100, &s1);
		ratio_window(600, 130, &s2);
		if (stats_vratio_diff(&s1, &s2, alpha, &ci) == -1 ||
		    stats_vratio(&s1, alpha, &c1) == -1 ||
		    stats_vratio(&s2, alpha, &c2) == -1) {
			fail++;
			continue;
		}
		hits += ci.lo <= 30 && 30 <= ci.hi;
		hits1 += c1.lo <= 116 && 116 <= c1.hi;
		inside += ci.lo <= ci.est && ci.est <= ci.hi &&
		    c1.lo <= c1.est && c1.est <= c1.hi &&
		    fabs(ci.est - (c2.est - c1.est)) < 1e-9 &&
		    fabs(ci.se * ci.se - c1.se * c1.se - c2.se * c2.se) <=
		    1e-9 * ci.se * ci.se;
	}
	CHECK_INT(fail, 0);
	CHECK_INT(inside, REPS);
	CHECK(covers(hits, alpha));
	CHECK(covers(hits1, alpha));
}

/* The formulas on numbers worked by hand, and the refusals. */
static void
test_exact(void)
{
	struct stats_vsum n1 = { 2, 0, 4, 0, 0 }, t1 = { 4, 0, 6, 0, 0 };
	struct stats_vsum n2 = { 3, 0, 9, 0, 0 }, t2 = { 3, 0, 9, 0, 0 };
	struct stats_vsum r = { 10, 4, 30, 11, 5 }, bad;
	struct stats_vci ci;
	double		 z = stats_norm_quantile(0.975);

	/*
	 * Base: events 2, 1, 1, node = the first: r = 1/2, var = (4 (1 -
	 * 1) + 6/4) / 16 = 3/32.  New: all the node's: r = 1, var = (9 (1
	 * - 2) + 9) / 9 = 0.
	 */
	CHECK(stats_vshare_diff(&n1, &t1, &n2, &t2, 0.05, &ci) == 0);
	CHECK_NEAR(ci.est, 0.5, 1e-15);
	CHECK_NEAR(ci.se, sqrt(3.0 / 32), 1e-15);
	CHECK_NEAR(ci.hi - ci.est, z * sqrt(3.0 / 32), 1e-14);
	CHECK_NEAR(ci.est - ci.lo, z * sqrt(3.0 / 32), 1e-14);
	/* rates: var = vv / t^2 */
	CHECK(stats_vrate_diff(&n1, 2, &n2, 3, 0.05, &ci) == 0);
	CHECK_NEAR(ci.est, 0, 1e-15);
	CHECK_NEAR(ci.se, sqrt(4.0 / 4 + 9.0 / 9), 1e-15);
	/* ratio: R = 2.5, var = (30 - 5 * 11 + 6.25 * 5) / 16 */
	CHECK(stats_vratio(&r, 0.05, &ci) == 0);
	CHECK_NEAR(ci.est, 2.5, 1e-15);
	CHECK_NEAR(ci.se, sqrt(6.25 / 16), 1e-15);

	CHECK(stats_vshare_diff(&n1, &t1, &n2, &t2, 0, &ci) == -1);
	CHECK(stats_vshare_diff(&n1, &t1, &n2, &t2, NAN, &ci) == -1);
	bad = t1;
	bad.v = 0;
	CHECK(stats_vshare_diff(&n1, &bad, &n2, &t2, 0.05, &ci) == -1);
	bad = n1;
	bad.vv = -1;
	CHECK(stats_vshare_diff(&bad, &t1, &n2, &t2, 0.05, &ci) == -1);
	bad.vv = INFINITY;
	CHECK(stats_vrate_diff(&bad, 1, &n2, 1, 0.05, &ci) == -1);
	CHECK(stats_vrate_diff(&n1, 0, &n2, 1, 0.05, &ci) == -1);
	CHECK(stats_vrate_diff(&n1, 1, &n2, NAN, 0.05, &ci) == -1);
	bad = r;
	bad.c = 0;
	CHECK(stats_vratio(&bad, 0.05, &ci) == -1);
	CHECK(stats_vratio_diff(&r, &bad, 0.05, &ci) == -1);
	CHECK(stats_vratio(&r, 1, &ci) == -1);
}

int
main(void)
{
	test_exact();
	test_share(0.05);
	test_share(0.2);
	test_rate(0.05);
	test_ratio(0.05);
	return tap_done();
}

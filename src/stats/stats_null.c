/*
 * One profile a side: how much more than sampling two processes differ,
 * read from the functions themselves (an empirical null, in Efron's
 * sense).
 *
 * Two processes of the same program do not spend the same share of
 * their time in a function even when nothing changed: the JIT inlines a
 * callee in one and not in the other, the collector runs at other
 * moments, the input differs a little.  Between replicates the runs of
 * each side show how much (stats_disp.c).  With one profile a side
 * there are no runs, but there are many functions, and almost all of
 * them did not change: the spread of their changes is the spread of
 * no change.
 *
 * The model: side s draws a function's share as p e^(u_s), u_s normal
 * with variance tau2, independently per side, and then its count
 * binomially.  On the log scale a function's change y = log(p2^ / p1^)
 * has variance v + 2 tau2, with v = (1 - p1^) / k1 + (1 - p2^) / k2 from
 * sampling.
 * Each function with STATS_NULL_MINCOUNT samples or more (fewer say
 * nothing of tau2 against their own v), and some on each side, gives a standardized square
 * z^2 = (y - m)^2 / (v + 2 tau2) around m, the median change (which
 * absorbs what moves every share at once: another function's growth
 * crowding them out, or a change of the total rate).  Were tau2 right,
 * z^2 would be chi-square with 1 df; tau2 is the value that makes the
 * mean of the smallest 90% of the z^2 what it is for that chi-square,
 * 0.6230, and 0 when sampling alone spreads them that far.  Leaving the
 * largest tenth out lets a few functions that did change not count as
 * spread, as a mean of all (DerSimonian and Laird's estimator) would;
 * keeping the rest keeps most of the information (the median alone has
 * half as many degrees of freedom) and the wilder functions of a
 * program that has some (memmove's share differs threefold between Go
 * processes that differ in nothing else).
 *
 * A tenth is too few when more of the functions than that moved far (a
 * saturated process: five of 21 moved six- to twelvefold, and three of
 * them left in made the spread 89%).  So the values are screened first:
 * around the centre of their densest half (least trimmed squares'
 * location), at the spread that half shows, those beyond chi-square's
 * one in a thousand are far out; if they are more than a tenth (and
 * fewer than half), and a group apart (twice as far as any other), the
 * spread is read from the others alone, trimmed by the same tenth.
 * Otherwise nothing changes.
 *
 * A function of pooled share p then has variance p (1 - p)(1/n1 + 1/n2)
 * from sampling and 2 tau2 (p (1 - p))^2 from the processes (the
 * logistic form of the same model, which keeps a share near 1 bounded),
 * so that its test is quasi-binomial at
 *
 *	phi = 1 + 2 tau2 p (1 - p) / (1/n1 + 1/n2),
 *
 * near 1 for a function of a few samples, whose sampling noise is
 * larger than any process's difference, and large for a function of a
 * third of the profile, whose few points of difference between two
 * processes sampling alone could not explain.  That is the shape of the
 * false alarms a constant phi misses: the large functions' (t_stats.c
 * checks it by simulation).
 *
 * That is for one unit, a function's own samples.  A function with its
 * callees (its cum) sums units that vary apart, each by its own e^u: its
 * share varies by tau2 times the sum of its units' squared shares, not
 * the square of their sum.  Which units it holds the counts do not say;
 * taken as units of the profile's typical size, conc = sum p_i^2 /
 * sum p_i over all of them (the share of the unit a sample drawn at
 * random falls in), the sum is p conc, so a cum hypothesis has
 *
 *	phi = 1 + 2 tau2 min(p (1 - p), conc) / (1/n1 + 1/n2),
 *
 * its unit's when it is smaller than a typical unit.  Without that, a
 * function of half the profile was judged as if it were one unit that
 * could move by tens of points, and a real change of it went unseen.
 *
 * tau2 is itself estimated, from n functions: that trimmed mean of n
 * chi-square values, centred on their median, varies as a chi-square of
 * about 0.75 n degrees of freedom does (by simulation: 0.745 n at
 * n = 10, 0.74 n at 25, 0.77 n at 60).  Only the part phi - 1 of a
 * test's variance is estimated; the binomial 1 is known.  By Welch and
 * Satterthwaite the test's df is that df times (phi / (phi - 1))^2: the
 * estimate's own for the largest functions, no limit for the smallest.
 *
 * Pure math: no I/O, no allocation (the caller gives the scratch).
 */

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats/stats.h"

/*
 * The mean of the smallest 90% of chi-square values of 1 df: E[X; X < q]
 * / 0.9 at q = 2.7055, the 90th percentile, and E[X; X < q] is P(chi2(3)
 * < q), erf(sqrt(q / 2)) - sqrt(2 q / pi) e^(-q / 2).
 */
#define TRIM_KEEP	0.9
#define PI		3.14159265358979323846
#define CHI2_1_TRIMMED	0.6230154841346838

/* chi-square of 1 df beyond this once in a thousand */
#define OUTLIER_Z2	10.827566170662733
/* the far-out nearest the centre at least this much farther than the rest */
#define OUTLIER_GAP	2



/*
 * Put the k-th smallest of x[0..n) at x[k], the smaller before it and
 * the larger after (Hoare's selection, median of three): a bisection
 * step in time linear in the functions, where a sort took a tenth of a
 * large diff's time.
 */
static void
select_k(double *x, size_t n, size_t k)
{
	size_t	 lo = 0, hi = n - 1, i, j;
	double	 p, t;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x[mid] < x[lo]) { t = x[mid]; x[mid] = x[lo]; x[lo] = t; }
		if (x[hi] < x[lo]) { t = x[hi]; x[hi] = x[lo]; x[lo] = t; }
		if (x[hi] < x[mid]) { t = x[hi]; x[hi] = x[mid]; x[mid] = t; }
		p = x[mid];
		i = lo;
		j = hi;
		while (i <= j) {
			while (x[i] < p)
				i++;
			while (x[j] > p)
				j--;
			if (i <= j) {
				t = x[i];
				x[i] = x[j];
				x[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
}

/* The median of x[0..n), n > 0, reordering x: by selection, not a sort. */
static double
median(double *x, size_t n)
{
	double	 below;
	size_t	 i;

	select_k(x, n, n / 2);
	if (n % 2)
		return x[n / 2];
	for (below = x[0], i = 1; i < n / 2; i++)
		if (x[i] > below)
			below = x[i];
	return (below + x[n / 2]) / 2;
}

/*
 * The mean of the smallest TRIM_KEEP of the z^2 at tau2, in z[] (n of
 * them), the last one counted by the fraction of it that TRIM_KEEP n
 * takes (whole values alone would bias it by up to a tenth at 25
 * functions).  Each z^2 falls as tau2 grows, and so does the smallest
 * sum of any k of them: the bisection's function is monotone.
 */
static double
trimmed_z2(const double *y, const double *v, size_t n, double m, double tau2,
    double keep, double *z)
{
	double	 sum = 0;
	size_t	 i, k = (size_t)keep;

	for (i = 0; i < n; i++)
		z[i] = (y[i] - m) * (y[i] - m) / (v[i] + 2 * tau2);
	if (k < n) {
		select_k(z, n, k);
		sum = (keep - (double)k) * z[k];
	}
	for (i = 0; i < k; i++)
		sum += z[i];
	return sum / keep;
}

/*
 * What the mean of the smallest fraction f of chi-square values of 1 df
 * is: E[X; X < q] / f at q, the f quantile, and E[X; X < q] is P(chi2(3)
 * < q) (CHI2_1_TRIMMED at f = 0.9, 1 at f = 1).
 */
static double
chi2_1_trimmed(double f)
{
	double	 q, z;

	if (f >= 1)
		return 1;
	z = stats_norm_quantile((1 + f) / 2);
	q = z * z;
	return (erf(sqrt(q / 2)) - sqrt(2 * q / PI) * exp(-q / 2)) / f;
}

int
stats_null(const int64_t *k1, int64_t n1, const int64_t *k2, int64_t n2,
    size_t m, double *scratch, struct stats_null *r)
{
	return stats_null_trim(k1, n1, k2, n2, m, -1, HUGE_VAL, scratch, r);
}

/*
 * The tau2 at which the mean of the smallest keep of the z^2 is target,
 * into *tau2; 1 if it lies above cap (and *tau2 is cap), else 0.
 */
static int
solve_tau2(const double *y, const double *v, size_t n, double c, double keep,
    double target, double cap, double *z, double *tau2)
{
	double	 lo = 0, hi = 1, mid, glo, ghi, gm;
	size_t	 it;
	int	 side = 0;

	*tau2 = 0;
	if ((glo = trimmed_z2(y, v, n, c, 0, keep, z) - target) <= 0)
		return 0;
	/*
	 * The mean falls as tau2 grows: above zero at cap, the root is
	 * above it, and a caller that asked only whether it is below learns
	 * that from one reading instead of a search's dozen.
	 */
	if (cap < HUGE_VAL && trimmed_z2(y, v, n, c, cap, keep, z) -
	    target > 0) {
		*tau2 = cap;
		return 1;
	}
	while ((ghi = trimmed_z2(y, v, n, c, hi, keep, z) - target) > 0)
		if ((hi *= 2) > 1e6) {
			ghi = trimmed_z2(y, v, n, c, hi, keep, z) - target;
			break;
		}
	/*
	 * The root, by false position with Illinois' halving (the mean
	 * falls smoothly between the points where the kept set changes):
	 * a dozen readings where bisection took sixty, each O(n).
	 */
	for (it = 0; it < 100 && hi - lo > 1e-12 * hi; it++) {
		mid = glo - ghi > 0 ? hi - ghi * (hi - lo) / (ghi - glo) :
		    (lo + hi) / 2;
		if (!(mid > lo && mid < hi))
			mid = (lo + hi) / 2;
		gm = trimmed_z2(y, v, n, c, mid, keep, z) - target;
		if (gm > 0) {
			lo = mid;
			glo = gm;
			if (side > 0)
				ghi /= 2;
			side = 1;
		} else {
			hi = mid;
			ghi = gm;
			if (side < 0)
				glo /= 2;
			side = -1;
		}
	}
	*tau2 = hi;
	return 0;
}

static int
cmp_dbl(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The centre of the densest half of the n values z[], in order: the
 * mean of the ceil(n / 2) consecutive ones of least spread, least
 * trimmed squares' location.  The median is where half lie on each
 * side, and a quarter of the functions changed one way pull it a
 * quarter of the way into the changes; the densest half stays among
 * the functions that did not change.
 */
static double
dense_centre(const double *z, size_t n)
{
	double	 s = 0, q = 0, best = HUGE_VAL, at = 0, ss;
	size_t	 h = (n + 1) / 2, i;

	for (i = 0; i < n; i++) {
		s += z[i];
		q += z[i] * z[i];
		if (i + 1 < h)
			continue;
		if (i + 1 > h) {
			s -= z[i - h];
			q -= z[i - h] * z[i - h];
		}
		ss = q - s * s / (double)h;
		if (ss < best) {
			best = ss;
			at = s / (double)h;
		}
	}
	return at;
}

/*
 * How many of the n values y[] to read the spread from, and the centre
 * to read them around (*c, the median of all on entry; z[] holds the
 * values in order, and is scratch after).  All n, unless more
 * than a tenth of them are far out, beyond OUTLIER_Z2 of the densest
 * half's centre at the spread that half shows, and apart, the nearest
 * of them OUTLIER_GAP times as far from that centre as the farthest of
 * the others: then those others, if they are more than half, around
 * their median.  (A trim budget below a tenth, spread.c's, does not
 * make one far-out function a change.)
 *
 * The tenth trimmed holds a few changes; a change that moved more of
 * the units than that (a saturated process: the changed function, its
 * callees, and a second function whose work grew with it, five of
 * twenty-one) widened the spread until the change itself was inside it.
 * The gap tells such a group from the processes' own differences, a
 * continuum with heavy tails (a JIT's choices, a collector's moments):
 * in the runtimes corpus, no-change pairs one a side with that many far
 * out had the nearest of them 0.2 to 1.2 times as far as the farthest
 * of the rest in CPU and wall profiles, up to 1.8 on live heaps; the
 * saturated Node.js pairs, 1.0 to 5.7.
 */
static size_t
screened(const double *y, const double *v, size_t n, double *c,
    double keep, double *z)
{
	double	 half = 0.5 * (double)n, t, d, dc, inmax = 0, outmin = HUGE_VAL;
	size_t	 i, in = 0;

	if (keep <= half)
		return n;
	dc = dense_centre(z, n);
	solve_tau2(y, v, n, dc, half, chi2_1_trimmed(0.5), HUGE_VAL, z, &t);
	for (i = 0; i < n; i++) {
		d = y[i] - dc;
		if (d * d <= OUTLIER_Z2 * (v[i] + 2 * t)) {
			z[in++] = y[i];
			inmax = fmax(inmax, fabs(d));
		} else
			outmin = fmin(outmin, fabs(d));
	}
	if ((double)in >= TRIM_KEEP * (double)n || (double)in <= half ||
	    outmin < OUTLIER_GAP * inmax)
		return n;
	*c = median(z, in);
	return in;
}

int
stats_null_trim(const int64_t *k1, int64_t n1, const int64_t *k2, int64_t n2,
    size_t m, double trim, double cap, double *scratch, struct stats_null *r)
{
	double	*y, *v, *z, c, q, sq = 0, sum = 0, keep, target, planned;
	size_t	 i, n = 0, in;

	if (r == NULL || (m > 0 && (k1 == NULL || k2 == NULL ||
	    scratch == NULL)) || n1 < 0 || n2 < 0 || n1 > STATS_MAX_N ||
	    n2 > STATS_MAX_N)
		return -1;
	r->tau2 = 0;
	r->n = 0;
	r->df = HUGE_VAL;
	r->conc = 0;
	if (n1 == 0 || n2 == 0)
		return 0;
	y = scratch;
	v = scratch + m;
	z = scratch + 2 * m;
	for (i = 0; i < m; i++) {
		if (k1[i] < 0 || k2[i] < 0 || k1[i] > n1 || k2[i] > n2)
			return -1;
		q = ((double)k1[i] / (double)n1 + (double)k2[i] / (double)n2) / 2;
		sq += q * q;
		sum += q;
		/*
		 * Too few to say, or present on one side only: code that ran
		 * in one process and not at all in the other is a change of
		 * what ran (new code, or code the JIT inlined in one of
		 * them), not a share that varied, and a change that spreads
		 * into many new functions would otherwise be taken for
		 * spread.
		 */
		if (k1[i] + k2[i] < STATS_NULL_MINCOUNT || k1[i] == 0 ||
		    k2[i] == 0)
			continue;
		/* Half a sample on each, so that a side's 0 is a number. */
		y[n] = log((k2[i] + 0.5) / (double)n2) -
		    log((k1[i] + 0.5) / (double)n1);
		v[n] = (1 - (double)k1[i] / (double)n1) / (k1[i] + 0.5) +
		    (1 - (double)k2[i] / (double)n2) / (k2[i] + 0.5);
		n++;
	}
	r->conc = sum > 0 ? sq / sum : 0;
	r->n = n;
	if (n < STATS_NULL_MINUNITS)
		return 0;
	/* The smallest TRIM_KEEP of them, or all but trim. */
	if (trim < 0)
		planned = TRIM_KEEP * (double)n;
	else
		planned = trim < (double)n ? (double)n - trim : 1;
	for (i = 0; i < n; i++)
		z[i] = y[i];
	qsort(z, n, sizeof(*z), cmp_dbl);
	c = n % 2 ? z[n / 2] : (z[n / 2 - 1] + z[n / 2]) / 2;
	target = trim < 0 ? CHI2_1_TRIMMED : chi2_1_trimmed(planned /
	    (double)n);
	/*
	 * Those screened out are the largest z^2 at any spread near the
	 * kept ones', so the smallest keep of all n are the smallest of the
	 * kept, trimmed by the same fraction.
	 */
	in = screened(y, v, n, &c, planned, z);
	keep = planned * (double)in / (double)n;
	if (solve_tau2(y, v, n, c, keep, target, cap, z, &r->tau2) == 0 &&
	    r->tau2 == 0)
		return 0;
	r->df = STATS_NULL_DF_PER_UNIT * (double)in;
	return 0;
}

double
stats_null_phi(const struct stats_null *r, int64_t K, int64_t n1, int64_t n2,
    int cum)
{
	double	p, phi, u;

	if (r == NULL || !(r->tau2 > 0) || n1 <= 0 || n2 <= 0 || K <= 0)
		return 1;
	p = (double)K / ((double)n1 + (double)n2);
	if (p >= 1)
		return 1;
	u = p * (1 - p);
	if (cum && r->conc < u)
		u = r->conc;
	phi = 1 + 2 * r->tau2 * u / (1 / (double)n1 + 1 / (double)n2);
	return phi < STATS_NULL_PHI_EXACT ? 1 : phi;
}

double
stats_null_df(const struct stats_null *r, double phi)
{
	double	df;

	if (r == NULL || !(phi > 1) || r->df == HUGE_VAL)
		return HUGE_VAL;
	df = r->df * (phi / (phi - 1)) * (phi / (phi - 1));
	/*
	 * Beyond STATS_NULL_DF_NORMAL, Student's t is the normal to a
	 * fraction of a percent of any p-value a family can use (at z = 5,
	 * their tails differ by z^4 / 4 df of themselves), and costs an
	 * incomplete beta function a test.
	 */
	return df > STATS_NULL_DF_NORMAL ? HUGE_VAL : df;
}

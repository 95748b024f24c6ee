/*
 * Several profiles per side: their pooled counts tested at a dispersion
 * shared across functions.  Each function's Pearson estimate from the
 * spread of its runs, the prior that pools those estimates (a trend,
 * and Smyth's degrees of freedom), each function's moderated posterior,
 * and the quasi-binomial test and minimum p-value at it.  The essay
 * below gives the model; the counts' probabilities and p-values are
 * stats.c's, t and the gamma functions stats_dist.c's.
 *
 * Pure math, as stats.c says: no I/O, no allocation, no state.
 */

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"
#include "stats/stats_int.h"

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
 * small functions would hide.  The p-value is reported, and decides
 * nothing.  profdiff once took phi = 1 (Fisher's test on the pooled
 * counts, bit for bit) whenever this test did not reject at 0.05; but
 * a test that fails to reject is not runs that agree.  A Go mutex
 * profile has a handful of functions, so the test has few df: of 50
 * no-change pairs of three mutex runs a side (tests/types.sh), it did
 * not reject in 10, where the other 40 showed dispersions of 1.6 to
 * 2.9, and 6 of the 8 pairs with a finding were among those 10.  Busy
 * CPU runs (tests/real.sh, 3 a side) exited 1 in 7 of 100.  Testing at
 * the estimate always, they are 4 of 50 and 5 of 100, and the CPU
 * power is as before (inner10, 3 a side, 99 of 100).  What it
 * costs is measured where phi is exactly 1, which real runs never
 * quite are: with 2 runs a side of 300 samples, t_stats.c finds 73 of
 * 219 changes where Fisher on the pooled counts finds 92; with 3 and 5
 * runs, 96% to 99% of Fisher's.  Only when no function has the samples
 * a run to show a spread (n = 0 below) is phi 1 and the test Fisher's.
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
 * df but to no more than the prior's sum of df, from which the trend
 * itself is estimated (with d0 infinite, phi~ is the trend, known to
 * that sum), floored at 1 since the runs cannot vary less than sampling
 * makes them.  Flooring changes phi~, not what is known about it: a function
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

/* The prior's trend c + b v at a run's binomial variance v. */
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
	pr->binomial = n == 0;
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
	/*
	 * The trend is itself estimated, from the runs of all the
	 * functions: what is known about phi is at most their df.
	 */
	if (!pr->binomial && pr->df > 0 && d > pr->df)
		d = pr->df;
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
stats_disp_p(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double phi,
    double df, enum stats_alt alt, struct stats_result *r)
{
	double	N, K, V, d;

	if (!valid_count(k1, n1) || !valid_count(k2, n2) || !valid_alt(alt) ||
	    !valid_phi(phi, df) || r == NULL)
		return -1;
	if ((phi <= 1 && df == HUGE_VAL) || n1 == 0 || n2 == 0) {
		counts_test(k1, n1, k2, n2, r);
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
	r->lo = -1;
	r->hi = 1;
	return 0;
}

int
stats_disp_interval(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
    double phi, double df, double alpha, double *lo, double *hi)
{
	if (!valid_count(k1, n1) || !valid_count(k2, n2) ||
	    !valid_alpha(alpha) || !valid_phi(phi, df) || lo == NULL ||
	    hi == NULL)
		return -1;
	if (n1 == 0 || n2 == 0) {
		*lo = -1;
		*hi = 1;
	} else if (phi <= 1 && df == HUGE_VAL)
		newcombe(k1, n1, k2, n2, z_half(alpha), lo, hi);
	else {
		phi = fmax(phi, 1);
		newcombe(k1 / phi, n1 / phi, k2 / phi, n2 / phi,
		    t_upper(alpha / 2, df), lo, hi);
	}
	return 0;
}

int
stats_disp_test(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double phi,
    double df, double alpha, enum stats_alt alt, struct stats_result *r)
{
	if (!valid_alpha(alpha) || stats_disp_p(k1, n1, k2, n2, phi, df, alt,
	    r) == -1)
		return -1;
	if (r->method == STATS_UNTESTABLE)
		return 0;
	return stats_disp_interval(k1, n1, k2, n2, phi, df, alpha, &r->lo,
	    &r->hi);
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

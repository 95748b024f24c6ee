/*
 * The continuous distributions the statistics need, each to about full
 * double precision: the standard normal (its quantile is Wichura's
 * AS 241), Student's t and the regularized incomplete beta function it
 * is built on, digamma, trigamma and the inverse of trigamma, and the
 * upper tail of chi^2 through the incomplete gamma function.  libm has
 * none of them but erfc(3), on which the normal is built; log-gamma is
 * stats.c's lgam(), since lgamma(3) writes signgam.
 *
 * Pure math, as stats.c says: no I/O, no allocation, no state.
 */

#include <float.h>
#include <math.h>

#include "stats/stats.h"
#include "stats/stats_int.h"

/* log(pi). */
#define LN_PI		1.144729885849400174143427351353

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
#define T_CF_DF		2000

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
double
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

/* log of t's density at 0, the part of its log-density t does not move. */
static double
t_lpdf0(double df)
{
	return lgam((df + 1) / 2) - lgam(df / 2) - 0.5 * (log(df) + LN_PI);
}

double
stats_t_cdf(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	return t >= 0 ? 1 - t_sf(t, df) : t_sf(-t, df);
}

/*
 * The Cornish-Fisher expansion of t's quantile in 1 / nu about the
 * normal's z (Abramowitz and Stegun 26.7.5), to its fourth term.
 */
static double
t_cornish_fisher(double z, double df)
{
	double	f = z * z;

	return z + z * (f + 1) / (4 * df) +
	    z * ((5 * f + 16) * f + 3) / (96 * df * df) +
	    z * (((3 * f + 19) * f + 17) * f - 15) / (384 * df * df * df) +
	    z * ((((79 * f + 776) * f + 1482) * f - 1920) * f - 945) /
	    (92160 * df * df * df * df);
}

/*
 * The t quantile: the t >= 0 with P(T > t) = q, for 0 < q <= 1/2, by
 * Newton's method on log P(T > t), whose derivative is -pdf / sf,
 * safeguarded by a bracket [lo, hi] and bisection whenever a step
 * leaves it.  Nu = 1 and 2 have closed forms, used as checks in the
 * tests rather than here.
 *
 * With many degrees of freedom, the Cornish-Fisher expansion is the
 * quantile to a part in 1e11 of its tail at nu = 2000 and z = 6
 * (t_stats), without the search and its incomplete beta functions,
 * which a family with a dispersion of one profile a side (stats_null.c)
 * asks for once a hypothesis.  Below, it is the search's start from
 * T_CF_START_DF on (there, at z = 6, it is within a part in 1e4), and
 * the first term alone below that, where the later terms grow instead.
 * The bracket's upper end is unknown until a step overshoots: a step
 * from below that would leave it doubles t instead.  Newton's steps
 * double the digits right: once a step is under T_STEP_DONE of t, the
 * next one's would be under its square, and the search stops there, one
 * incomplete beta function sooner (a bisection's step stops it only at
 * the last bits).
 */
#define T_CF_START_DF	8
#define T_STEP_DONE	1e-8

double
t_upper(double q, double df)
{
	double	lo = 0, hi = HUGE_VAL, t, tn, z, lq = log(q), sf, l0, done;
	int	i;

	if (q >= 0.5)
		return 0;
	if (df > T_NORMAL_DF)
		return -stats_norm_quantile(q);
	z = -stats_norm_quantile(q);
	if (df >= T_CF_DF)
		return t_cornish_fisher(z, df);
	t = df >= T_CF_START_DF ? t_cornish_fisher(z, df) :
	    z + (z * z * z + z) / (4 * df);
	l0 = t_lpdf0(df);
	for (i = 0; i < 400; i++) {
		sf = t_sf(t, df);
		if (sf > q)
			lo = t;
		else
			hi = t;
		done = 4 * DBL_EPSILON;
		if (sf <= 0)
			tn = lo + (hi - lo) / 2;
		else {
			tn = t + (log(sf) - lq) * sf /
			    exp(l0 - (df + 1) / 2 * log1p(t * t / df));
			done = T_STEP_DONE;
		}
		if (!(tn > lo && tn < hi)) {
			tn = hi == HUGE_VAL ? 2 * t + 1 : lo + (hi - lo) / 2;
			done = 4 * DBL_EPSILON;
		}
		if (fabs(tn - t) <= done * tn)
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

double
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

double
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
double
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

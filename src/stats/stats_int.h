/*
 * What the files of the statistics room share, and no other file may
 * see: the checks of arguments every public function makes, and the
 * pieces of one file's math that another file's is built on.  Only
 * src/stats*.c include this header; the API is stats.h.
 *
 * The small helpers are static inline, so that each file compiles them
 * into its loops as it did when the room was one file (tail_ratios()
 * in stats.c and joint_sum() in stats_power.c call ratio_up() once a
 * term).  The rest are ordinary functions whose comments are where
 * they are defined.  Their names carry no stats_ prefix, since they are
 * no part of the API; a clash with another file's global name would
 * fail the link.
 *
 * Pure math, as stats.c says: no I/O, no allocation, no state.
 */
#ifndef STATS_INT_H
#define STATS_INT_H

#include <stdint.h>

#include "stats/stats.h"

static inline int
valid_count(int64_t k, int64_t n)
{
	return n >= 0 && n <= STATS_MAX_N && k >= 0 && k <= n;
}

static inline int
valid_alpha(double a)
{
	return a > 0 && a < 1;		/* false for NaN as well */
}

static inline int
valid_alt(enum stats_alt alt)
{
	return alt == STATS_TWO_SIDED || alt == STATS_GREATER ||
	    alt == STATS_LESS;
}

static inline double
clamp(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* z(1 - alpha/2), computed from the small tail for precision. */
static inline double
z_half(double alpha)
{
	return -stats_norm_quantile(alpha / 2);
}

/*
 * The hypergeometric distribution of stats.c's Fisher's test (x of the
 * K marked items in the group of n1, the rest in the group of n2):
 * P(y + 1) / P(y).
 */
static inline double
ratio_up(double y, double n1, double n2, double K)
{
	return (K - y) * (n1 - y) / ((y + 1) * (n2 - K + y + 1));
}

/* stats.c: the probabilities, p-values and intervals on counts. */
double	lgam(double x);
double	ldbinom(double x, double n, double p, double q);
double	hyper_mode(double lo, double hi, double n1, double n2, double K);
double	pvalue(double k1, double n1, double n2, double K, enum stats_alt,
	    enum stats_method *);
void	counts_test(int64_t k1, int64_t n1, int64_t k2, int64_t n2,
	    struct stats_result *);
void	newcombe(double k1, double n1, double k2, double n2, double z,
	    double *lo, double *hi);

/* stats_dist.c: Student's t and the gamma functions. */
double	t_sf(double t, double df);
double	t_upper(double q, double df);
double	digamma(double x);
double	trigamma(double x);
double	gamma_q(double a, double x);

#endif

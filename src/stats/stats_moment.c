/*
 * Intervals for value-weighted quantities by the delta method: the
 * share of a profile's bytes or delay a function holds, its rate per
 * second or per request, and its values per count (bytes per object,
 * delay per contention), from the sums and second moments of the
 * events behind them (stats.h, struct stats_vsum).  The counts' tests
 * (stats.c) treat every sample as one unit of the same weight; here a
 * sample weighs its value, so the variance of a sum of values is the
 * sum of their squares, and a ratio's follows from the linearization
 * of v / c: Var(v / c) ~ Var(v - R c) / c^2 with R = v / c.  The
 * intervals are normal (Wald) intervals around the estimate; doc/
 * statistics.md says what their coverage was in simulation.
 *
 * Pure math, as stats.c says: no I/O, no allocation, no state.
 */

#include <math.h>

#include "stats/stats.h"
#include "stats/stats_int.h"

static int
finite_sum(const struct stats_vsum *s)
{
	return isfinite(s->v) && isfinite(s->c) && isfinite(s->vv) &&
	    isfinite(s->vc) && isfinite(s->cc) && s->vv >= 0 && s->cc >= 0;
}

/* est -+ z se; se is never negative, so the interval holds est. */
static void
wald(double est, double var, double alpha, struct stats_vci *out)
{
	double	 z = z_half(alpha);

	out->est = est;
	out->se = sqrt(var > 0 ? var : 0);
	out->lo = est - z * out->se;
	out->hi = est + z * out->se;
}

/*
 * A value share and its variance: the events' terms x - r y, with x
 * the event's value if it is the node's and 0 else, y its value, sum
 * to vv (1 - 2r) + r^2 total.vv, as x y = x^2 = y^2 for the node's
 * events.  Rounding can take a sum of squares a hair below 0.
 */
static int
vshare(const struct stats_vsum *node, const struct stats_vsum *total,
    double *r, double *var)
{
	if (!finite_sum(node) || !finite_sum(total) || !(total->v > 0))
		return -1;
	*r = node->v / total->v;
	*var = (node->vv * (1 - 2 * *r) + *r * *r * total->vv) /
	    (total->v * total->v);
	if (*var < 0)
		*var = 0;
	return 0;
}

int
stats_vshare_diff(const struct stats_vsum *node1,
    const struct stats_vsum *total1, const struct stats_vsum *node2,
    const struct stats_vsum *total2, double alpha, struct stats_vci *out)
{
	double	 r1, r2, var1, var2;

	if (!valid_alpha(alpha) || vshare(node1, total1, &r1, &var1) == -1 ||
	    vshare(node2, total2, &r2, &var2) == -1)
		return -1;
	wald(r2 - r1, var1 + var2, alpha, out);
	return 0;
}

int
stats_vrate_diff(const struct stats_vsum *node1, double t1,
    const struct stats_vsum *node2, double t2, double alpha,
    struct stats_vci *out)
{
	if (!valid_alpha(alpha) || !finite_sum(node1) || !finite_sum(node2) ||
	    !(t1 > 0) || !(t2 > 0) || !isfinite(t1) || !isfinite(t2))
		return -1;
	wald(node2->v / t2 - node1->v / t1, node1->vv / (t1 * t1) +
	    node2->vv / (t2 * t2), alpha, out);
	return 0;
}

/* R = v / c and its variance, (vv - 2 R vc + R^2 cc) / c^2. */
static int
vratio(const struct stats_vsum *s, double *r, double *var)
{
	if (!finite_sum(s) || !(s->c > 0))
		return -1;
	*r = s->v / s->c;
	*var = (s->vv - 2 * *r * s->vc + *r * *r * s->cc) / (s->c * s->c);
	if (*var < 0)
		*var = 0;
	return 0;
}

int
stats_vratio(const struct stats_vsum *s, double alpha, struct stats_vci *out)
{
	double	 r, var;

	if (!valid_alpha(alpha) || vratio(s, &r, &var) == -1)
		return -1;
	wald(r, var, alpha, out);
	return 0;
}

int
stats_vratio_diff(const struct stats_vsum *node1,
    const struct stats_vsum *node2, double alpha, struct stats_vci *out)
{
	double	 r1, r2, var1, var2;

	if (!valid_alpha(alpha) || vratio(node1, &r1, &var1) == -1 ||
	    vratio(node2, &r2, &var2) == -1)
		return -1;
	wald(r2 - r1, var1 + var2, alpha, out);
	return 0;
}

/*
 * Where a change is spent (delta.h, delta_walk()): the walk from a row
 * down through the callees that carry its change, and the tests of a
 * caller's parts that decide whether a change is one callee's, the
 * caller's own spread over its subtree, or two.  No I/O here.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/delta.h"
#include "core/delta_int.h"
#include "stats/stats.h"
#include "support/xmalloc.h"

#define DELTA_SHARE	0.5	/* a callee carries at least this of a change */

/*
 * How a part of row a varies between runs, as a share of a: the
 * dispersion to test a split of a's samples at.  It is not a's own,
 * which says how a's share of each profile varies; the runs of a busy
 * worker can vary more in how much they block than in how they
 * divide it between its callees.  Part b (SIZE_MAX if no row's samples
 * make it) is all of row b's samples, each inside a: Pearson's estimate
 * from b's cum count of a's in each run, moderated toward the family's
 * trend as a hypothesis's is; otherwise the trend alone.  Without
 * replicates, the binomial.
 */
static double
split_disp(const struct delta *d, size_t a, size_t b, double *df)
{
	const struct delta_graph *g = d->graph;
	struct stats_disp f = { NAN, 0, 0, 0 };
	int64_t		*k, *n;
	size_t		 r, w = g->nb + g->nn;
	double		 phi;

	*df = HUGE_VAL;
	if (!d->replicates || g->be == NULL)
		return 1;
	if (b != SIZE_MAX) {
		k = xcalloc(2 * w, sizeof(*k));
		n = k + w;
		for (r = 0; r < w; r++) {
			const struct agg *x = r < g->nb ? g->be[r] :
			    g->ne[r - g->nb];

			n[r] = delta_node_count(x, d->rows[a].name, 0);
			k[r] = delta_node_count(x, d->rows[b].name, 0);
			if (k[r] > n[r])
				k[r] = n[r];
		}
		if (stats_disp_pearson(k, n, g->nb, k + g->nb, n + g->nb,
		    g->nn, &f) == -1) {
			f.s2 = NAN;
			f.df = 0;
		}
		free(k);
	}
	phi = stats_disp_posterior(&f, &d->judge.prior, df);
	if (!(phi >= 1)) {
		*df = HUGE_VAL;
		return 1;
	}
	return phi;
}

/*
 * The samples of row t that edge e carries, a side: its values at t's
 * samples per unit of value.
 */
static void
edge_samples(const struct delta_row *t, const struct delta_edge *e,
    int64_t *k1, int64_t *k2)
{
	*k1 = t->base_cum > 0 ? (int64_t)llround((double)e->base /
	    (double)t->base_cum * (double)t->base_count) : 0;
	*k2 = t->new_cum > 0 ? (int64_t)llround((double)e->new /
	    (double)t->new_cum * (double)t->new_count) : 0;
}

/* k2 of n2 less k1 of n1, as shares. */
static double
share_moved(int64_t k1, int64_t n1, int64_t k2, int64_t n2)
{
	return (n2 > 0 ? (double)k2 / (double)n2 : 0) -
	    (n1 > 0 ? (double)k1 / (double)n1 : 0);
}

/*
 * Did a part of row a, k1 and k2 of its samples (all of row c's, or
 * SIZE_MAX: no row's), move as a share of a in direction s, at alpha?
 */
static int
part_moved(struct delta *d, size_t a, size_t c, int64_t k1, int64_t k2,
    int s)
{
	const struct delta_row *ra = &d->rows[a];
	double	 phi, df;

	if (k1 > ra->base_count)
		k1 = ra->base_count;
	if (k2 > ra->new_count)
		k2 = ra->new_count;
	if (s * share_moved(k1, ra->base_count, k2, ra->new_count) <= 0)
		return 0;
	phi = split_disp(d, a, c, &df);
	return judge_retest(&d->judge, k1, ra->base_count, k2, ra->new_count,
	    phi, df, d->judge.o.alpha) == 1;
}

/*
 * Did the rest of row a, its samples that do not go through its call of
 * row b, change the same way (s) as a, at alpha and relevantly, as a
 * share of each profile (all that is asked, if only), while b's part of
 * a stayed what it was, or moved against s with no other part of a
 * moving with s?  Then a's change is spread over its subtree (alike, as
 * when a is called more often, or with a mix that shifted), and is a's.
 * If not, the change goes on into b: b's alone, or
 * the larger of two changes under a (the other is a finding of its
 * own when its walk ends elsewhere).
 * The edge weighs values: its samples are counted at b's samples per
 * unit of value.  (b is a discovery of the family already: this asks
 * only where the change is spent, so the test is at alpha.)
 */
static int
rest_moved(struct delta *d, size_t a, size_t b, int s, int only)
{
	const struct delta_edge	*e;
	const struct delta_row	*ra = &d->rows[a], *rb = &d->rows[b];
	size_t			 i, n;
	int64_t			 k1 = 0, k2 = 0, r1, r2;
	double			 bs, ns, phi, df;
	int			 whole;

	n = delta_edges(d, a, 1, &e);
	for (i = 0; i < n; i++)
		if (e[i].to == b)
			edge_samples(rb, &e[i], &k1, &k2);
	if (k1 > ra->base_count)
		k1 = ra->base_count;
	if (k2 > ra->new_count)
		k2 = ra->new_count;
	whole = k1 == rb->base_count && k2 == rb->new_count;
	r1 = ra->base_count - k1;
	r2 = ra->new_count - k2;
	if (d->base_cden <= 0 || d->new_cden <= 0)
		return 0;
	bs = d->cscale * (double)r1 / (double)d->base_cden;
	ns = d->cscale * (double)r2 / (double)d->new_cden;
	if (!(s * (ns - bs) > 0 && judge_retest(&d->judge, r1, d->base_cden,
	    r2, d->new_cden, ra->cum.phi, ra->cum.df, d->judge.o.alpha) == 1 &&
	    judge_relevant(&d->judge, bs, ns)))
		return 0;
	if (only)
		return 1;
	/*
	 * The rest moved too.  If b's part of a is the same on both sides,
	 * a's subtree grew alike and the change is a's; if that part
	 * changed, these are two changes, and the walk goes on into the
	 * larger, b, leaving the rest to a finding of its own.  When b's
	 * part moved against the change (b grew less than a), the rest's
	 * change is a change only where it is one: a part of the rest, a
	 * callee or a's own code, whose part of a moved with the change.
	 * Spread over the rest, it is a's change with a mix that shifted
	 * (a price formatted fewer times, its digits in libc a little
	 * more of it).
	 */
	phi = split_disp(d, a, whole ? b : SIZE_MAX, &df);
	if (judge_retest(&d->judge, k1, ra->base_count, k2, ra->new_count,
	    phi, df, d->judge.o.alpha) != 1)
		return 1;
	if (s * share_moved(k1, ra->base_count, k2, ra->new_count) > 0)
		return 0;
	if (part_moved(d, a, SIZE_MAX, ra->base_flat_count,
	    ra->new_flat_count, s))
		return 0;
	n = delta_edges(d, a, 1, &e);
	for (i = 0; i < n; i++) {
		if (e[i].to == a || e[i].to == b)
			continue;
		rb = &d->rows[e[i].to];
		edge_samples(rb, &e[i], &k1, &k2);
		if (part_moved(d, a, k1 == rb->base_count &&
		    k2 == rb->new_count ? e[i].to : SIZE_MAX, k1, k2, s))
			return 0;
	}
	return 1;
}

size_t
delta_walk(struct delta *d, size_t r, const int *dir, size_t *path,
    size_t max)
{
	const struct delta_edge *e;
	size_t		 np = 0, cur = r, i, k, n, best, be;
	double		 bestv, v;
	int		 s = dir[r];

	path[np++] = r;
	while (np < max) {
		const struct delta_row *row = &d->rows[cur];

		if ((s > 0 && row->status == STATUS_NEW) ||
		    (s < 0 && row->status == STATUS_GONE))
			break;
		best = be = SIZE_MAX;
		bestv = 0;
		n = delta_edges(d, cur, 1, &e);
		for (i = 0; i < n; i++) {
			if (e[i].to == cur || dir[e[i].to] != s)
				continue;
			for (k = 0; k < np && path[k] != e[i].to; k++)
				continue;
			if (k < np)
				continue;
			v = s * delta_edge_change(d, &e[i]);
			if (best == SIZE_MAX || v > bestv || (v == bestv &&
			    strcmp(d->rows[e[i].to].name,
			    d->rows[best].name) < 0)) {
				bestv = v;
				best = e[i].to;
				be = i;
			}
		}
		/*
		 * A new call (or one gone) of a function that ran before
		 * for others is a change of the caller's code: the change
		 * enters here, and what it calls is its part.  So is a new
		 * function where the caller's own work changed with it (a
		 * regular expression compiled for code that also does more
		 * itself).  A new function alone is the change itself: the
		 * walk ends there.
		 */
		if (be != SIZE_MAX && delta_edge_new(&e[be], s) &&
		    (d->rows[best].status != (s > 0 ? STATUS_NEW :
		    STATUS_GONE) || rest_moved(d, cur, best, s, 1)))
			break;
		if (best == SIZE_MAX || bestv <= 0 ||
		    bestv < DELTA_SHARE * s * row->delta_share ||
		    s * row->delta_flat_share >= bestv ||
		    rest_moved(d, cur, best, s, 0))
			break;
		path[np++] = cur = best;
	}
	return np;
}

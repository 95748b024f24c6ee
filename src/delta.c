/*
 * Per-function deltas between a base and a new aggregate.  Rows are the
 * union of both sides' nodes, joined by name.  Each row's cumulative
 * sample counts are tested with stats.c (Fisher's exact test, or Welch's
 * test between profiles when both sides have replicates), the p-values
 * are adjusted across rows with Benjamini-Hochberg, and a verdict is
 * given only to changes that are both significant and at least
 * --min-effect.  delta_explain() gives a significant row the call path
 * that carries the change and the callers that account for it, from
 * the two aggs' indexes of their edges.  delta_select() chooses and
 * orders the rows a report shows, and delta_exit_status() turns the
 * verdicts into check-significance's exit status.  No I/O here.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "delta.h"
#include "stats.h"
#include "xmalloc.h"

#define DELTA_MAX_PATH	64

/* An edge of the union graph, in row indices. */
struct uedge {
	size_t		 from, to;
	int64_t		 base, new;
};

/*
 * What delta_explain() needs: the two aggs, whose edges are indexed by
 * node, and the maps between their nodes and the rows.  A row below
 * nbase is base node of the same number.
 */
struct delta_graph {
	const struct agg *base, *new;
	size_t		 nbase;
	size_t		*brow, *nrow;	/* node -> row, per side */
	size_t		*rnew;		/* row -> new node, or SIZE_MAX */
	struct delta_opts o;
	struct uedge	*e;		/* scratch: one row's edges */
	size_t		 ecap;
	size_t		*at;		/* per row: its edge in e, or SIZE_MAX */
};

static double
norm(int64_t v, int64_t total, double seconds, enum delta_norm how)
{
	switch (how) {
	case DELTA_NORM_TOTAL:
		return total != 0 ? (double)v / (double)total : 0;
	case DELTA_NORM_DURATION:
		return seconds > 0 ? (double)v / seconds : 0;
	default:
		return (double)v;
	}
}

static double
share(int64_t v, int64_t total)
{
	return total != 0 ? (double)v / (double)total : 0;
}

/*
 * Add one side's edges of row r (out of it, or into it) to g->e, where
 * an edge with the same row at its other end takes the side's weight.
 */
static size_t
side_edges(struct delta_graph *g, const struct agg *a, size_t node,
    const size_t *row, size_t r, int out, int is_new, size_t n)
{
	const uint32_t	*id;
	size_t		 k, i, other;

	id = out ? agg_edges_out(a, node, &k) : agg_edges_in(a, node, &k);
	if (n + k > g->ecap) {
		g->ecap = 2 * (n + k);
		g->e = xreallocarray(g->e, g->ecap, sizeof(*g->e));
	}
	for (i = 0; i < k; i++) {
		const struct agg_edge *ed = agg_edge(a, id[i]);
		struct uedge *e;

		other = row[out ? ed->callee : ed->caller];
		if (g->at[other] == SIZE_MAX) {
			g->at[other] = n;
			e = &g->e[n++];
			e->from = out ? r : other;
			e->to = out ? other : r;
			e->base = e->new = 0;
		} else
			e = &g->e[g->at[other]];
		if (is_new)
			e->new += ed->w;
		else
			e->base += ed->w;
	}
	return n;
}

/*
 * The edges of row r in the union graph, out of it or into it, into
 * g->e in no particular order: each side's half of an edge, joined.
 * Returns how many.
 */
static size_t
row_edges(struct delta_graph *g, size_t r, int out)
{
	size_t	 n = 0, i;

	if (r < g->nbase)
		n = side_edges(g, g->base, r, g->brow, r, out, 0, n);
	if (g->rnew[r] != SIZE_MAX)
		n = side_edges(g, g->new, g->rnew[r], g->nrow, r, out, 1, n);
	for (i = 0; i < n; i++)
		g->at[out ? g->e[i].to : g->e[i].from] = SIZE_MAX;
	return n;
}

static void
graph_free(struct delta_graph *g)
{
	if (g == NULL)
		return;
	free(g->brow);
	free(g->nrow);
	free(g->rnew);
	free(g->at);
	free(g->e);
	free(g);
}

/* The change of an edge, in the same normalized unit as the rows. */
static double
edge_delta(const struct uedge *e, const struct delta *d,
    const struct delta_opts *o)
{
	return norm(e->new, d->new_total, o->new_seconds, o->norm) -
	    norm(e->base, d->base_total, o->base_seconds, o->norm);
}

/*
 * From the row down through the callee whose edge changed most in the
 * row's direction, until the current function's own flat change is at
 * least as large as any callee's: that is where the time went.
 */
static void
find_path(struct delta *d, size_t r)
{
	struct delta_graph *g = d->graph;
	struct delta_row *row = &d->rows[r];
	size_t		 path[DELTA_MAX_PATH], np = 0, cur = r, i, k, n, best;
	double		 sign = row->delta >= 0 ? 1 : -1, bestv, v;

	path[np++] = r;
	while (np < DELTA_MAX_PATH) {
		best = SIZE_MAX;
		bestv = 0;
		n = row_edges(g, cur, 1);
		for (i = 0; i < n; i++) {
			const struct uedge *e = &g->e[i];

			if (e->to == cur)
				continue;
			for (k = 0; k < np; k++)
				if (path[k] == e->to)
					break;
			if (k < np)
				continue;
			v = sign * edge_delta(e, d, &g->o);
			if (v > bestv || (v == bestv && best != SIZE_MAX &&
			    strcmp(d->rows[e->to].name,
			    d->rows[best].name) < 0)) {
				bestv = v;
				best = e->to;
			}
		}
		if (best == SIZE_MAX || bestv <= 0 ||
		    sign * d->rows[cur].delta_flat >= bestv)
			break;
		path[np++] = cur = best;
	}
	row->path = xreallocarray(NULL, np, sizeof(*row->path));
	for (k = 0; k < np; k++)
		row->path[k] = d->rows[path[k]].name;
	row->npath = np;
}

static int
cmp_caller(const void *a, const void *b)
{
	const struct delta_caller *x = a, *y = b;
	double ax = fabs(x->delta), ay = fabs(y->delta);

	if (ax != ay)
		return ax > ay ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * The callers whose edges into the row changed most, max_callers of
 * them, most first.  A function called from thousands of places is
 * common, so they are kept by insertion, not all sorted: names are
 * unique, the order is total, and the result is a whole sort's first.
 */
static void
find_callers(struct delta *d, size_t r)
{
	struct delta_graph *g = d->graph;
	struct delta_row *row = &d->rows[r];
	struct delta_caller c;
	size_t		 i, j, k, n = 0, max = g->o.max_callers;

	k = row_edges(g, r, 0);
	row->callers = xreallocarray(NULL, max + 1, sizeof(*row->callers));
	for (i = 0; i < k; i++) {
		const struct uedge *e = &g->e[i];

		if (e->from == r)
			continue;
		c.name = d->rows[e->from].name;
		c.base = e->base;
		c.new = e->new;
		c.delta = edge_delta(e, d, &g->o);
		if (n == max && (max == 0 ||
		    cmp_caller(&c, &row->callers[max - 1]) >= 0))
			continue;
		for (j = n < max ? n++ : max - 1; j > 0 &&
		    cmp_caller(&c, &row->callers[j - 1]) < 0; j--)
			row->callers[j] = row->callers[j - 1];
		row->callers[j] = c;
	}
	row->ncallers = n;
}

void
delta_explain(struct delta *d, size_t r)
{
	struct delta_row *row = &d->rows[r];

	if (d->graph == NULL || row->path != NULL ||
	    (row->verdict != VERDICT_REGRESSED &&
	    row->verdict != VERDICT_IMPROVED))
		return;
	find_path(d, r);
	find_callers(d, r);
}

/*
 * Could no split of this row's k samples between the windows be
 * significant at alpha?  The most extreme splits put as many of them as
 * possible in one window, then in the other.
 */
static int
too_few(int64_t k, int64_t n1, int64_t n2, double alpha)
{
	int64_t lo, hi;

	if (k >= 64 && k <= n1 && k <= n2)
		return 0;
	lo = k > n2 ? k - n2 : 0;	/* fewest in base */
	hi = k < n1 ? k : n1;		/* most in base */
	return stats_fisher(lo, n1, k - lo, n2) > alpha &&
	    stats_fisher(hi, n1, k - hi, n2) > alpha;
}

static int64_t
node_count(const struct agg *a, const char *name)
{
	long i = agg_find(a, name);

	return i < 0 ? 0 : agg_node(a, (size_t)i)->cum[AGG_COUNT];
}

void
delta_judge_init(struct delta_judge *j, const struct delta_opts *o,
    const struct agg *base, const struct agg *new,
    struct agg *const *be, size_t nb, struct agg *const *ne, size_t nn)
{
	size_t i;

	memset(j, 0, sizeof(*j));
	j->o = o;
	j->base_n = agg_total(base, AGG_COUNT);
	j->new_n = agg_total(new, AGG_COUNT);
	j->replicates = nb >= 2 && nn >= 2;
	if (!j->replicates)
		return;
	j->nb = nb;
	j->nn = nn;
	j->base_each_n = xcalloc(nb, sizeof(*j->base_each_n));
	j->new_each_n = xcalloc(nn, sizeof(*j->new_each_n));
	j->scratch = xcalloc(nb + nn, sizeof(*j->scratch));
	for (i = 0; i < nb; i++)
		j->base_each_n[i] = agg_total(be[i], AGG_COUNT);
	for (i = 0; i < nn; i++)
		j->new_each_n[i] = agg_total(ne[i], AGG_COUNT);
}

void
delta_judge_release(struct delta_judge *j)
{
	free(j->base_each_n);
	free(j->new_each_n);
	free(j->scratch);
	memset(j, 0, sizeof(*j));
}

int
delta_judge_test(struct delta_judge *j, int64_t k1, int64_t k2,
    const int64_t *be, const int64_t *ne, struct stats_result *st)
{
	if (!j->o->has_counts || j->base_n <= 0 || j->new_n <= 0)
		return 0;
	if (j->replicates) {
		if (stats_replicates(be, j->base_each_n, j->nb, ne,
		    j->new_each_n, j->nn, j->o->alpha, j->scratch, st) == -1)
			return -1;
	} else if (stats_counts(k1, j->base_n, k2, j->new_n, j->o->alpha,
	    st) == -1)
		return -1;
	return st->method != STATS_UNTESTABLE;
}

int
delta_judge_relevant(const struct delta_judge *j, double bs, double ns)
{
	const struct delta_opts *o = j->o;

	return fabs(ns - bs) * 100 >= o->min_effect_pp &&
	    (bs == 0 || fabs(ns - bs) / bs * 100 >= o->min_effect_rel);
}

enum verdict
delta_judge_verdict(const struct delta_judge *j, int tested, double q,
    int relevant, double delta, int64_t k1, int64_t k2)
{
	if (!tested)
		return VERDICT_INSUFFICIENT;
	if (q <= j->o->alpha && relevant)
		return delta > 0 ? VERDICT_REGRESSED : VERDICT_IMPROVED;
	if (!j->replicates && too_few(k1 + k2, j->base_n, j->new_n,
	    j->o->alpha))
		return VERDICT_INSUFFICIENT;
	return VERDICT_UNCHANGED;
}

/* Test one row into itself; -1 if the test failed. */
static int
test_row(struct delta_judge *j, struct delta_row *row,
    struct agg *const *be, struct agg *const *ne, int64_t *k1, int64_t *k2)
{
	size_t	 k;
	int	 t;

	if (j->replicates && j->o->has_counts) {
		for (k = 0; k < j->nb; k++)
			k1[k] = node_count(be[k], row->name);
		for (k = 0; k < j->nn; k++)
			k2[k] = node_count(ne[k], row->name);
	}
	if ((t = delta_judge_test(j, row->base_count, row->new_count, k1, k2,
	    &row->st)) == -1)
		return -1;
	row->tested = t;
	return 0;
}

/*
 * Test every row, each into its row; -1 if a test failed.  On one
 * thread, as threads belong to the loading room: a second one saved
 * 9 ms of the 20 ms the tests of the medium pair take (3 ms on a busy
 * machine), and nothing of the large pair's 49 ms; diff medium in
 * turns with it, +0.010 and +0.001 s of 0.4-0.7 s, within make
 * bench's noise (bench/FINDINGS.md, round 10).
 */
static int
test_all_rows(struct delta *d, struct delta_judge *j,
    struct agg *const *be, struct agg *const *ne)
{
	int64_t	*k1 = NULL, *k2 = NULL;
	size_t	 i;
	int	 rc = 0;

	if (j->replicates) {
		k1 = xcalloc(j->nb, sizeof(*k1));
		k2 = xcalloc(j->nn, sizeof(*k2));
	}
	for (i = 0; rc == 0 && i < d->nrows; i++)
		rc = test_row(j, &d->rows[i], be, ne, k1, k2);
	free(k1);
	free(k2);
	return rc;
}

/*
 * The rows: one per node of base, in its order, joined by name with the
 * node of new of that name if there is one, then one per node of new
 * whose name is not in base.  g's maps between nodes and rows follow.
 */
static void
join_rows(struct delta *d, struct delta_graph *g)
{
	const struct agg *base = g->base, *new = g->new;
	size_t		 nbase = agg_nnodes(base), nnew = agg_nnodes(new);
	size_t		*brow = g->brow, *nrow = g->nrow, i;
	long		 j;

	for (i = 0; i < nbase; i++) {
		const struct agg_node *bn = agg_node(base, i);
		struct delta_row *row = &d->rows[d->nrows];

		row->name = bn->name;
		row->base_flat = bn->flat[AGG_VALUE];
		row->base_cum = bn->cum[AGG_VALUE];
		row->base_count = bn->cum[AGG_COUNT];
		row->status = STATUS_GONE;
		if ((j = agg_find(new, bn->name)) >= 0) {
			const struct agg_node *nn_ = agg_node(new, (size_t)j);

			row->new_flat = nn_->flat[AGG_VALUE];
			row->new_cum = nn_->cum[AGG_VALUE];
			row->new_count = nn_->cum[AGG_COUNT];
			row->status = STATUS_BOTH;
			nrow[j] = d->nrows;
			g->rnew[d->nrows] = (size_t)j;
		}
		brow[i] = d->nrows++;
	}
	for (i = 0; i < nnew; i++) {
		const struct agg_node *nn_ = agg_node(new, i);
		struct delta_row *row;

		if (nrow[i] != SIZE_MAX)	/* its name is in base */
			continue;
		row = &d->rows[d->nrows];
		row->name = nn_->name;
		row->new_flat = nn_->flat[AGG_VALUE];
		row->new_cum = nn_->cum[AGG_VALUE];
		row->new_count = nn_->cum[AGG_COUNT];
		row->status = STATUS_NEW;
		g->rnew[d->nrows] = i;
		nrow[i] = d->nrows++;
	}
}

int
delta_compute(struct agg *base, struct agg *new,
    struct agg *const *be, size_t nb, struct agg *const *ne, size_t nn,
    const struct delta_opts *o, struct delta *d)
{
	size_t		 nbase = agg_nnodes(base), nnew = agg_nnodes(new);
	size_t		*scratch, i, m;
	double		*p, bestse = -1, bestdf = 0, se, tq;
	struct delta_judge judge;
	struct delta_graph *g;
	int		 rc;

	memset(d, 0, sizeof(*d));
	d->base_total = agg_total(base, AGG_VALUE);
	d->new_total = agg_total(new, AGG_VALUE);
	d->base_n = agg_total(base, AGG_COUNT);
	d->new_n = agg_total(new, AGG_COUNT);
	d->replicates = nb >= 2 && nn >= 2;
	d->rows = xcalloc(nbase + nnew, sizeof(*d->rows));
	g = d->graph = xcalloc(1, sizeof(*g));
	g->base = base;
	g->new = new;
	g->nbase = nbase;
	g->o = *o;
	g->brow = xcalloc(nbase + 1, sizeof(*g->brow));
	g->nrow = xreallocarray(NULL, nnew + 1, sizeof(*g->nrow));
	memset(g->nrow, 0xff, (nnew + 1) * sizeof(*g->nrow));
	g->rnew = xreallocarray(NULL, nbase + nnew + 1, sizeof(*g->rnew));
	memset(g->rnew, 0xff, (nbase + nnew + 1) * sizeof(*g->rnew));
	g->at = xreallocarray(NULL, nbase + nnew + 1, sizeof(*g->at));
	memset(g->at, 0xff, (nbase + nnew + 1) * sizeof(*g->at));
	/* No-ops if the sides' own threads indexed them (load.c). */
	agg_index_edges(base);
	agg_index_edges(new);

	join_rows(d, g);

	delta_judge_init(&judge, o, base, new, be, nb, ne, nn);
	rc = test_all_rows(d, &judge, be, ne);
	p = xcalloc(d->nrows + 1, sizeof(*p));
	scratch = xcalloc(d->nrows + 1, sizeof(*scratch));
	for (i = 0, m = 0; i < d->nrows; i++) {
		struct delta_row *row = &d->rows[i];
		double bs, ns, pooled;

		row->base_flat_n = norm(row->base_flat, d->base_total,
		    o->base_seconds, o->norm);
		row->new_flat_n = norm(row->new_flat, d->new_total,
		    o->new_seconds, o->norm);
		row->base_cum_n = norm(row->base_cum, d->base_total,
		    o->base_seconds, o->norm);
		row->new_cum_n = norm(row->new_cum, d->new_total,
		    o->new_seconds, o->norm);
		row->delta = row->new_cum_n - row->base_cum_n;
		row->delta_flat = row->new_flat_n - row->base_flat_n;
		row->rel = row->base_cum_n != 0 ? row->delta /
		    fabs(row->base_cum_n) : row->delta != 0 ? HUGE_VAL : 0;

		/* Practical relevance is judged on shares, whatever norm. */
		bs = share(row->base_cum, d->base_total);
		ns = share(row->new_cum, d->new_total);
		row->delta_share = ns - bs;
		row->relevant = delta_judge_relevant(&judge, bs, ns);

		row->q = NAN;
		if (rc == -1 || !row->tested)
			continue;
		p[m++] = row->st.p;
		pooled = (double)(row->base_count + row->new_count) /
		    (double)(d->base_n + d->new_n);
		/*
		 * The header's noise is that of the noisiest tested row:
		 * between replicates its own standard error, otherwise the
		 * binomial one at its pooled share.
		 */
		if (row->st.method == STATS_WELCH && row->st.df > 0) {
			tq = stats_t_quantile(1 - o->alpha / 2, row->st.df);
			se = (row->st.hi - row->st.lo) / (2 * tq);
		} else
			se = sqrt(pooled * (1 - pooled) *
			    (1 / (double)d->base_n + 1 / (double)d->new_n));
		if (se > bestse) {
			bestse = se;
			d->mde_share = pooled;
			bestdf = row->st.method == STATS_WELCH ? row->st.df : 0;
		}
	}
	d->ntested = m;
	stats_bh(p, m, scratch);
	for (i = 0, m = 0; i < d->nrows && rc == 0; i++) {
		struct delta_row *row = &d->rows[i];

		if (row->tested)
			row->q = p[m++];
		row->verdict = delta_judge_verdict(&judge, row->tested,
		    row->q, row->relevant, row->delta, row->base_count,
		    row->new_count);
	}
	if (bestse < 0)
		d->mde = d->noise = -1;
	else if (bestdf > 0) {
		tq = stats_t_quantile(1 - o->alpha / 2, bestdf);
		d->noise = tq * bestse;
		d->mde = (tq + stats_t_quantile(STATS_POWER, bestdf)) * bestse;
	} else {
		d->mde = stats_mde(d->mde_share, d->base_n, d->new_n, o->alpha,
		    STATS_POWER);
		d->noise = stats_noise(d->mde_share, d->base_n, d->new_n,
		    o->alpha);
	}

	free(p);
	free(scratch);
	delta_judge_release(&judge);
	return rc;
}

void
delta_release(struct delta *d)
{
	size_t i;

	for (i = 0; i < d->nrows; i++) {
		free(d->rows[i].path);
		free(d->rows[i].callers);
	}
	free(d->rows);
	graph_free(d->graph);
	memset(d, 0, sizeof(*d));
}

/*
 * Choosing the rows a report shows: delta_select().  Each candidate
 * carries its sort key, computed once, so that the comparison needs no
 * context.
 */
struct sortrow {
	double		 key;		/* larger first */
	const char	*name;		/* then by name */
	size_t		 idx;
};

static double
sort_key(const struct delta_row *r, enum delta_sort how)
{
	switch (how) {
	case DELTA_SORT_NAME:
		return 0;
	case DELTA_SORT_P:
		return r->tested ? -r->st.p : -2;
	case DELTA_SORT_FLAT:
		return fabs(r->delta_flat);
	case DELTA_SORT_NEW:
		return r->new_cum_n;
	default:
		return fabs(r->delta);
	}
}

static int
cmp_sortrow(const void *a, const void *b)
{
	const struct sortrow *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sift r[j] down the heap r[0..k), whose top is the last in order. */
static void
sift_down(struct sortrow *r, size_t j, size_t k)
{
	struct sortrow	 t;
	size_t		 c;

	for (; (c = 2 * j + 1) < k; j = c) {
		if (c + 1 < k && cmp_sortrow(&r[c + 1], &r[c]) > 0)
			c++;
		if (cmp_sortrow(&r[c], &r[j]) <= 0)
			break;
		t = r[j];
		r[j] = r[c];
		r[c] = t;
	}
}

/*
 * Put the first k rows in order at the front, sorted.  A report shows
 * 20 rows of thousands: a heap of k keeps the first k met so far, and
 * only they are sorted.  Names are unique, so the order is total, and
 * the k rows are those a whole sort puts first.
 */
static void
sort_first(struct sortrow *r, size_t n, size_t k)
{
	struct sortrow	 t;
	size_t		 i;

	if (k >= n / 4) {
		qsort(r, n, sizeof(*r), cmp_sortrow);
		return;
	}
	for (i = k / 2; i-- > 0; )
		sift_down(r, i, k);
	for (i = k; i < n; i++)
		if (cmp_sortrow(&r[i], &r[0]) < 0) {
			t = r[0];
			r[0] = r[i];
			r[i] = t;
			sift_down(r, 0, k);
		}
	qsort(r, k, sizeof(*r), cmp_sortrow);
}

size_t *
delta_select(struct delta *d, enum delta_sort how, int findings, size_t k,
    size_t *nshow)
{
	struct sortrow	*sr;
	size_t		*order, i, n;

	sr = xreallocarray(NULL, d->nrows + 1, sizeof(*sr));
	for (i = 0, n = 0; i < d->nrows; i++) {
		const struct delta_row *row = &d->rows[i];

		if (findings && row->verdict != VERDICT_REGRESSED &&
		    row->verdict != VERDICT_IMPROVED)
			continue;
		if (row->base_cum == 0 && row->new_cum == 0 &&
		    row->base_flat == 0 && row->new_flat == 0)
			continue;
		sr[n].key = sort_key(row, how);
		sr[n].name = row->name;
		sr[n++].idx = i;
	}
	if (k == 0 || k > n)
		k = n;
	sort_first(sr, n, k);
	order = xreallocarray(NULL, k + 1, sizeof(*order));
	for (i = 0; i < k; i++) {
		order[i] = sr[i].idx;
		delta_explain(d, order[i]);
	}
	free(sr);
	*nshow = k;
	return order;
}

int
delta_exit_status(const struct delta *d, const struct delta_opts *o,
    enum delta_fail_on fail_on, int *regressed)
{
	size_t	 i;
	int	 reg = 0, imp = 0;

	for (i = 0; i < d->nrows; i++) {
		if (d->rows[i].verdict == VERDICT_REGRESSED)
			reg = 1;
		else if (d->rows[i].verdict == VERDICT_IMPROVED)
			imp = 1;
	}
	*regressed = reg;
	if (reg || (fail_on == DELTA_FAIL_ANY_CHANGE && imp))
		return 1;
	/*
	 * A change that passes --min-effect at the hardest share (in
	 * points, or relative to that share) could have been missed.
	 */
	if (!o->has_counts || d->mde < 0 || d->mde * 100 >
	    fmax(o->min_effect_pp, o->min_effect_rel * d->mde_share))
		return 3;
	return 0;
}

/*
 * Per-function deltas between a base and a new aggregate.  Rows are the
 * union of both sides' nodes, joined by name.  Each row has two
 * hypotheses, its flat and its cumulative sample counts; hypotheses
 * whose samples are the same (a leaf's flat and cum, a chain of single
 * callees) are one.  All of them are judged as one family (judge.c:
 * Fisher's exact test, or a dispersion shared across functions between
 * replicates; Tarone's trimming and Benjamini-Hochberg), and a row is
 * given a verdict only when a hypothesis of it is a discovery whose
 * change is at least --min-effect.  findings.c then groups the rows into
 * the changes they add up to.  delta_explain() gives a significant row
 * the call path that carries the change and the callers that account
 * for it, from the two aggs' indexes of their edges.  delta_select()
 * chooses and orders the rows a report shows, and delta_exit_status()
 * turns the findings into check-significance's exit status.  No I/O
 * here.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/delta.h"
#include "core/delta_int.h"
#include "core/flow.h"
#include "core/runtime.h"
#include "core/spread.h"
#include "stats/stats.h"
#include "support/xmalloc.h"

#define DELTA_MAX_PATH	64


static double
norm(int64_t v, int64_t total, double expo, enum delta_norm how)
{
	if (how == DELTA_NORM_TOTAL)
		return total != 0 ? (double)v / (double)total : 0;
	if (expo > 0)
		return (double)v / expo;
	/* Absolute with no exposure given: the values as they are. */
	return how == DELTA_NORM_NONE ? (double)v : 0;
}

double
delta_norm(const struct delta *d, const struct delta_opts *o, int64_t v,
    int is_new)
{
	return is_new ? norm(v, d->new_total, o->new_expo, o->norm) :
	    norm(v, d->base_total, o->base_expo, o->norm);
}

static double
share(int64_t v, double den)
{
	return den != 0 ? (double)v / den : 0;
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
		struct delta_edge *e;

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
	free(g->dir);
	free(g);
}

size_t
delta_edges(struct delta *d, size_t r, int out, const struct delta_edge **e)
{
	size_t n = row_edges(d->graph, r, out);

	*e = d->graph->e;
	return n;
}

/* delta_each_call()'s pass over one side. */
struct side_calls {
	const size_t	*row;		/* the side's node -> row */
	int		 is_new;
	void		(*fn)(void *, size_t, size_t, int, int64_t);
	void		*arg;
};

static void
side_call(void *arg, const struct agg_edge *ed)
{
	const struct side_calls *sc = arg;

	sc->fn(sc->arg, sc->row[ed->caller], sc->row[ed->callee], sc->is_new,
	    ed->w);
}

void
delta_each_call(const struct delta *d,
    void (*fn)(void *, size_t, size_t, int, int64_t), void *arg)
{
	const struct delta_graph *g = d->graph;
	struct side_calls sc = { g->brow, 0, fn, arg };

	agg_each_edge(g->base, side_call, &sc);
	sc.row = g->nrow;
	sc.is_new = 1;
	agg_each_edge(g->new, side_call, &sc);
}

/* The change of an edge, in the same normalized unit as the rows. */
static double
edge_delta(const struct delta_edge *e, const struct delta *d,
    const struct delta_opts *o)
{
	return norm(e->new, d->new_total, o->new_expo, o->norm) -
	    norm(e->base, d->base_total, o->base_expo, o->norm);
}

double
delta_edge_change(const struct delta *d, const struct delta_edge *e)
{
	return share(e->new, d->new_vden) - share(e->base, d->base_vden);
}

int
delta_edge_new(const struct delta_edge *e, int dir)
{
	if (dir > 0)
		return e->base == 0 && e->new > 0;
	return dir < 0 && e->new == 0 && e->base > 0;
}

double
delta_row_mde(const struct delta *d, const struct delta_row *r)
{
	double	 m = judge_hyp_mde(&d->judge,
	    r->hyp == DELTA_HYP_FLAT ? &r->flat : &r->cum);

	return m >= 0 ? m * d->cscale : -1;
}

double
delta_row_change(const struct delta_row *r)
{
	return r->hyp == DELTA_HYP_FLAT ? r->delta_flat_share : r->delta_share;
}

int64_t
delta_node_count(const struct agg *a, const char *name, int flat)
{
	long i = agg_find(a, name);

	if (i < 0)
		return 0;
	return flat ? agg_node(a, (size_t)i)->flat[AGG_COUNT] :
	    agg_node(a, (size_t)i)->cum[AGG_COUNT];
}

/* The row's path: its walk through the rows that changed as it did. */
static void
find_path(struct delta *d, size_t r)
{
	struct delta_row *row = &d->rows[r];
	size_t		 path[DELTA_MAX_PATH], np, k;

	np = delta_walk(d, r, d->graph->dir, path, DELTA_MAX_PATH);
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
		const struct delta_edge *e = &g->e[i];

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
 * The hypotheses, as classes of a union-find over 2 r (row r's flat)
 * and 2 r + 1 (its cum), each class one hypothesis: samples that are
 * the same are tested once, so that a chain of single callees is not
 * counted as many tests.  Roots are the smallest member, so the classes
 * do not depend on the order of the unions.
 */
static size_t
uf_find(size_t *up, size_t x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

static void
uf_union(size_t *up, size_t a, size_t b)
{
	a = uf_find(up, a);
	b = uf_find(up, b);
	if (a < b)
		up[b] = a;
	else if (b < a)
		up[a] = b;
}

#define MANY	(SIZE_MAX - 1)

/*
 * The one row other than r that calls node (row r) on one side, with
 * the value of its edge in *w; SIZE_MAX if none, MANY if more than one.
 * An agg has one edge per caller and callee, so one caller is one edge.
 */
static size_t
side_caller(const struct agg *a, size_t node, const size_t *row, size_t r,
    int64_t *w)
{
	const uint32_t	*id;
	size_t		 k, i, other, found = SIZE_MAX;

	id = agg_edges_in(a, node, &k);
	for (i = 0; i < k; i++) {
		const struct agg_edge *e = agg_edge(a, id[i]);

		if ((other = row[e->caller]) == r)
			continue;
		if (found != SIZE_MAX)
			return MANY;
		found = other;
		*w = e->w;
	}
	return found;
}

/*
 * Is every sample of row b also one of row a, its only caller: is a
 * the one row that calls it on either side, and does that edge carry
 * all of b's value on each side where b has any (values positive)?
 * Each side's edges are read as they are: most rows have more callers
 * than one, and are answered at the second.
 */
static int
only_caller(struct delta *d, size_t b, size_t *a)
{
	const struct delta_graph *g = d->graph;
	const struct delta_row	*row = &d->rows[b];
	size_t			 cb = SIZE_MAX, cn = SIZE_MAX;
	int64_t			 wb = 0, wn = 0;

	if (row->base_cum < 0 || row->new_cum < 0)
		return 0;
	if (b < g->nbase && row->base_cum > 0 &&
	    ((cb = side_caller(g->base, b, g->brow, b, &wb)) == MANY ||
	    cb == SIZE_MAX || wb != row->base_cum))
		return 0;
	if (g->rnew[b] != SIZE_MAX && row->new_cum > 0 &&
	    ((cn = side_caller(g->new, g->rnew[b], g->nrow, b, &wn)) ==
	    MANY || cn == SIZE_MAX || wn != row->new_cum))
		return 0;
	if (cb != SIZE_MAX && cn != SIZE_MAX && cb != cn)
		return 0;
	*a = cb != SIZE_MAX ? cb : cn;
	return *a != SIZE_MAX;
}

/*
 * One side's part of delta_region(): are all of node's callers (row r)
 * in the region, and does their value cover the node's?
 */
static int
callers_in(const struct agg *a, size_t node, const size_t *row, size_t r,
    const unsigned char *in, int64_t cum)
{
	const uint32_t	*id;
	size_t		 k, i;
	int64_t		 w = 0;

	if (cum == 0)
		return 1;
	id = agg_edges_in(a, node, &k);
	for (i = 0; i < k; i++) {
		const struct agg_edge *e = agg_edge(a, id[i]);

		if (row[e->caller] == r)
			continue;
		if (!in[row[e->caller]])
			return 0;
		w += e->w;
	}
	return k > 0 && w >= cum;
}

/* Does row r join the region in[]: every caller in, no root samples? */
static int
joins(const struct delta *d, const unsigned char *in, size_t r)
{
	const struct delta_graph *g = d->graph;

	return (r >= g->nbase || callers_in(g->base, r, g->brow, r, in,
	    d->rows[r].base_cum)) && (g->rnew[r] == SIZE_MAX ||
	    callers_in(g->new, g->rnew[r], g->nrow, r, in,
	    d->rows[r].new_cum));
}

/* One side's callees of node (row cur) that join the region, pushed. */
static size_t
region_side(const struct delta *d, const struct agg *a, size_t node,
    const size_t *row, unsigned char *in, size_t *stack, size_t sp)
{
	const uint32_t	*id;
	size_t		 k, i, r;

	id = agg_edges_out(a, node, &k);
	for (i = 0; i < k; i++) {
		r = row[agg_edge(a, id[i])->callee];
		if (!in[r] && joins(d, in, r)) {
			in[r] = 1;
			stack[sp++] = r;
		}
	}
	return sp;
}

/* One side's callees of node not marked yet, marked and listed. */
static size_t
below_side(const struct agg *a, size_t node, const size_t *row,
    unsigned char *in, size_t *list, size_t n, size_t max)
{
	const uint32_t	*id;
	size_t		 k, i, r;

	id = agg_edges_out(a, node, &k);
	for (i = 0; i < k && n <= max; i++)
		if (!in[r = row[agg_edge(a, id[i])->callee]]) {
			in[r] = 1;
			list[n++] = r;
		}
	return n;
}

/*
 * Mark the rows x reaches through calls and list them in list[], x
 * first; returns how many, or more than max (then stopped) when there
 * are more than max.
 */
static size_t
descendants(const struct delta *d, size_t x, unsigned char *in, size_t *list,
    size_t max)
{
	const struct delta_graph *g = d->graph;
	size_t	 n = 0, i, cur;

	in[x] = 1;
	list[n++] = x;
	for (i = 0; i < n && n <= max; i++) {
		cur = list[i];
		if (cur < g->nbase)
			n = below_side(g->base, cur, g->brow, in, list, n, max);
		if (g->rnew[cur] != SIZE_MAX && n <= max)
			n = below_side(g->new, g->rnew[cur], g->nrow, in, list,
			    n, max);
	}
	return n;
}

void
delta_region(struct delta *d, size_t x, unsigned char *in, size_t *stack)
{
	const struct delta_graph *g = d->graph;
	size_t	 sp = 0, cur, n, i;
	int	 out;

	if ((n = descendants(d, x, in, stack, DELTA_REGION_WALK)) <=
	    DELTA_REGION_WALK) {
		do {
			out = 0;
			for (i = 1; i < n; i++)
				if (in[stack[i]] && !joins(d, in, stack[i])) {
					in[stack[i]] = 0;
					out = 1;
				}
		} while (out);
		return;
	}
	for (i = 0; i < n; i++)
		in[stack[i]] = 0;
	in[x] = 1;
	stack[sp++] = x;
	while (sp > 0) {
		cur = stack[--sp];
		if (cur < g->nbase)
			sp = region_side(d, g->base, cur, g->brow, in, stack,
			    sp);
		if (g->rnew[cur] != SIZE_MAX)
			sp = region_side(d, g->new, g->rnew[cur], g->nrow, in,
			    stack, sp);
	}
}

/*
 * One side's part of delta_region_callers(): node's callers (row r),
 * appended to (*v)[n...]; n, or -1 when its edges in do not carry all
 * of cum (callers_in()'s test, which needs no caller in a region).
 */
static long
side_callers(const struct agg *a, size_t node, const size_t *row, size_t r,
    int64_t cum, size_t **v, size_t *cap, long n)
{
	const uint32_t	*id;
	size_t		 k, i;
	int64_t		 w = 0;

	if (n < 0 || cum == 0)
		return n;
	id = agg_edges_in(a, node, &k);
	if ((size_t)n + k > *cap) {
		*cap = 2 * ((size_t)n + k);
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	for (i = 0; i < k; i++) {
		const struct agg_edge *e = agg_edge(a, id[i]);

		if (row[e->caller] == r)
			continue;
		(*v)[n++] = row[e->caller];
		/* Saturated: callers_in()'s sum, without its overflow. */
		if (__builtin_add_overflow(w, e->w, &w))
			w = e->w > 0 ? INT64_MAX : INT64_MIN;
	}
	return k > 0 && w >= cum ? n : -1;
}

long
delta_region_callers(struct delta *d, size_t r, size_t **v, size_t *cap)
{
	const struct delta_graph *g = d->graph;
	long	 n = 0;

	if (r < g->nbase)
		n = side_callers(g->base, r, g->brow, r, d->rows[r].base_cum,
		    v, cap, n);
	if (g->rnew[r] != SIZE_MAX)
		n = side_callers(g->new, g->rnew[r], g->nrow, r,
		    d->rows[r].new_cum, v, cap, n);
	return n;
}

int
delta_region_small(struct delta *d, size_t x, unsigned char *in,
    size_t *stack)
{
	size_t	 n = descendants(d, x, in, stack, DELTA_REGION_WALK), i;

	for (i = 0; i < n; i++)
		in[stack[i]] = 0;
	return n <= DELTA_REGION_WALK;
}

/* Build the classes: up[2 nrows] for the union-find. */
static void
same_samples(struct delta *d, size_t *up)
{
	size_t	 r, a;

	for (r = 0; r < 2 * d->nrows; r++)
		up[r] = r;
	for (r = 0; r < d->nrows; r++) {
		const struct delta_row *row = &d->rows[r];

		/* Flat is a subset of cum: equal counts, equal samples. */
		if (row->base_flat_count == row->base_count &&
		    row->new_flat_count == row->new_count)
			uf_union(up, 2 * r, 2 * r + 1);
		if (d->graph != NULL && only_caller(d, r, &a) &&
		    d->rows[a].base_count == row->base_count &&
		    d->rows[a].new_count == row->new_count)
			uf_union(up, 2 * r + 1, 2 * a + 1);
	}
}

/*
 * The family: one hypothesis per class, its counts those of its root,
 * and between replicates its counts in each profile.  hyp[] gets the
 * class of each of the 2 nrows hypotheses.  Returns the hypotheses and
 * their number in *m, and the runs in *runs (NULL without replicates).
 */
static struct judge_hyp *
family(struct delta *d, size_t *up, size_t *hyp, size_t *m,
    struct agg *const *be, size_t nb, struct agg *const *ne, size_t nn,
    int64_t **runs, const unsigned char *bg)
{
	struct judge_hyp *h;
	size_t		 x, n = 0, w = nb + nn, k;
	int64_t		*rr = NULL;

	h = xcalloc(2 * d->nrows + 1, sizeof(*h));
	if (d->replicates)
		rr = xcalloc((2 * d->nrows + 1) * w, sizeof(*rr));
	for (x = 0; x < 2 * d->nrows; x++) {
		const struct delta_row *row = &d->rows[x / 2];
		int flat = x % 2 == 0;

		if (uf_find(up, x) != x) {
			hyp[x] = hyp[uf_find(up, x)];
			/* A leaf's cum is its own code's samples. */
			if (flat)
				h[hyp[x]].kind = bg != NULL && bg[x / 2] ?
				    JUDGE_FLAT_BG : JUDGE_FLAT;
			continue;
		}
		hyp[x] = n;
		h[n].kind = !flat ? JUDGE_CUM : bg != NULL && bg[x / 2] ?
		    JUDGE_FLAT_BG : JUDGE_FLAT;
		h[n].k1 = flat ? row->base_flat_count : row->base_count;
		h[n].k2 = flat ? row->new_flat_count : row->new_count;
		for (k = 0; rr != NULL && k < w; k++)
			rr[n * w + k] = delta_node_count(k < nb ? be[k] :
			    ne[k - nb], row->name, flat);
		n++;
	}
	*m = n;
	*runs = rr;
	return h;
}

/*
 * A row's verdict from its two hypotheses: a discovery whose change (of
 * its flat or its cum share) passes --min-effect flags it; cum decides
 * the direction when both do.
 */
static void
verdict(struct delta *d, struct delta_row *row)
{
	const struct judge *j = &d->judge;
	double	 bf = share(row->base_flat, d->base_vden);
	double	 nf = share(row->new_flat, d->new_vden);
	double	 bc = share(row->base_cum, d->base_vden);
	double	 nc = share(row->new_cum, d->new_vden);
	int	 f, c, sf, sc;

	sf = judge_significant(j, &row->flat);
	sc = judge_significant(j, &row->cum);
	f = sf && judge_relevant(j, bf, nf);
	c = sc && judge_relevant(j, bc, nc);
	row->small = !f && !c && ((sf && judge_small(j, bf, nf)) ||
	    (sc && judge_small(j, bc, nc)));
	if (f && c && (nf - bf) * (nc - bc) < 0)
		f = 0;		/* opposite ways: the cum change is the row's */
	row->hyp = (f ? DELTA_HYP_FLAT : 0) | (c ? DELTA_HYP_CUM : 0);
	if (row->hyp != 0 && row->same)
		row->hyp = DELTA_HYP_BOTH;
	row->relevant = judge_relevant(j, bc, nc);
	if (row->hyp == DELTA_HYP_FLAT) {
		row->tested = row->flat.tested;
		row->st = row->flat.st;
		row->q = row->flat.q;
	} else {
		row->tested = row->cum.tested;
		row->st = row->cum.st;
		row->q = row->cum.q;
	}
	if (row->hyp != 0)
		/* The direction of what was tested: the counts' shares. */
		row->verdict = row->st.diff > 0 ? VERDICT_REGRESSED :
		    VERDICT_IMPROVED;
	else if (judge_insufficient(j, &row->flat) &&
	    judge_insufficient(j, &row->cum))
		row->verdict = VERDICT_INSUFFICIENT;
	else
		row->verdict = VERDICT_UNCHANGED;
}

/*
 * What the statistics divide by (struct delta).  With an exposure, the
 * tests' totals are 2^50 split in the ratio of the exposures: a count
 * is then at most 2^-10 of its total for any profile of fewer than 2^40
 * samples, and the hypergeometric law of the 2x2 table is the binomial
 * one of Poisson counts given their sum, to a relative 2^-10 in the
 * variance.  The engine's shares are then of the pooled level: a change
 * of 1 is the two sides' total over their exposures.
 */
#define DELTA_EXPO_TOTAL	((double)(INT64_C(1) << 50))

static void
denominators(struct delta *d, const struct delta_opts *o)
{
	double	 eb = o->base_expo, en = o->new_expo, pool, cpool;

	d->min_pp = o->min_effect_pp;
	d->exposure = o->norm != DELTA_NORM_TOTAL && eb > 0 && en > 0;
	d->bounded = d->exposure && o->bounded;
	d->saturated = o->saturated;
	if (!d->exposure) {
		d->base_vden = (double)d->base_total;
		d->new_vden = (double)d->new_total;
		d->base_cden = d->base_n;
		d->new_cden = d->new_n;
		d->cscale = 1;
		d->level = 1;
		return;
	}
	pool = (double)d->base_total + (double)d->new_total;
	cpool = (double)d->base_n + (double)d->new_n;
	d->base_vden = pool * eb / (eb + en);
	d->new_vden = pool * en / (eb + en);
	d->base_cden = (int64_t)llround(DELTA_EXPO_TOTAL * eb / (eb + en));
	d->new_cden = (int64_t)llround(DELTA_EXPO_TOTAL * en / (eb + en));
	if (d->base_cden < 1)
		d->base_cden = 1;
	if (d->new_cden < 1)
		d->new_cden = 1;
	d->cscale = cpool > 0 ? DELTA_EXPO_TOTAL / cpool : 1;
	d->level = pool / (eb + en);
	if (o->wait_floor > 0 && d->level > 0 &&
	    100 * o->wait_floor / d->level < d->min_pp) {
		d->min_pp = 100 * o->wait_floor / d->level;
		d->floored = 1;
	}
}

/* Profile i's part of its side's total n, by its exposure (or equal). */
static int64_t
run_cden(const struct delta_opts *o, int64_t n, size_t i, int is_new,
    size_t runs)
{
	double	 side = is_new ? o->new_expo : o->base_expo;

	if (o->run_expo == NULL || side <= 0)
		return (int64_t)llround((double)n / (double)runs);
	return (int64_t)llround((double)n * o->run_expo[i] / side);
}

/* The family's numbers, from shares of cden to the engine's shares. */
static void
scale_family(struct delta *d, struct judge_hyp *h, size_t m)
{
	size_t	 i;

	for (i = 0; i < m; i++) {
		h[i].st.diff *= d->cscale;
		h[i].st.lo *= d->cscale;
		h[i].st.hi *= d->cscale;
	}
	if (d->mde >= 0)
		d->mde *= d->cscale;
	if (d->noise >= 0)
		d->noise *= d->cscale;
	d->mde_share *= d->cscale;
}

/*
 * The judge of the rows' family (delta.h): its options from o, and
 * between replicates each run's total, the denominator of its shares.
 */
void
delta_judge_init(struct judge *j, const struct delta_opts *o, double min_pp,
    int64_t n1, int64_t n2, struct agg *const *be, size_t nb,
    struct agg *const *ne, size_t nn)
{
	struct judge_opts	 jo;
	int64_t			*n1r = NULL, *n2r = NULL;
	size_t			 i;

	memset(&jo, 0, sizeof(jo));
	jo.alpha = o->alpha;
	jo.min_effect_pp = min_pp;
	jo.min_effect_rel = o->min_effect_rel;
	jo.has_counts = o->has_counts;
	if (nb >= 2 && nn >= 2 && be != NULL && ne != NULL) {
		n1r = xcalloc(nb, sizeof(*n1r));
		n2r = xcalloc(nn, sizeof(*n2r));
		for (i = 0; i < nb; i++)
			n1r[i] = o->norm == DELTA_NORM_TOTAL ?
			    agg_total(be[i], AGG_COUNT) : run_cden(o, n1, i, 0, nb);
		for (i = 0; i < nn; i++)
			n2r[i] = o->norm == DELTA_NORM_TOTAL ?
			    agg_total(ne[i], AGG_COUNT) :
			    run_cden(o, n2, nb + i, 1, nn);
	}
	judge_init(j, &jo, n1, n2, n1r, nb, n2r, nn);
	free(n1r);
	free(n2r);
}

/*
 * Judge the family of the rows' hypotheses and give each row its
 * verdict.  Returns 0, or -1 if a count is invalid for the statistics.
 */
static int
judge_rows(struct delta *d, const struct delta_opts *o,
    struct agg *const *be, size_t nb, struct agg *const *ne, size_t nn)
{
	struct judge_hyp	*h;
	int64_t			*runs;
	size_t			*up, *hyp, i, m;
	unsigned char		*bg = d->replicates ? NULL : spread_background(d);
	int			 rc = 0;

	delta_judge_init(&d->judge, o, d->min_pp, d->base_cden, d->new_cden,
	    be, nb, ne, nn);
	/* Windows of one process: no spread of their own to allow for. */
	if (o->same_process)
		d->judge.null_given = 1;
	/* One a side, the spread outside the changes (spread.c). */
	if (!d->replicates && !d->exposure && d->judge.o.has_counts &&
	    !d->judge.null_given && d->graph != NULL) {
		rc = spread_null(d, bg, &d->judge, &d->judge.null);
		d->judge.null_given = 1;
	}
	up = xcalloc(2 * d->nrows + 1, sizeof(*up));
	hyp = xcalloc(2 * d->nrows + 1, sizeof(*hyp));
	same_samples(d, up);
	h = family(d, up, hyp, &m, be, nb, ne, nn, &runs, bg);
	free(bg);
	if (rc == 0)
		rc = judge_family(&d->judge, h, m, runs);
	d->nhyp = m;
	d->ntested = d->judge.ntested;
	d->mde = d->judge.mde;
	d->noise = d->judge.noise;
	d->mde_share = d->judge.mde_share;
	if (d->exposure)
		scale_family(d, h, m);
	for (i = 0; i < d->nrows && rc == 0; i++) {
		struct delta_row *row = &d->rows[i];

		row->flat = h[hyp[2 * i]];
		row->cum = h[hyp[2 * i + 1]];
		row->same = hyp[2 * i] == hyp[2 * i + 1];
		verdict(d, row);
	}
	free(runs);
	free(h);
	free(hyp);
	free(up);
	return rc;
}

/*
 * The interval of a weighted change, the delta method's over the
 * moments of its values (stats_moment.c), in the engine's shares, at
 * the family's level, widened by the hypothesis's dispersion: the
 * interval of the change the table shows, which a test on counts alone
 * does not give when values per count differ (heap bytes, delay).
 * Returns 0, or -1 with st untouched when the moments cannot give one.
 */
static int
value_ci(const struct delta *d, const struct delta_opts *o, int64_t v1,
    const struct agg_moments *m1, int64_t v2, const struct agg_moments *m2,
    const struct agg_moments *t1, const struct agg_moments *t2,
    const struct judge_hyp *h, struct stats_result *st)
{
	struct stats_vsum	 a = { (double)v1, m1->c, m1->vv, m1->vc, m1->cc };
	struct stats_vsum	 b = { (double)v2, m2->c, m2->vv, m2->vc, m2->cc };
	struct stats_vsum	 ta = { (double)d->base_total, t1->c, t1->vv,
				    t1->vc, t1->cc };
	struct stats_vsum	 tb = { (double)d->new_total, t2->c, t2->vv,
				    t2->vc, t2->cc };
	struct stats_vci	 r;
	double			 w, scale = d->exposure && d->level > 0 ?
				    1 / d->level : 1;

	if ((d->exposure ? stats_vrate_diff(&a, o->base_expo, &b,
	    o->new_expo, d->judge.ci_alpha, &r) :
	    stats_vshare_diff(&a, &ta, &b, &tb, d->judge.ci_alpha, &r)) == -1)
		return -1;
	w = (r.hi - r.est) * (h->phi > 1 ? sqrt(h->phi) : 1);
	st->diff = scale * r.est;
	st->lo = scale * (r.est - w);
	st->hi = scale * (r.est + w);
	return 0;
}

/* Values per count on each side, and the interval of their change. */
static void
per_count(struct delta_row *row, const struct agg_moments *m1, int64_t v1,
    const struct agg_moments *m2, int64_t v2, double alpha)
{
	struct stats_vsum	 a = { (double)v1, m1->c, m1->vv, m1->vc, m1->cc };
	struct stats_vsum	 b = { (double)v2, m2->c, m2->vv, m2->vc, m2->cc };
	struct stats_vci	 r;

	if (m1->c <= 0 || m2->c <= 0 ||
	    stats_vratio_diff(&a, &b, alpha, &r) == -1)
		return;
	row->has_per = 1;
	row->per_base = a.v / a.c;
	row->per_new = b.v / b.c;
	row->per_lo = r.lo;
	row->per_hi = r.hi;
}

/*
 * Where the values' moments give no interval (a side with no values,
 * too few to have a variance), the counts' interval, in units of the
 * counts' change, is moved to sit on the values' change, est: no
 * interval of a row may leave out the change it shows.
 */
static void
on_values(struct stats_result *st, double est)
{
	st->lo += est - st->diff;
	st->hi += est - st->diff;
	st->diff = est;
}

/*
 * Weighted values: each hypothesis's interval is its values'
 * (value_ci()), and a row flagged by its counts keeps its verdict only
 * if its values' interval agrees (excludes no change, the same way):
 * the delta, the interval and the verdict of a row then say the same.
 */
static void
value_intervals(struct delta *d, const struct delta_opts *o)
{
	const struct delta_graph *g = d->graph;
	struct agg_moments	 bt, nt, zero, bf, bc, nf, nc;
	size_t			 i;

	memset(&zero, 0, sizeof(zero));
	if (agg_total_moments(g->base, &bt) == -1 ||
	    agg_total_moments(g->new, &nt) == -1)
		return;
	d->weighted = 1;
	for (i = 0; i < d->nrows; i++) {
		struct delta_row *row = &d->rows[i];
		int flat = row->hyp == DELTA_HYP_FLAT, dir;

		bf = bc = nf = nc = zero;
		if (i < g->nbase)
			(void)agg_moments(g->base, i, &bf, &bc);
		if (g->rnew[i] != SIZE_MAX)
			(void)agg_moments(g->new, g->rnew[i], &nf, &nc);
		if (row->flat.tested && value_ci(d, o, row->base_flat, &bf,
		    row->new_flat, &nf, &bt, &nt, &row->flat,
		    &row->flat.st) == -1)
			on_values(&row->flat.st, row->delta_flat_share);
		if (row->cum.tested && value_ci(d, o, row->base_cum, &bc,
		    row->new_cum, &nc, &bt, &nt, &row->cum,
		    &row->cum.st) == -1)
			on_values(&row->cum.st, row->delta_share);
		if (row->tested) {
			row->st.diff = flat ? row->flat.st.diff : row->cum.st.diff;
			row->st.lo = flat ? row->flat.st.lo : row->cum.st.lo;
			row->st.hi = flat ? row->flat.st.hi : row->cum.st.hi;
		}
		if (o->per_count)
			per_count(row, flat ? &bf : &bc, flat ? row->base_flat :
			    row->base_cum, flat ? &nf : &nc, flat ?
			    row->new_flat : row->new_cum, d->judge.ci_alpha);
		/* A small change's values must agree as well. */
		if (row->small && !(row->cum.tested && row->cum.st.lo *
		    row->cum.st.hi > 0) && !(row->flat.tested &&
		    row->flat.st.lo * row->flat.st.hi > 0))
			row->small = 0;
		if (row->verdict != VERDICT_REGRESSED &&
		    row->verdict != VERDICT_IMPROVED)
			continue;
		dir = row->verdict == VERDICT_REGRESSED ? 1 : -1;
		if (dir * row->st.lo > 0 && dir * row->st.hi > 0)
			continue;
		row->verdict = VERDICT_UNCHANGED;
		row->hyp = 0;
		d->disagree++;
	}
}

/*
 * Do a's samples differ in value per count?  Over its totals' moments,
 * vv is the sum of v^2 / n (n a sample's count, 1 when it has none) and
 * c the sum of counts, so vv c / v^2 - 1 is the squared coefficient of
 * variation of a sample's value per count, weighted by counts: 0, by
 * Cauchy-Schwarz, exactly when each sample's value is its count times
 * one constant.  Values of no count (agg_uncounted()) are not a slice
 * a count either.
 */
static int
per_count_varies(const struct agg *a, int64_t total)
{
	struct agg_moments	 t;
	double			 u, v;

	if (agg_total_moments(a, &t) == -1 || agg_uncounted(a, &u) == -1)
		return 0;
	if (u != 0)
		return 1;
	v = (double)total;
	return t.c > 0 && v > 0 && t.vv * t.c / (v * v) - 1 > DELTA_VALUED_CV2;
}

/*
 * What node i of a is (runtime.h), by its name, or by its file as the
 * profiler's own (agg_node_own()) in a or, at j >= 0, in b.
 */
static int
own_frame(const struct agg *a, size_t i, const struct agg *b, long j)
{
	enum rt_frame	 f = rt_frame_of(agg_node(a, i)->name);

	if (f == RT_CODE && (agg_node_own(a, i) ||
	    (j >= 0 && agg_node_own(b, (size_t)j))))
		f = RT_PROFILER;
	return (int)f;
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
		row->base_flat_count = bn->flat[AGG_COUNT];
		row->status = STATUS_GONE;
		if ((j = agg_find(new, bn->name)) >= 0) {
			const struct agg_node *nn_ = agg_node(new, (size_t)j);

			row->new_flat = nn_->flat[AGG_VALUE];
			row->new_cum = nn_->cum[AGG_VALUE];
			row->new_count = nn_->cum[AGG_COUNT];
			row->new_flat_count = nn_->flat[AGG_COUNT];
			row->status = STATUS_BOTH;
			nrow[j] = d->nrows;
			g->rnew[d->nrows] = (size_t)j;
		}
		row->frame = own_frame(base, i, new, j);
		brow[i] = d->nrows++;
	}
	for (i = 0; i < nnew; i++) {
		const struct agg_node *nn_ = agg_node(new, i);
		struct delta_row *row;

		if (nrow[i] != SIZE_MAX)	/* its name is in base */
			continue;
		row = &d->rows[d->nrows];
		row->name = nn_->name;
		row->frame = own_frame(new, i, NULL, -1);
		row->new_flat = nn_->flat[AGG_VALUE];
		row->new_cum = nn_->cum[AGG_VALUE];
		row->new_count = nn_->cum[AGG_COUNT];
		row->new_flat_count = nn_->flat[AGG_COUNT];
		row->status = STATUS_NEW;
		g->rnew[d->nrows] = i;
		nrow[i] = d->nrows++;
	}
}

/* Each row's values, normalized, and its changes. */
static void
normalize_rows(struct delta *d, const struct delta_opts *o)
{
	size_t i;

	for (i = 0; i < d->nrows; i++) {
		struct delta_row *row = &d->rows[i];

		row->base_flat_n = norm(row->base_flat, d->base_total,
		    o->base_expo, o->norm);
		row->new_flat_n = norm(row->new_flat, d->new_total,
		    o->new_expo, o->norm);
		row->base_cum_n = norm(row->base_cum, d->base_total,
		    o->base_expo, o->norm);
		row->new_cum_n = norm(row->new_cum, d->new_total,
		    o->new_expo, o->norm);
		row->delta = row->new_cum_n - row->base_cum_n;
		row->delta_flat = row->new_flat_n - row->base_flat_n;
		row->rel = row->base_cum_n != 0 ? row->delta /
		    fabs(row->base_cum_n) : row->delta != 0 ? HUGE_VAL : 0;
		/* Verdicts and findings are on shares, whatever norm. */
		row->delta_share = share(row->new_cum, d->new_vden) -
		    share(row->base_cum, d->base_vden);
		row->delta_flat_share = share(row->new_flat, d->new_vden) -
		    share(row->base_flat, d->base_vden);
		row->q = NAN;
		row->finding = -1;
	}
}

/* The graph: the sides' edges indexed by node, and the maps to rows. */
static struct delta_graph *
graph_new(struct agg *base, struct agg *new, const struct delta_opts *o)
{
	size_t		 nbase = agg_nnodes(base), nnew = agg_nnodes(new);
	struct delta_graph *g;

	g = xcalloc(1, sizeof(*g));
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
	g->dir = xcalloc(nbase + nnew + 1, sizeof(*g->dir));
	/* No-ops if the sides' own threads indexed them (load.c). */
	agg_index_edges(base);
	agg_index_edges(new);
	return g;
}

int
delta_compute(struct agg *base, struct agg *new,
    struct agg *const *be, size_t nb, struct agg *const *ne, size_t nn,
    const struct delta_opts *o, struct delta *d)
{
	size_t	 i;

	memset(d, 0, sizeof(*d));
	d->base_total = agg_total(base, AGG_VALUE);
	d->new_total = agg_total(new, AGG_VALUE);
	d->base_n = agg_total(base, AGG_COUNT);
	d->new_n = agg_total(new, AGG_COUNT);
	d->replicates = nb >= 2 && nn >= 2;
	denominators(d, o);
	d->rows = xcalloc(agg_nnodes(base) + agg_nnodes(new) + 1,
	    sizeof(*d->rows));
	d->graph = graph_new(base, new, o);
	if (d->replicates) {
		d->graph->be = be;
		d->graph->ne = ne;
		d->graph->nb = nb;
		d->graph->nn = nn;
	}
	join_rows(d, d->graph);
	normalize_rows(d, o);
	if (judge_rows(d, o, be, nb, ne, nn) == -1)
		return -1;
	if (o->weighted || (o->valued && (per_count_varies(base,
	    d->base_total) || per_count_varies(new, d->new_total))))
		value_intervals(d, o);
	if (delta_findings(d, &d->judge) == -1)
		return -1;
	/* The rows' paths walk through the rows that changed as they did. */
	for (i = 0; i < d->nrows; i++)
		d->graph->dir[i] = d->rows[i].verdict == VERDICT_REGRESSED ?
		    1 : d->rows[i].verdict == VERDICT_IMPROVED ? -1 : 0;
	return 0;
}

static void
finding_free(struct delta_finding *f)
{
	free(f->path);
	free(f->rows);
	free(f->crowded);
	free(f->under);
	free(f->moved);
	free(f->background);
	free(f->joined);
}

void
delta_keep_findings(struct delta *d,
    int (*keep)(void *, const struct delta *, const struct delta_finding *),
    void *arg)
{
	long	*to = xcalloc(d->nfindings + 1, sizeof(*to));
	size_t	 i, k = 0;

	for (i = 0; i < d->nfindings; i++) {
		if (keep(arg, d, &d->findings[i])) {
			to[i] = (long)k;
			d->findings[k++] = d->findings[i];
		} else {
			to[i] = -1;
			finding_free(&d->findings[i]);
		}
	}
	/* The rows' findings by their new places; -1, none, if dropped. */
	for (i = 0; i < d->nrows; i++)
		if (d->rows[i].finding >= 0)
			d->rows[i].finding = to[d->rows[i].finding];
	free(to);
	d->nfindings = k;
}

void
delta_release(struct delta *d)
{
	size_t i;

	for (i = 0; i < d->nrows; i++) {
		free(d->rows[i].path);
		free(d->rows[i].callers);
	}
	for (i = 0; i < d->nfindings; i++)
		finding_free(&d->findings[i]);
	free(d->findings);
	free(d->rows);
	graph_free(d->graph);
	calls_free(d->calls);
	d->calls = NULL;
	judge_release(&d->judge);
	memset(d, 0, sizeof(*d));
}

int
delta_finding_gates(const struct delta_finding *f)
{
	/* The waits' follow the load, not code. */
	return f->runtime != RT_WAIT;
}

int
delta_exit_status(const struct delta *d, const struct delta_opts *o,
    enum delta_fail_on fail_on, int *regressed)
{
	size_t	 i;
	int	 reg = 0, imp = 0;

	for (i = 0; i < d->nfindings; i++) {
		if (!delta_finding_gates(&d->findings[i]))
			continue;
		if (d->findings[i].verdict == VERDICT_REGRESSED)
			reg = 1;
		else
			imp = 1;
	}
	*regressed = reg;
	/*
	 * Counts that may be several times the samples taken, with nothing
	 * to measure by how much (one profile a side, approx), make
	 * p-values too small by an unknown factor; sums over windows of
	 * unknown length (untimed) differ as the windows do.  A finding on
	 * either is a lead, and the gate can neither pass nor fail.
	 */
	if (reg || (fail_on == DELTA_FAIL_ANY_CHANGE && imp))
		return o->approx || o->untimed ? 3 : 1;
	/*
	 * A change that passes --min-effect at the hardest share (in
	 * points, or relative to that share) could have been missed, at
	 * the threshold a discovery needs.
	 */
	if (!o->has_counts || d->mde < 0 || d->mde * 100 >
	    fmax(d->min_pp, o->min_effect_rel * d->mde_share))
		return 3;
	return 0;
}

size_t
delta_small(const struct delta *d, size_t *out, size_t max)
{
	struct delta_key *k;
	size_t		 i, n = 0;

	k = xreallocarray(NULL, d->nrows + 1, sizeof(*k));
	for (i = 0; i < d->nrows; i++) {
		const struct delta_row *row = &d->rows[i];

		if (!row->small)
			continue;
		k[n].key = row->status == STATUS_NEW ||
		    row->status == STATUS_GONE ? HUGE_VAL : fabs(row->rel);
		k[n].name = row->name;
		k[n++].idx = i;
	}
	qsort(k, n, sizeof(*k), delta_key_cmp);
	for (i = 0; i < n && i < max; i++)
		out[i] = k[i].idx;
	free(k);
	return n;
}

/*
 * Every row's region (delta_region()) from the dominator tree of the
 * union call graph, in time and memory linear in the rows and calls
 * (times the log of the rows: Lengauer and Tarjan's simple version).
 * Issue 30: findings.c asked delta_region() once a group, each answer
 * a walk and an array of every row, and a stack 65,000 frames deep
 * made a group of nearly every row: the square of the depth in time
 * and memory (51 s and 1.9 GB).
 *
 * The graph.  A row joins a region when each of its callers does, on
 * each side where its cum is not 0, and its edges in carry all of its
 * value there (delta_region_callers(): those callers, or "never" for a
 * row with samples it is the outermost frame of).  Those callers are
 * the row's predecessors here; a row that never joins, and one that no
 * such row reaches, hangs from a root, ENTRY.
 *
 * The greatest region of x (delta_region() on a row that reaches at
 * most DELTA_REGION_WALK rows): the greatest set of x's descendants
 * each of whose callers is in it.  Every path from ENTRY to one of them
 * passes x, so the set is within what x dominates; and what x
 * dominates is such a set.  It is x's subtree of the dominator tree.
 *
 * The region grown from x (a row that reaches more): the rows that
 * join once their callers have, starting from x alone, which leaves
 * out a cycle none of whose rows can join first, and all below it.
 * For x on no cycle: a row r of x's subtree is left out when a row of
 * a cycle below x reaches it, and such a cycle lies in x's subtree.
 * Those x form a chain above r in the tree, the rows down to cut[r]:
 * the deepest dominator of r that strictly dominates a row of a cycle
 * that reaches r.  A row on a cycle cuts at its parent; any other row
 * at the deepest of its callers' cuts, no deeper than its parent.  So
 * r is in the region grown from x when x is deeper than cut[r].
 *
 * What the tree cannot say is left to delta_region() (kept, one array
 * a row asked, as before): a row that reaches a row no root reaches
 * (a recursion with no outermost frame, a row of no value), and a row
 * on a cycle whose region is grown.  Whether a row reaches few rows
 * is delta_region_small()'s walk, taken once a row, and only where the
 * two regions differ and a row asked lies in the subtree; a row that
 * dominates more than the walk's rows reaches them all, and needs none.
 * tests/unit/t_region.c compares every answer with delta_region()'s on
 * random graphs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/delta.h"
#include "core/region.h"
#include "core/scc.h"
#include "support/xmalloc.h"

#define NONE	SIZE_MAX

/* How a row's region is found. */
enum {
	RK_TREE = 1,	/* the greatest: its subtree */
	RK_GROWN,	/* grown from it: its subtree, less what is cut */
	RK_SLOW,	/* delta_region()'s own, kept */
	RK_CYCLE,	/* on a cycle: RK_TREE if it reaches few, else slow */
	RK_DECIDE,	/* RK_TREE if it reaches few, else RK_GROWN */
};

struct region_index {
	struct delta	*d;
	size_t		 n;		/* rows; ENTRY is node n */
	size_t		*idom;		/* node -> its parent; ENTRY's NONE */
	size_t		*place;		/* node -> rank in the preorder */
	size_t		*at;		/* rank -> node */
	size_t		*size;		/* nodes in its subtree, itself too */
	long		*depth;		/* ENTRY's 0 */
	long		*cut;		/* see above; -1: none */
	unsigned char	*kind;
	unsigned char	**slow;		/* RK_SLOW regions, by row */
	size_t		 walks;		/* delta_region_small() calls */
	size_t		 lazy;		/* regions asked before it is built */
	size_t		 nslow;		/* slow[] arrays */
	int		 built;
	unsigned char	*zero;		/* n + 1 zeros, scratch */
	size_t		*stack;		/* n + 1, scratch */
};

/* The graph the tree is built from, in compressed rows. */
struct rgraph {
	size_t		 n;
	size_t		*poff, *pred;	/* callers by row */
	size_t		*soff, *succ;	/* callees by row */
	unsigned char	*root;		/* hangs from ENTRY */
	size_t		*roots, nroots;
};

static void
graph_build(struct delta *d, struct rgraph *gr, unsigned char *never)
{
	size_t	 n = d->nrows, *v = NULL, cap = 0, pcap = 0, r, i, j, *fill;
	long	 m;

	gr->n = n;
	gr->poff = xcalloc(n + 2, sizeof(*gr->poff));
	gr->pred = NULL;
	for (r = 0, j = 0; r < n; r++) {
		if ((m = delta_region_callers(d, r, &v, &cap)) < 0) {
			never[r] = 1;
			m = 0;
		}
		/* Grown by half again, not by each row's callers. */
		if (j + (size_t)m + 1 > pcap) {
			pcap = j + (size_t)m + 1 + pcap / 2;
			gr->pred = xreallocarray(gr->pred, pcap,
			    sizeof(*gr->pred));
		}
		if (m > 0)
			memcpy(gr->pred + j, v, (size_t)m * sizeof(*v));
		j += (size_t)m;
		gr->poff[r + 1] = j;
	}
	free(v);
	gr->soff = xcalloc(n + 2, sizeof(*gr->soff));
	gr->succ = xreallocarray(NULL, j + 1, sizeof(*gr->succ));
	for (i = 0; i < j; i++)
		gr->soff[gr->pred[i] + 1]++;
	for (r = 0; r < n; r++)
		gr->soff[r + 1] += gr->soff[r];
	fill = xreallocarray(NULL, n + 1, sizeof(*fill));
	memcpy(fill, gr->soff, (n + 1) * sizeof(*fill));
	for (r = 0; r < n; r++)
		for (i = gr->poff[r]; i < gr->poff[r + 1]; i++)
			gr->succ[fill[gr->pred[i]]++] = r;
	free(fill);
}

/*
 * The roots: the rows that never join, and every row they do not
 * reach (marked in lost[]).
 */
static void
graph_roots(struct rgraph *gr, const unsigned char *never,
    unsigned char *lost)
{
	size_t	 n = gr->n, *q, qh = 0, qt = 0, r, i, s;

	q = xreallocarray(NULL, n + 1, sizeof(*q));
	memset(lost, 1, n);
	for (r = 0; r < n; r++)
		if (never[r]) {
			lost[r] = 0;
			q[qt++] = r;
		}
	while (qh < qt)
		for (r = q[qh++], i = gr->soff[r]; i < gr->soff[r + 1]; i++)
			if (lost[s = gr->succ[i]]) {
				lost[s] = 0;
				q[qt++] = s;
			}
	free(q);
	gr->root = xcalloc(n + 1, 1);
	gr->roots = xreallocarray(NULL, n + 1, sizeof(*gr->roots));
	gr->nroots = 0;
	for (r = 0; r < n; r++)
		if (never[r] || lost[r]) {
			gr->root[r] = 1;
			gr->roots[gr->nroots++] = r;
		}
}

static void
graph_free(struct rgraph *gr)
{
	free(gr->poff);
	free(gr->pred);
	free(gr->soff);
	free(gr->succ);
	free(gr->root);
	free(gr->roots);
}

static void	build(struct region_index *);

/* Node v's k-th successor (ENTRY's are the roots), or NONE. */
static size_t
succ_of(const struct rgraph *gr, size_t v, size_t k)
{
	if (v == gr->n)
		return k < gr->nroots ? gr->roots[k] : NONE;
	return gr->soff[v] + k < gr->soff[v + 1] ? gr->succ[gr->soff[v] + k] :
	    NONE;
}

/* Lengauer and Tarjan's state, by node. */
struct lt {
	size_t	*dfn, *vert, *parent, *semi, *label, *anc, *bhead, *bnext;
	size_t	*cst;		/* compress()'s stack */
};

static void
compress(struct lt *t, size_t v)
{
	size_t	 top = 0, a;

	while (t->anc[t->anc[v]] != NONE) {
		t->cst[top++] = v;
		v = t->anc[v];
	}
	while (top > 0) {
		v = t->cst[--top];
		a = t->anc[v];
		if (t->semi[t->label[a]] < t->semi[t->label[v]])
			t->label[v] = t->label[a];
		t->anc[v] = t->anc[a];
	}
}

static size_t
eval(struct lt *t, size_t v)
{
	if (t->anc[v] == NONE)
		return v;
	compress(t, v);
	return t->label[v];
}

/* Depth-first from ENTRY: the preorder numbers; returns how many. */
static size_t
lt_dfs(const struct rgraph *gr, struct lt *t)
{
	size_t	 N = gr->n + 1, *st, *it, sp = 0, cnt = 0, v, w;

	st = xreallocarray(NULL, N, sizeof(*st));
	it = xcalloc(N, sizeof(*it));
	t->dfn[gr->n] = cnt;
	t->vert[cnt++] = gr->n;
	st[sp++] = gr->n;
	while (sp > 0) {
		v = st[sp - 1];
		if ((w = succ_of(gr, v, it[v]++)) == NONE) {
			sp--;
			continue;
		}
		if (t->dfn[w] != NONE)
			continue;
		t->dfn[w] = cnt;
		t->vert[cnt++] = w;
		t->parent[w] = v;
		st[sp++] = w;
	}
	free(st);
	free(it);
	return cnt;
}

/* The immediate dominator of every node into idom[] (ENTRY's: NONE). */
static void
dominators(const struct rgraph *gr, size_t *idom)
{
	struct lt t;
	size_t	 N = gr->n + 1, cnt, i, k, v, u, w, p;

	t.dfn = xreallocarray(NULL, N, sizeof(size_t));
	t.vert = xreallocarray(NULL, N, sizeof(size_t));
	t.parent = xreallocarray(NULL, N, sizeof(size_t));
	t.semi = xreallocarray(NULL, N, sizeof(size_t));
	t.label = xreallocarray(NULL, N, sizeof(size_t));
	t.anc = xreallocarray(NULL, N, sizeof(size_t));
	t.bhead = xreallocarray(NULL, N, sizeof(size_t));
	t.bnext = xreallocarray(NULL, N, sizeof(size_t));
	t.cst = xreallocarray(NULL, N, sizeof(size_t));
	for (v = 0; v < N; v++) {
		t.dfn[v] = t.parent[v] = t.anc[v] = t.bhead[v] = NONE;
		t.label[v] = v;
		idom[v] = NONE;
	}
	cnt = lt_dfs(gr, &t);	/* every node: the roots reach all */
	for (v = 0; v < N; v++)
		t.semi[v] = t.dfn[v];
	for (i = cnt - 1; i >= 1; i--) {
		w = t.vert[i];
		for (k = gr->poff[w]; k <= gr->poff[w + 1]; k++) {
			/* Its callers, then ENTRY if it is a root. */
			if (k < gr->poff[w + 1])
				v = gr->pred[k];
			else if (gr->root[w])
				v = gr->n;
			else
				break;
			u = eval(&t, v);
			if (t.semi[u] < t.semi[w])
				t.semi[w] = t.semi[u];
		}
		v = t.vert[t.semi[w]];
		t.bnext[w] = t.bhead[v];
		t.bhead[v] = w;
		p = t.parent[w];
		t.anc[w] = p;
		for (v = t.bhead[p]; v != NONE; v = t.bnext[v]) {
			u = eval(&t, v);
			idom[v] = t.semi[u] < t.semi[v] ? u : p;
		}
		t.bhead[p] = NONE;
	}
	for (i = 1; i < cnt; i++) {
		w = t.vert[i];
		if (idom[w] != t.vert[t.semi[w]])
			idom[w] = idom[idom[w]];
	}
	free(t.dfn);
	free(t.vert);
	free(t.parent);
	free(t.semi);
	free(t.label);
	free(t.anc);
	free(t.bhead);
	free(t.bnext);
	free(t.cst);
}

/* The tree's preorder, subtree sizes and depths, from idom[]. */
static void
tree_order(struct region_index *ri, const size_t *idom)
{
	size_t	 N = ri->n + 1, *coff, *kid, *fill, *st, sp = 0, cnt = 0;
	size_t	 v, i, k;

	coff = xcalloc(N + 1, sizeof(*coff));
	kid = xreallocarray(NULL, N, sizeof(*kid));
	for (v = 0; v < N; v++)
		if (idom[v] != NONE)
			coff[idom[v] + 1]++;
	for (v = 0; v < N; v++)
		coff[v + 1] += coff[v];
	fill = xreallocarray(NULL, N, sizeof(*fill));
	memcpy(fill, coff, N * sizeof(*fill));
	for (v = 0; v < N; v++)
		if (idom[v] != NONE)
			kid[fill[idom[v]]++] = v;
	st = fill;
	st[sp++] = ri->n;
	ri->depth[ri->n] = 0;
	while (sp > 0) {
		v = st[--sp];
		ri->place[v] = cnt;
		ri->at[cnt++] = v;
		for (k = coff[v]; k < coff[v + 1]; k++) {
			ri->depth[kid[k]] = ri->depth[v] + 1;
			st[sp++] = kid[k];
		}
	}
	for (v = 0; v < N; v++)
		ri->size[v] = 1;
	for (i = cnt; i-- > 1;) {
		v = ri->at[i];
		ri->size[idom[v]] += ri->size[v];
	}
	free(coff);
	free(kid);
	free(fill);
}

/*
 * The strongly connected components of the callers' graph (scc.c):
 * cyc[] marks the rows of a cycle, and ord[] gets the rows with callers
 * before callees, a component's rows together: the components in the
 * reverse of the order they complete, which puts one after every one
 * that reaches it.
 */
static void
components(const struct rgraph *gr, unsigned char *cyc, size_t *ord)
{
	size_t	 n = gr->n, *comp, *pop, *size, ncomp, i;

	comp = xreallocarray(NULL, n + 1, sizeof(*comp));
	pop = xreallocarray(NULL, n + 1, sizeof(*pop));
	ncomp = scc_tarjan(n, gr->soff, gr->succ, comp, pop);
	size = xcalloc(ncomp + 1, sizeof(*size));
	for (i = 0; i < n; i++)
		size[comp[i]]++;
	for (i = 0; i < n; i++) {
		ord[n - 1 - i] = pop[i];
		if (size[comp[pop[i]]] > 1)
			cyc[pop[i]] = 1;
	}
	free(size);
	free(pop);
	free(comp);
}

/* cut[] in the callers' order (ord[]), from the depths. */
static void
cuts(struct region_index *ri, const struct rgraph *gr,
    const unsigned char *cyc, const size_t *ord)
{
	size_t	 i, k, r;
	long	 c, up;

	ri->cut[gr->n] = -1;
	for (i = 0; i < gr->n; i++) {
		r = ord[i];
		up = ri->depth[r] - 1;
		if (cyc[r]) {
			ri->cut[r] = up;
			continue;
		}
		ri->cut[r] = -1;
		for (k = gr->poff[r]; k < gr->poff[r + 1]; k++) {
			c = ri->cut[gr->pred[k]];
			c = c < up ? c : up;
			if (c > ri->cut[r])
				ri->cut[r] = c;
		}
	}
}

/*
 * Each row's kind: RK_TREE where no cut in its subtree is as deep as
 * itself (its two regions are one), RK_DECIDE where one is, RK_CYCLE on
 * a cycle; then RK_SLOW for every row that reaches a lost one, found
 * backwards from them along every call of either side.
 */
static void
kinds(struct region_index *ri, const unsigned char *cyc,
    const unsigned char *lost)
{
	const struct delta_edge *e;
	size_t	 n = ri->n, *q, qh = 0, qt = 0, i, k, m, v, p;
	long	*below, c;

	below = xreallocarray(NULL, n + 1, sizeof(*below));
	for (v = 0; v <= n; v++)
		below[v] = -1;
	for (i = n + 1; i-- > 1;) {
		v = ri->at[i];
		p = ri->idom[v];
		c = ri->cut[v] > below[v] ? ri->cut[v] : below[v];
		if (c > below[p])
			below[p] = c;
	}
	for (v = 0; v < n; v++)
		ri->kind[v] = cyc[v] ? RK_CYCLE : below[v] < ri->depth[v] ?
		    RK_TREE : RK_DECIDE;
	free(below);
	q = xreallocarray(NULL, n + 1, sizeof(*q));
	for (v = 0; v < n; v++)
		if (lost[v]) {
			ri->kind[v] = RK_SLOW;
			q[qt++] = v;
		}
	while (qh < qt) {
		m = delta_edges(ri->d, q[qh++], 0, &e);
		for (k = 0; k < m; k++)
			if (ri->kind[e[k].from] != RK_SLOW) {
				ri->kind[e[k].from] = RK_SLOW;
				q[qt++] = e[k].from;
			}
	}
	free(q);
}

struct region_index *
region_new(struct delta *d, size_t lazy)
{
	struct region_index *ri = xcalloc(1, sizeof(*ri));
	size_t		 N = d->nrows + 1;

	ri->d = d;
	ri->n = d->nrows;
	ri->lazy = lazy;
	ri->slow = xcalloc(N, sizeof(*ri->slow));
	ri->stack = xreallocarray(NULL, N, sizeof(*ri->stack));
	if (lazy == 0)
		build(ri);
	return ri;
}

/* The tree and each row's kind, once. */
static void
build(struct region_index *ri)
{
	struct rgraph	 gr;
	struct delta	*d = ri->d;
	size_t		 N = ri->n + 1, *ord;
	unsigned char	*never, *lost, *cyc;

	ri->built = 1;
	never = xcalloc(N, 1);
	lost = xcalloc(N, 1);
	cyc = xcalloc(N, 1);
	graph_build(d, &gr, never);
	graph_roots(&gr, never, lost);
	ri->idom = xreallocarray(NULL, N, sizeof(*ri->idom));
	ri->place = xreallocarray(NULL, N, sizeof(*ri->place));
	ri->at = xreallocarray(NULL, N, sizeof(*ri->at));
	ri->size = xreallocarray(NULL, N, sizeof(*ri->size));
	ri->depth = xreallocarray(NULL, N, sizeof(*ri->depth));
	ri->cut = xreallocarray(NULL, N, sizeof(*ri->cut));
	ri->kind = xcalloc(N, 1);
	ri->zero = xcalloc(N, 1);
	dominators(&gr, ri->idom);
	tree_order(ri, ri->idom);
	ord = xreallocarray(NULL, N, sizeof(*ord));
	components(&gr, cyc, ord);
	cuts(ri, &gr, cyc, ord);
	kinds(ri, cyc, lost);
	free(ord);
	free(never);
	free(lost);
	free(cyc);
	graph_free(&gr);
}

void
region_free(struct region_index *ri)
{
	size_t i;

	if (ri == NULL)
		return;
	for (i = 0; i < ri->n; i++)
		free(ri->slow[i]);
	free(ri->slow);
	free(ri->idom);
	free(ri->place);
	free(ri->at);
	free(ri->size);
	free(ri->depth);
	free(ri->cut);
	free(ri->kind);
	free(ri->zero);
	free(ri->stack);
	free(ri);
}

/*
 * x's kind, the walk taken the first time it is needed.  Until the
 * index is built, the first rows asked are delta_region()'s own (most
 * diffs ask for a few regions only); the next one builds it.  Without
 * decide, RK_DECIDE and RK_CYCLE are left so: either region lies in
 * x's subtree (a row joins once its callers have, so x dominates it),
 * and a row outside it is not in it, whatever the walk would say.
 */
static int
kind_of(struct region_index *ri, size_t x, int decide)
{
	int small;

	if (!ri->built) {
		if (ri->slow[x] != NULL || ri->nslow < ri->lazy)
			return RK_SLOW;
		build(ri);
	}
	if (decide && (ri->kind[x] == RK_CYCLE || ri->kind[x] == RK_DECIDE)) {
		/*
		 * x reaches every row it dominates: a subtree of more than
		 * the walk's rows answers without it.
		 */
		if (ri->size[x] > DELTA_REGION_WALK)
			small = 0;
		else {
			small = delta_region_small(ri->d, x, ri->zero,
			    ri->stack);
			ri->walks++;
		}
		ri->kind[x] = small ? RK_TREE : ri->kind[x] == RK_CYCLE ?
		    RK_SLOW : RK_GROWN;
	}
	return ri->kind[x];
}

static const unsigned char *
slow_region(struct region_index *ri, size_t x)
{
	if (ri->slow[x] == NULL) {
		ri->nslow++;
		ri->slow[x] = xcalloc(ri->n + 1, 1);
		delta_region(ri->d, x, ri->slow[x], ri->stack);
	}
	return ri->slow[x];
}

int
region_has(struct region_index *ri, size_t x, size_t r)
{
	int k = kind_of(ri, x, 0);

	if (k == RK_SLOW)
		return slow_region(ri, x)[r];
	if (ri->place[r] < ri->place[x] ||
	    ri->place[r] >= ri->place[x] + ri->size[x])
		return 0;
	if (r == x)
		return 1;
	if (k == RK_DECIDE && ri->depth[x] > ri->cut[r])
		return 1;	/* in the region grown from x, so in both */
	if (k == RK_DECIDE || k == RK_CYCLE)
		k = kind_of(ri, x, 1);
	if (k == RK_SLOW)
		return slow_region(ri, x)[r];
	return k == RK_TREE || ri->depth[x] > ri->cut[r];
}

void
region_fill(struct region_index *ri, size_t x, unsigned char *in)
{
	size_t	 i, r;
	int	 k = kind_of(ri, x, 1);

	if (k == RK_SLOW) {
		memcpy(in, slow_region(ri, x), ri->n);
		return;
	}
	for (i = ri->place[x]; i < ri->place[x] + ri->size[x]; i++) {
		r = ri->at[i];
		if (k == RK_TREE || r == x || ri->depth[x] > ri->cut[r])
			in[r] = 1;
	}
}

int
region_span(struct region_index *ri, size_t x, size_t *lo, size_t *hi)
{
	if (kind_of(ri, x, 0) == RK_SLOW)
		return 0;
	*lo = ri->place[x];
	*hi = ri->place[x] + ri->size[x];
	return 1;
}

size_t
region_place(struct region_index *ri, size_t r)
{
	if (!ri->built)
		build(ri);
	return ri->place[r];
}

void
region_stats(const struct region_index *ri, struct region_stats *st)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	st->walks = ri->walks;
	for (i = 0; i < ri->n; i++) {
		if (ri->built && ri->kind[i] == RK_TREE)
			st->tree++;
		else if (ri->built && ri->kind[i] == RK_GROWN)
			st->grown++;
		else if (ri->slow[i] != NULL)
			st->slow++;
	}
}

/*
 * The grouping of a series' changes, on the union of the points' calls
 * (series_int.h), without a walk of the graph for each pair of changes.
 *
 * group() in series.c looked, for each cum change i, through the
 * changes near it (same place and direction) for the largest one of a
 * function that i's function reaches through calls.  Here the graph's
 * strongly connected components are taken once, callees first; then,
 * for each place (the changes near one another share one, or one of
 * its neighbours), the largest such change below each component is
 * carried up from the callees to their callers, over the components
 * that reach a change at that place only.  What i's function reaches is
 * its component (when that is a cycle) and every component below it:
 * the largest change there of another function is i's answer; two are
 * kept a component, of two functions, so that i's own is never it.
 * Each place costs a pass over what reaches its changes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/series.h"
#include "core/series_int.h"
#include "core/scc.h"
#include "support/xmalloc.h"

#define NONE	SIZE_MAX

struct series_graph {
	size_t		 n;		/* functions */
	size_t		*ooff, *out;	/* callees by caller */
	size_t		*ioff, *in;	/* callers by callee */
	size_t		*comp;		/* by function; callees' first */
	size_t		 ncomp;
	size_t		*coff, *cmem;	/* functions by component */
	unsigned	*up, *down, *sup, *sdown;	/* marks, done */
	unsigned	 now;
	size_t		*queue;
};

/* The components (scc.c), numbered callees first, and their members. */
static void
components(struct series_graph *g)
{
	size_t	 n = g->n, v, k, *fill;

	g->comp = xreallocarray(NULL, n + 1, sizeof(*g->comp));
	g->ncomp = scc_tarjan(n, g->ooff, g->out, g->comp, NULL);
	g->coff = xcalloc(g->ncomp + 2, sizeof(*g->coff));
	g->cmem = xreallocarray(NULL, n + 1, sizeof(*g->cmem));
	for (v = 0; v < n; v++)
		g->coff[g->comp[v] + 1]++;
	for (k = 0; k < g->ncomp; k++)
		g->coff[k + 1] += g->coff[k];
	fill = xreallocarray(NULL, g->ncomp + 1, sizeof(*fill));
	memcpy(fill, g->coff, (g->ncomp + 1) * sizeof(*fill));
	for (v = 0; v < n; v++)
		g->cmem[fill[g->comp[v]]++] = v;
	free(fill);
}

struct series_graph *
series_graph_new(const struct series *s)
{
	struct series_graph *g = xcalloc(1, sizeof(*g));
	size_t	 n = s->nfuncs, i, *fo, *fi;

	g->n = n;
	g->ooff = xcalloc(n + 2, sizeof(*g->ooff));
	g->ioff = xcalloc(n + 2, sizeof(*g->ioff));
	g->out = xreallocarray(NULL, s->nedges + 1, sizeof(*g->out));
	g->in = xreallocarray(NULL, s->nedges + 1, sizeof(*g->in));
	for (i = 0; i < s->nedges; i++) {
		g->ooff[s->edges[i].caller + 1]++;
		g->ioff[s->edges[i].callee + 1]++;
	}
	for (i = 0; i < n; i++) {
		g->ooff[i + 1] += g->ooff[i];
		g->ioff[i + 1] += g->ioff[i];
	}
	fo = xreallocarray(NULL, n + 1, sizeof(*fo));
	fi = xreallocarray(NULL, n + 1, sizeof(*fi));
	memcpy(fo, g->ooff, (n + 1) * sizeof(*fo));
	memcpy(fi, g->ioff, (n + 1) * sizeof(*fi));
	for (i = 0; i < s->nedges; i++) {
		g->out[fo[s->edges[i].caller]++] = s->edges[i].callee;
		g->in[fi[s->edges[i].callee]++] = s->edges[i].caller;
	}
	free(fo);
	free(fi);
	g->up = xcalloc(n + 1, sizeof(*g->up));
	g->down = xcalloc(n + 1, sizeof(*g->down));
	g->sup = xcalloc(n + 1, sizeof(*g->sup));
	g->sdown = xcalloc(n + 1, sizeof(*g->sdown));
	g->queue = xreallocarray(NULL, n + 1, sizeof(*g->queue));
	components(g);
	return g;
}

void
series_graph_free(struct series_graph *g)
{
	if (g == NULL)
		return;
	free(g->ooff);
	free(g->out);
	free(g->ioff);
	free(g->in);
	free(g->comp);
	free(g->coff);
	free(g->cmem);
	free(g->up);
	free(g->down);
	free(g->sup);
	free(g->sdown);
	free(g->queue);
	free(g);
}

/* A change's place as near() compares them. */
struct place {
	size_t		 at, until;	/* until: a transient's, else 0 */
	int		 tr, up;
};

static struct place
place_of(const struct series_change *c)
{
	struct place p;

	p.tr = c->verdict == SERIES_TRANSIENT;
	p.up = c->after > c->before;
	p.at = c->at;
	p.until = p.tr ? c->until : 0;
	return p;
}

static int
place_cmp(const struct place *a, const struct place *b)
{
	if (a->tr != b->tr)
		return a->tr < b->tr ? -1 : 1;
	if (a->up != b->up)
		return a->up < b->up ? -1 : 1;
	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	return a->until < b->until ? -1 : a->until > b->until;
}

static const struct series_change *sort_v;

static int
cmp_by_place(const void *a, const void *b)
{
	struct place x = place_of(&sort_v[*(const size_t *)a]);
	struct place y = place_of(&sort_v[*(const size_t *)b]);
	int c = place_cmp(&x, &y);

	if (c != 0)
		return c;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static double
size_of(const struct series_change *c)
{
	double d = c->after - c->before;

	return d < 0 ? -d : d;
}

/* Is change j a better answer than k: larger, or as large and first? */
static int
better(const struct series_change *v, size_t j, size_t k)
{
	return k == NONE || size_of(&v[j]) > size_of(&v[k]) ||
	    (size_of(&v[j]) == size_of(&v[k]) && j < k);
}

/* Keep the best two of a component, of two functions: (b[0], b[1]). */
static void
top2(const struct series_change *v, size_t *b, size_t j)
{
	if (j == NONE)
		return;
	if (better(v, j, b[0])) {
		if (b[0] != NONE && v[b[0]].fid != v[j].fid)
			b[1] = b[0];
		b[0] = j;
	} else if (v[j].fid != v[b[0]].fid && better(v, j, b[1]))
		b[1] = j;
}

/* The work of series_carriers() over one place and its queries. */
struct carry {
	struct series_graph *g;
	const struct series_change *v;
	unsigned	*cst;		/* component's stamp: this place */
	unsigned	 stamp;
	size_t		*best;		/* by component: 4 each, all and */
					/*   not appeared, 2 each */
	size_t		*clist;
	size_t		*ans;		/* by change: the best so far */
	size_t		*ans2;		/* parts(): of a group as large */
};

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * For the changes tg[nt] at one place: each component that reaches one
 * gets the best two below it, of all of them and of those that had
 * samples before (not appeared).  Then each query q[nq] takes its
 * function's component's best of another function.
 */
static void
one_place(struct carry *w, const size_t *tg, size_t nt, const size_t *q,
    size_t nq)
{
	struct series_graph *g = w->g;
	const struct series_change *v = w->v;
	size_t	 qh = 0, qt = 0, nc = 0, i, k, x, c, d, u, e, *b, *bd;

	w->stamp++;
	g->now++;
	for (i = 0; i < nt; i++)
		if (g->up[v[tg[i]].fid] != g->now) {
			g->up[v[tg[i]].fid] = g->now;
			g->queue[qt++] = v[tg[i]].fid;
		}
	while (qh < qt) {
		x = g->queue[qh++];
		if (w->cst[c = g->comp[x]] != w->stamp) {
			w->cst[c] = w->stamp;
			w->clist[nc++] = c;
			for (k = 0; k < 4; k++)
				w->best[4 * c + k] = NONE;
		}
		for (k = g->ioff[x]; k < g->ioff[x + 1]; k++)
			if (g->up[g->in[k]] != g->now) {
				g->up[g->in[k]] = g->now;
				g->queue[qt++] = g->in[k];
			}
	}
	for (i = 0; i < nt; i++) {
		b = &w->best[4 * g->comp[v[tg[i]].fid]];
		top2(v, b, tg[i]);
		if (v[tg[i]].before != 0)
			top2(v, b + 2, tg[i]);
	}
	/* Callees first: a component's are numbered before it. */
	qsort(w->clist, nc, sizeof(*w->clist), cmp_size);
	for (i = 0; i < nc; i++) {
		c = w->clist[i];
		b = &w->best[4 * c];
		for (k = g->coff[c]; k < g->coff[c + 1]; k++)
			for (u = g->cmem[k], e = g->ooff[u]; e < g->ooff[u + 1];
			    e++) {
				d = g->comp[g->out[e]];
				if (d == c || w->cst[d] != w->stamp)
					continue;
				bd = &w->best[4 * d];
				top2(v, b, bd[0]);
				top2(v, b, bd[1]);
				top2(v, b + 2, bd[2]);
				top2(v, b + 2, bd[3]);
			}
	}
	for (i = 0; i < nq; i++) {
		x = v[q[i]].fid;
		if (w->cst[c = g->comp[x]] != w->stamp)
			continue;
		b = &w->best[4 * c + (v[q[i]].before == 0 ? 2 : 0)];
		k = b[0] != NONE && v[b[0]].fid != x ? b[0] : b[1];
		if (k != NONE && better(v, k, w->ans[q[i]]))
			w->ans[q[i]] = k;
	}
}

/* The place's index in pl[np] (sorted), or NONE. */
static size_t
find_place(const struct place *pl, size_t np, const struct place *p)
{
	size_t	 lo = 0, hi = np, m;
	int	 c;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if ((c = place_cmp(&pl[m], p)) == 0)
			return m;
		if (c < 0)
			lo = m + 1;
		else
			hi = m;
	}
	return NONE;
}

/*
 * The queries of each place: every change not skipped, at each place
 * near its own (a point either way, and a transient's end too), into
 * qoff/qs by place.
 */
static void
queries(const struct series_change *v, size_t n, const char *skip,
    const struct place *pl, size_t np, size_t **qoff, size_t **qs)
{
	struct place	 p, o;
	size_t		 i, k, pass, *fill = NULL, id;
	int		 da, du;

	*qoff = xcalloc(np + 2, sizeof(**qoff));
	*qs = NULL;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			if (skip[i])
				continue;
			o = place_of(&v[i]);
			for (da = -1; da <= 1; da++)
				for (du = o.tr ? -1 : 0; du <= (o.tr ? 1 : 0);
				    du++) {
					if ((da < 0 && o.at == 0) ||
					    (du < 0 && o.until == 0))
						continue;
					p = o;
					p.at = o.at + (size_t)(long)da;
					p.until = o.until + (size_t)(long)du;
					if ((id = find_place(pl, np, &p)) ==
					    NONE)
						continue;
					if (pass == 0)
						(*qoff)[id + 1]++;
					else
						(*qs)[fill[id]++] = i;
				}
		}
		if (pass == 0) {
			for (k = 0; k < np; k++)
				(*qoff)[k + 1] += (*qoff)[k];
			*qs = xreallocarray(NULL, (*qoff)[np] + 1,
			    sizeof(**qs));
			fill = xreallocarray(NULL, np + 1, sizeof(*fill));
			memcpy(fill, *qoff, (np + 1) * sizeof(*fill));
		}
	}
	free(fill);
}

/* A cum change's flat change of its own, near and at least half. */
static void
own_flat(const struct series_change *v, size_t n, size_t nfuncs,
    size_t *to, char *same)
{
	size_t	*off, *list, *fill, i, k, j;

	off = xcalloc(nfuncs + 2, sizeof(*off));
	list = xreallocarray(NULL, n + 1, sizeof(*list));
	fill = xreallocarray(NULL, nfuncs + 1, sizeof(*fill));
	for (i = 0; i < n; i++)
		off[v[i].fid + 1]++;
	for (k = 0; k < nfuncs; k++)
		off[k + 1] += off[k];
	memcpy(fill, off, (nfuncs + 1) * sizeof(*fill));
	for (i = 0; i < n; i++)
		list[fill[v[i].fid]++] = i;
	for (i = 0; i < n; i++) {
		for (k = off[v[i].fid]; v[i].cum && k < off[v[i].fid + 1];
		    k++) {
			j = list[k];
			if (!v[j].cum && series_near(&v[i], &v[j]) &&
			    size_of(&v[j]) * 2 >= size_of(&v[i])) {
				to[i] = j;
				same[i] = 1;
				break;
			}
		}
	}
	free(off);
	free(list);
	free(fill);
}

/*
 * The places of v[n], sorted, into *pl, and the changes at each, in
 * ascending order, (*ord)[(*poff)[k], (*poff)[k + 1]); returns how
 * many places.
 */
static size_t
places(const struct series_change *v, size_t n, size_t **ord,
    struct place **pl, size_t **poff)
{
	size_t	 i, np = 0;

	*ord = xreallocarray(NULL, n + 1, sizeof(**ord));
	for (i = 0; i < n; i++)
		(*ord)[i] = i;
	sort_v = v;
	qsort(*ord, n, sizeof(**ord), cmp_by_place);
	*pl = xreallocarray(NULL, n + 1, sizeof(**pl));
	*poff = xreallocarray(NULL, n + 2, sizeof(**poff));
	for (i = 0; i < n; i++) {
		struct place p = place_of(&v[(*ord)[i]]);

		if (np == 0 || place_cmp(&(*pl)[np - 1], &p) != 0) {
			(*poff)[np] = i;
			(*pl)[np++] = p;
		}
	}
	(*poff)[np] = n;
	return np;
}

static void
carry_init(struct carry *w, struct series_graph *g,
    const struct series_change *v, size_t n)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	w->g = g;
	w->v = v;
	w->cst = xcalloc(g->ncomp + 1, sizeof(*w->cst));
	w->best = xreallocarray(NULL, 4 * (g->ncomp + 1), sizeof(*w->best));
	w->clist = xreallocarray(NULL, g->ncomp + 1, sizeof(*w->clist));
	w->ans = xreallocarray(NULL, n + 1, sizeof(*w->ans));
	w->ans2 = xreallocarray(NULL, n + 1, sizeof(*w->ans2));
	for (i = 0; i < n; i++)
		w->ans[i] = w->ans2[i] = NONE;
}

static void
carry_free(struct carry *w)
{
	free(w->cst);
	free(w->best);
	free(w->clist);
	free(w->ans);
	free(w->ans2);
}

void
series_carriers(struct series_graph *g, const struct series_change *v,
    size_t n, size_t *to, char *same)
{
	struct carry	 w;
	struct place	*pl;
	size_t		*ord, *poff, *qoff, *qs, np = 0, i, k;
	char		*skip;

	for (i = 0; i < n; i++) {
		to[i] = NONE;
		same[i] = 0;
	}
	own_flat(v, n, g->n, to, same);
	np = places(v, n, &ord, &pl, &poff);
	skip = xreallocarray(NULL, n + 1, 1);
	for (i = 0; i < n; i++)
		skip[i] = !v[i].cum || same[i];
	queries(v, n, skip, pl, np, &qoff, &qs);
	free(skip);
	carry_init(&w, g, v, n);
	for (k = 0; k < np; k++)
		if (qoff[k + 1] > qoff[k])
			one_place(&w, ord + poff[k], poff[k + 1] - poff[k],
			    qs + qoff[k], qoff[k + 1] - qoff[k]);
	for (i = 0; i < n; i++)
		if (v[i].cum && !same[i] && w.ans[i] != NONE &&
		    size_of(&v[w.ans[i]]) > 0 &&
		    size_of(&v[w.ans[i]]) * 2 >= size_of(&v[i]))
			to[i] = w.ans[i];
	carry_free(&w);
	free(ord);
	free(pl);
	free(poff);
	free(qoff);
	free(qs);
}

static double
gsize_of(const struct series_change *c)
{
	double d = c->gafter - c->gbefore;

	return d < 0 ? -d : d;
}

/* parts(): is j a better host than k, larger, or as large and first? */
static int
gbetter(const struct series_change *v, size_t j, size_t k)
{
	return j != NONE && (k == NONE || gsize_of(&v[j]) > gsize_of(&v[k]) ||
	    (gsize_of(&v[j]) == gsize_of(&v[k]) && j < k));
}

static size_t
minidx(size_t a, size_t b)
{
	return a < b ? a : b;
}

/*
 * Mark from seeds[n] along callees (the components they reach, and
 * theirs), each component once into w->clist; returns how many.  The
 * best of each, w->best[2 c] and [2 c + 1], start at NONE.
 */
static size_t
reach_down(struct carry *w, const size_t *seeds, size_t n)
{
	struct series_graph *g = w->g;
	size_t	 qh = 0, qt = 0, nc = 0, i, k, x, c;

	w->stamp++;
	g->now++;
	for (i = 0; i < n; i++)
		if (g->down[seeds[i]] != g->now) {
			g->down[seeds[i]] = g->now;
			g->queue[qt++] = seeds[i];
		}
	while (qh < qt) {
		x = g->queue[qh++];
		if (w->cst[c = g->comp[x]] != w->stamp) {
			w->cst[c] = w->stamp;
			w->clist[nc++] = c;
			w->best[2 * c] = w->best[2 * c + 1] = NONE;
		}
		for (k = g->ooff[x]; k < g->ooff[x + 1]; k++)
			if (g->down[g->out[k]] != g->now) {
				g->down[g->out[k]] = g->now;
				g->queue[qt++] = g->out[k];
			}
	}
	return nc;
}

static int
cmp_size_desc(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * Carry down, callers first, over the nc components of w->clist: each
 * gets in best[2 c + 1] what its callers' components hold (their own,
 * best[2 c], and what they got), and its own too when it is a cycle
 * (its functions reach one another) and cyc is set.  With idx, the
 * least index wins; else the larger group (gbetter()).
 */
static void
carry_down(struct carry *w, size_t nc, int cyc, int idx)
{
	struct series_graph *g = w->g;
	size_t	 i, k, u, e, c, d, *b, x;

	qsort(w->clist, nc, sizeof(*w->clist), cmp_size_desc);
	for (i = 0; i < nc; i++) {
		c = w->clist[i];
		b = &w->best[2 * c];
		if (cyc && g->coff[c + 1] - g->coff[c] > 1)
			b[1] = idx ? minidx(b[1], b[0]) :
			    gbetter(w->v, b[0], b[1]) ? b[0] : b[1];
		for (k = g->coff[c]; k < g->coff[c + 1]; k++)
			for (u = g->cmem[k], e = g->ooff[u]; e < g->ooff[u + 1];
			    e++) {
				d = g->comp[g->out[e]];
				if (d == c)
					continue;
				/* d comes after c: callers first. */
				x = idx ? minidx(b[0], b[1]) :
				    gbetter(w->v, b[0], b[1]) ? b[0] : b[1];
				if (idx)
					w->best[2 * d + 1] = minidx(w->best[2 *
					    d + 1], x);
				else if (gbetter(w->v, x, w->best[2 * d + 1]))
					w->best[2 * d + 1] = x;
			}
	}
}

/*
 * parts()'s host of change i, at one place: the larger group below
 * which i's function lies (reached from the host's function or from
 * one of its carriers), for each query q[nq] whose group it is larger
 * than, among the changes tg[nt] there.
 */
static void
parts_place(struct carry *w, const size_t *tg, size_t nt, const size_t *q,
    size_t nq)
{
	const struct series_change *v = w->v;
	size_t	*seeds, ns = 0, i, k, nc, *b;

	for (i = 0; i < nt; i++)
		ns += 1 + v[tg[i]].ncarriers;
	seeds = xreallocarray(NULL, ns + 1, sizeof(*seeds));
	for (i = 0, ns = 0; i < nt; i++) {
		seeds[ns++] = v[tg[i]].fid;
		for (k = 0; k < v[tg[i]].ncarriers; k++)
			seeds[ns++] = v[tg[i]].carriers[k];
	}
	nc = reach_down(w, seeds, ns);
	free(seeds);
	for (i = 0; i < nt; i++) {
		/* Its own, at each component of its functions. */
		b = &w->best[2 * w->g->comp[v[tg[i]].fid]];
		if (gbetter(v, tg[i], b[0]))
			b[0] = tg[i];
		for (k = 0; k < v[tg[i]].ncarriers; k++) {
			b = &w->best[2 * w->g->comp[v[tg[i]].carriers[k]]];
			if (gbetter(v, tg[i], b[0]))
				b[0] = tg[i];
		}
	}
	carry_down(w, nc, 1, 0);
	for (i = 0; i < nq; i++) {
		k = w->g->comp[v[q[i]].fid];
		if (w->cst[k] != w->stamp)
			continue;
		k = w->best[2 * k + 1];
		if (k != NONE && gsize_of(&v[k]) > gsize_of(&v[q[i]]) &&
		    gbetter(v, k, w->ans[q[i]]))
			w->ans[q[i]] = k;
	}
}

/*
 * The same for a group as large as i's, (the first) whose function
 * calls i's through other functions of other components (the caller
 * holds the callee): tg[nt] is one place's changes of one group size.
 */
static void
ties_place(struct carry *w, const size_t *tg, size_t nt, const size_t *q,
    size_t nq)
{
	const struct series_change *v = w->v;
	size_t	*seeds, i, k, nc, c;

	seeds = xreallocarray(NULL, nt + 1, sizeof(*seeds));
	for (i = 0; i < nt; i++)
		seeds[i] = v[tg[i]].fid;
	nc = reach_down(w, seeds, nt);
	free(seeds);
	for (i = 0; i < nt; i++) {
		c = w->g->comp[v[tg[i]].fid];
		w->best[2 * c] = minidx(w->best[2 * c], tg[i]);
	}
	carry_down(w, nc, 0, 1);
	for (i = 0; i < nq; i++) {
		k = w->g->comp[v[q[i]].fid];
		if (w->cst[k] != w->stamp)
			continue;
		w->ans2[q[i]] = minidx(w->ans2[q[i]], w->best[2 * k + 1]);
	}
}

static int
cmp_by_gsize(const void *a, const void *b)
{
	size_t	 x = *(const size_t *)a, y = *(const size_t *)b;
	double	 gx = gsize_of(&sort_v[x]), gy = gsize_of(&sort_v[y]);

	if (gx != gy)
		return gx < gy ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A query of parts()' ties: its group's changes ord[a, e), and i. */
struct gq {
	size_t		 a, e, i;
};

static int
cmp_gq(const void *a, const void *b)
{
	const struct gq *x = a, *y = b;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * The ties of parts(): for each change i with a group and each place
 * near its own, the changes there whose group is as large as i's, in
 * ord[] (sorted at each place by group size, then index); ties_place()
 * once for each such run of changes, with all its queries.
 */
static void
ties(struct carry *w, size_t *ord, const size_t *poff, const size_t *qoff,
    const size_t *qs, size_t np)
{
	const struct series_change *v = w->v;
	struct gq	*gq;
	size_t		 ngq = 0, k, j, i, lo, hi, a, b, m, e, *q;
	double		 gi;

	sort_v = v;
	for (k = 0; k < np; k++)
		qsort(ord + poff[k], poff[k + 1] - poff[k], sizeof(*ord),
		    cmp_by_gsize);
	gq = xreallocarray(NULL, qoff[np] + 1, sizeof(*gq));
	for (k = 0; k < np; k++)
		for (j = qoff[k]; j < qoff[k + 1]; j++) {
			i = qs[j];
			if (!((gi = gsize_of(&v[i])) > 0))
				continue;
			for (a = poff[k], b = poff[k + 1]; a < b;) {
				m = a + (b - a) / 2;
				if (gsize_of(&v[ord[m]]) < gi)
					a = m + 1;
				else
					b = m;
			}
			if (a == poff[k + 1] || gsize_of(&v[ord[a]]) != gi)
				continue;
			gq[ngq].a = a;
			/* The end of the run as large: past the last one. */
			for (b = poff[k + 1], e = a; e < b;) {
				m = e + (b - e) / 2;
				if (gsize_of(&v[ord[m]]) <= gi)
					e = m + 1;
				else
					b = m;
			}
			gq[ngq].e = e;
			gq[ngq++].i = i;
		}
	qsort(gq, ngq, sizeof(*gq), cmp_gq);
	q = xreallocarray(NULL, ngq + 1, sizeof(*q));
	for (lo = 0; lo < ngq; lo = hi) {
		for (hi = lo; hi < ngq && gq[hi].a == gq[lo].a; hi++)
			q[hi - lo] = gq[hi].i;
		ties_place(w, ord + gq[lo].a, gq[lo].e - gq[lo].a, q, hi - lo);
	}
	free(q);
	free(gq);
}

void
series_parts(struct series_graph *g, const struct series_change *v,
    size_t n, size_t *by)
{
	struct carry	 w;
	struct place	*pl;
	size_t		*ord, *poff, *qoff, *qs, np, i, k, j;
	char		*skip;

	np = places(v, n, &ord, &pl, &poff);
	skip = xcalloc(n + 1, 1);
	queries(v, n, skip, pl, np, &qoff, &qs);
	free(skip);
	carry_init(&w, g, v, n);
	for (k = 0; k < np; k++)
		if (qoff[k + 1] > qoff[k])
			parts_place(&w, ord + poff[k], poff[k + 1] - poff[k],
			    qs + qoff[k], qoff[k + 1] - qoff[k]);
	/* A flat change is below the cum change of its own function. */
	for (k = 0; k < np; k++)
		for (j = qoff[k]; j < qoff[k + 1]; j++)
			for (i = poff[k]; v[qs[j]].cum == 0 && i < poff[k + 1];
			    i++)
				if (v[ord[i]].cum && v[ord[i]].fid ==
				    v[qs[j]].fid && gsize_of(&v[ord[i]]) >
				    gsize_of(&v[qs[j]]) && gbetter(v, ord[i],
				    w.ans[qs[j]]))
					w.ans[qs[j]] = ord[i];
	ties(&w, ord, poff, qoff, qs, np);
	for (i = 0; i < n; i++)
		by[i] = w.ans[i] != NONE ? w.ans[i] : w.ans2[i];
	carry_free(&w);
	free(ord);
	free(pl);
	free(poff);
	free(qoff);
	free(qs);
}

void
series_chain_ends(size_t *to, size_t n, size_t *end)
{
	size_t	*st, *coff, *kid, *fill, *m, *q, sp, qh = 0, qt = 0, i, x, c0, k;
	unsigned char *state, *cyc, *cut;

	st = xreallocarray(NULL, n + 1, sizeof(*st));
	state = xcalloc(n + 1, 1);
	cyc = xcalloc(n + 1, 1);
	cut = xcalloc(n + 1, 1);
	m = xreallocarray(NULL, n + 1, sizeof(*m));
	q = xreallocarray(NULL, n + 1, sizeof(*q));
	/* The cycles: a walk from each, until it meets itself. */
	for (i = 0; i < n; i++) {
		for (sp = 0, x = i; x != NONE && state[x] == 0; x = to[x]) {
			state[x] = 1;
			st[sp++] = x;
		}
		if (x != NONE && state[x] == 1) {
			/* The cycle from x on: cut at its first change. */
			for (c0 = x, k = sp; k-- > 0;) {
				cyc[st[k]] = 1;
				c0 = st[k] < c0 ? st[k] : c0;
				if (st[k] == x)
					break;
			}
			cut[c0] = 1;
			for (x = c0, m[c0] = NONE; (x = to[x]) != c0;)
				m[x] = c0;
			q[qt++] = c0;
			for (x = to[c0]; x != c0; x = to[x])
				q[qt++] = x;
		}
		while (sp > 0)
			state[st[--sp]] = 2;
		state[i] = 2;
	}
	/*
	 * Outwards from the cycles: a change is cut when no change its
	 * chain passes before coming round was cut before it, m[] the
	 * first that was.
	 */
	coff = xcalloc(n + 2, sizeof(*coff));
	kid = xreallocarray(NULL, n + 1, sizeof(*kid));
	for (i = 0; i < n; i++)
		if (to[i] != NONE)
			coff[to[i] + 1]++;
	for (i = 0; i < n; i++)
		coff[i + 1] += coff[i];
	fill = xreallocarray(NULL, n + 1, sizeof(*fill));
	memcpy(fill, coff, (n + 1) * sizeof(*fill));
	for (i = 0; i < n; i++)
		if (to[i] != NONE)
			kid[fill[to[i]]++] = i;
	while (qh < qt)
		for (x = q[qh++], i = coff[x]; i < coff[x + 1]; i++) {
			size_t t = kid[i];

			if (cyc[t])
				continue;
			m[t] = cut[x] && x < m[x] ? x : m[x];
			cut[t] = m[t] == NONE || m[t] > t;
			q[qt++] = t;
		}
	for (i = 0; i < n; i++)
		if (cut[i])
			to[i] = NONE;
	/* The ends, each chain followed once. */
	for (i = 0; i < n; i++)
		end[i] = NONE;
	for (i = 0; i < n; i++) {
		for (sp = 0, x = i; end[x] == NONE && to[x] != NONE; x = to[x])
			st[sp++] = x;
		if (end[x] == NONE)
			end[x] = x;
		while (sp > 0)
			end[st[--sp]] = end[x];
	}
	free(st);
	free(state);
	free(cyc);
	free(cut);
	free(m);
	free(q);
	free(coff);
	free(kid);
	free(fill);
}

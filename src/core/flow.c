/* flow.h: what lies under a set of rows, through the call graph. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/delta.h"
#include "core/flow.h"
#include "core/scc.h"
#include "support/xmalloc.h"

/* The first pass counts each row's calls, the second places them. */
static void
count_call(void *arg, size_t from, size_t to, int is_new, int64_t w)
{
	struct calls *g = arg;

	(void)is_new;
	(void)w;
	if (from != to)
		g->off[from + 1]++;
}

static void
place_call(void *arg, size_t from, size_t to, int is_new, int64_t w)
{
	struct calls *g = arg;
	size_t	 i;

	if (from == to)
		return;
	i = g->q[from]++;	/* q: the next free place of each row */
	g->to[i] = (uint32_t)to;
	g->w[is_new][i] = w;
	g->w[!is_new][i] = 0;
}

/*
 * Join the two sides' halves of each call, row by row, in place: at[y]
 * is where the row's call to y went, while the row is read.
 */
static void
calls_join(struct calls *g, size_t nrows)
{
	size_t	*at = g->q, r, i, j, n = 0, from = 0;

	for (r = 0; r < nrows + 1; r++)
		at[r] = SIZE_MAX;
	for (r = 0; r < nrows; r++) {
		for (i = from; i < g->off[r + 1]; i++) {
			j = at[g->to[i]];
			if (j != SIZE_MAX) {
				g->w[0][j] += g->w[0][i];
				g->w[1][j] += g->w[1][i];
				continue;
			}
			at[g->to[i]] = n;
			g->to[n] = g->to[i];
			g->w[0][n] = g->w[0][i];
			g->w[1][n++] = g->w[1][i];
		}
		for (i = g->off[r]; i < n; i++)
			at[g->to[i]] = SIZE_MAX;
		from = g->off[r + 1];
		g->off[r + 1] = n;
	}
}

/*
 * The order a walk takes the rows in when none is free: by components,
 * every component that a row calls into before the row's own (Tarjan's
 * order), so that a walk stuck at a recursion first takes the recursion
 * and only then the callers above it (runtime.growslice above
 * runtime.mallocgc, above a recursion through runtime.systemstack),
 * each with all its callees' parts; a walk callers first takes it
 * backwards.
 */
static void
calls_order(struct calls *g, size_t nrows)
{
	size_t	*to, *comp, i;

	to = xreallocarray(NULL, g->off[nrows] ? g->off[nrows] : 1,
	    sizeof(*to));
	for (i = 0; i < g->off[nrows]; i++)
		to[i] = g->to[i];
	comp = xreallocarray(NULL, nrows + 1, sizeof(*comp));
	g->order = xreallocarray(NULL, nrows + 1, sizeof(*g->order));
	(void)scc_tarjan(nrows, g->off, to, comp, g->order);
	free(comp);
	free(to);
}

/* The arrays a walk of g keeps its place in, for nrows rows. */
static void
walk_arrays(struct calls *g, size_t nrows)
{
	g->q = xreallocarray(NULL, nrows + 1, sizeof(*g->q));
	g->indeg = xcalloc(nrows + 1, sizeof(*g->indeg));
	g->seen = xcalloc(nrows + 1, 1);
	g->done = xcalloc(nrows + 1, 1);
}

static void
walk_arrays_free(struct calls *g)
{
	free(g->q);
	free(g->indeg);
	free(g->seen);
	free(g->done);
}

/*
 * One pass over each side's edges, in their order, instead of each
 * row's edges joined through a lookup (delta_edges()): the walks add a
 * call's value to one side, so they need not be joined.
 */
static void
calls_read(struct delta *d, struct calls *g)
{
	size_t		 r, n;

	walk_arrays(g, d->nrows);
	g->off = xcalloc(d->nrows + 2, sizeof(*g->off));
	delta_each_call(d, count_call, g);
	for (r = 0; r < d->nrows; r++)
		g->off[r + 1] += g->off[r];
	n = g->off[d->nrows] ? g->off[d->nrows] : 1;
	g->to = xreallocarray(NULL, n, sizeof(*g->to));
	g->w[0] = xreallocarray(NULL, n, sizeof(*g->w[0]));
	g->w[1] = xreallocarray(NULL, n, sizeof(*g->w[1]));
	memcpy(g->q, g->off, d->nrows * sizeof(*g->q));
	delta_each_call(d, place_call, g);
	calls_join(g, d->nrows);
	calls_order(g, d->nrows);
}

struct calls *
calls_of(struct delta *d)
{
	if (d->calls == NULL) {
		d->calls = xcalloc(1, sizeof(*d->calls));
		calls_read(d, d->calls);
	}
	return d->calls;
}

void
calls_free(struct calls *g)
{
	if (g == NULL)
		return;
	free(g->off);
	free(g->to);
	free(g->order);
	free(g->w[0]);
	free(g->w[1]);
	walk_arrays_free(g);
	free(g->roff);
	free(g->rfrom);
	free(g);
}

struct calls *
calls_twin(const struct calls *g, size_t nrows)
{
	struct calls	*t;

	t = xcalloc(1, sizeof(*t));
	t->off = g->off;
	t->to = g->to;
	t->w[0] = g->w[0];
	t->w[1] = g->w[1];
	t->order = g->order;
	walk_arrays(t, nrows);
	return t;
}

void
calls_twin_free(struct calls *t)
{
	if (t == NULL)
		return;
	walk_arrays_free(t);
	free(t);
}

/*
 * The calls turned round, each row's callers (roff, rfrom), made the
 * first time they are asked for and kept.
 */
static void
calls_callers(struct calls *g, size_t n)
{
	size_t	 x, y, i;

	if (g->roff != NULL)
		return;
	g->roff = xcalloc(n + 2, sizeof(*g->roff));
	g->rfrom = xreallocarray(NULL, g->off[n] ? g->off[n] : 1,
	    sizeof(*g->rfrom));
	for (x = 0; x < n; x++)
		for (i = g->off[x]; i < g->off[x + 1]; i++)
			g->roff[g->to[i] + 1]++;
	for (y = 0; y < n; y++)
		g->roff[y + 1] += g->roff[y];
	for (x = 0; x < n; x++)
		for (i = g->off[x]; i < g->off[x + 1]; i++)
			g->rfrom[g->roff[g->to[i]]++] = x;
	for (y = n; y > 0; y--)
		g->roff[y] = g->roff[y - 1];
	g->roff[0] = 0;
}

void
calls_up(const struct delta *d, struct calls *g, size_t x, unsigned char *up)
{
	size_t	*stack = g->q, sp = 0, y, j;

	calls_callers(g, d->nrows);
	up[x] = 1;
	stack[sp++] = x;
	while (sp > 0)
		for (y = stack[--sp], j = g->roff[y]; j < g->roff[y + 1]; j++)
			if (!up[g->rfrom[j]]) {
				up[g->rfrom[j]] = 1;
				stack[sp++] = g->rfrom[j];
			}
}

/* Row x's cum on side s (0 base, 1 new). */
static double
cum_of(const struct delta *d, size_t x, int s)
{
	return (double)(s ? d->rows[x].new_cum : d->rows[x].base_cum);
}

/*
 * The next row of a walk's queue (g->q, from *qh to *qt), marked done;
 * with the queue empty, the next row in g->order from *next on (callers
 * first: backwards) that is not done (and seen, unless seen is NULL): a
 * recursion, whose rows never come free, taken after every component it
 * waits for (callees first: the components it calls into).  SIZE_MAX
 * when none is left.
 */
static size_t
take(struct calls *g, size_t n, size_t *qh, size_t *qt, size_t *next,
    const unsigned char *seen, int callers)
{
	size_t	 x;

#define NTH(k)	(g->order[callers ? n - 1 - (k) : (k)])
	for (;;) {
		if (*qh == *qt) {
			while (*next < n && ((seen != NULL &&
			    !seen[NTH(*next)]) || g->done[NTH(*next)]))
				(*next)++;
			if (*next == n)
				return SIZE_MAX;
			g->q[(*qt)++] = NTH(*next);
		}
		x = g->q[(*qh)++];
		if (!g->done[x]) {
			g->done[x] = 1;
			return x;
		}
	}
#undef NTH
}

void
calls_flows(const struct delta *d, struct calls *g, const unsigned char *reg,
    double *fl[2])
{
	double		 fr[2], cum;
	size_t		*q = g->q;
	size_t		 qh = 0, qt = 0, i, x, y, next = 0, n = d->nrows;
	long		*indeg = g->indeg;
	unsigned char	*seen = g->seen, *done = g->done;
	int		 s;

	memset(fl[0], 0, (n + 1) * sizeof(*fl[0]));
	memset(fl[1], 0, (n + 1) * sizeof(*fl[1]));
	/* The rows below reg, and how many calls into each come from them. */
	for (i = 0; i < n; i++)
		if (reg[i]) {
			seen[i] = 1;
			q[qt++] = i;
		}
	while (qh < qt) {
		x = q[qh++];
		for (i = g->off[x]; i < g->off[x + 1]; i++) {
			y = g->to[i];
			if (reg[y])
				continue;
			indeg[y]++;
			if (!seen[y]) {
				seen[y] = 1;
				q[qt++] = y;
			}
		}
	}
	/* Then each, callers first, carrying its callers' parts down. */
	qh = qt = 0;
	for (i = 0; i < n; i++)
		if (reg[i])
			q[qt++] = i;
	while ((x = take(g, n, &qh, &qt, &next, seen, 1)) != SIZE_MAX) {
		for (s = 0; s < 2; s++) {
			cum = cum_of(d, x, s);
			if (reg[x] || fl[s][x] > cum)
				fl[s][x] = cum;
			fr[s] = cum > 0 ? fl[s][x] / cum : 0;
		}
		for (i = g->off[x]; i < g->off[x + 1]; i++) {
			y = g->to[i];
			if (reg[y] || done[y])
				continue;
			fl[0][y] += fr[0] * (double)g->w[0][i];
			fl[1][y] += fr[1] * (double)g->w[1][i];
			if (--indeg[y] == 0)
				q[qt++] = y;
		}
	}
	/* Every row seen was queued and taken once: clear what it left. */
	for (i = 0; i < qt; i++) {
		x = q[i];
		seen[x] = done[x] = 0;
		indeg[x] = 0;
	}
}

void
calls_above(const struct delta *d, struct calls *g, const unsigned char *reg,
    double *fl[2])
{
	double		 cum, v, c;
	const size_t	*roff, *rfrom;
	size_t		*q = g->q;
	size_t		 qh = 0, qt = 0, i, j, x, y, p, next = 0, n = d->nrows;
	long		*left = g->indeg;
	unsigned char	*done = g->done;
	int		 s;

	memset(fl[0], 0, (n + 1) * sizeof(*fl[0]));
	memset(fl[1], 0, (n + 1) * sizeof(*fl[1]));
	/* Each row's callees outside reg, which must be taken before it. */
	calls_callers(g, n);
	roff = g->roff;
	rfrom = g->rfrom;
	for (x = 0; x < n; x++)
		for (i = g->off[x]; i < g->off[x + 1]; i++)
			if (!reg[g->to[i]])
				left[x]++;
	for (x = 0; x < n; x++)
		if (left[x] == 0)
			q[qt++] = x;
	/* Callees first: a row's part is what its calls carry above reg. */
	while ((x = take(g, n, &qh, &qt, &next, NULL, 0)) != SIZE_MAX) {
		for (s = 0; s < 2; s++) {
			cum = cum_of(d, x, s);
			if (reg[x]) {
				fl[s][x] = cum;
				continue;
			}
			for (i = g->off[x]; i < g->off[x + 1]; i++) {
				y = g->to[i];
				c = cum_of(d, y, s);
				v = reg[y] ? 1 : c > 0 ? fl[s][y] / c : 0;
				if (v > 0)
					fl[s][x] += v * (double)g->w[s][i];
			}
			if (fl[s][x] > cum)
				fl[s][x] = cum;
		}
		for (j = roff[x]; j < roff[x + 1]; j++) {
			p = rfrom[j];
			if (!reg[x] && --left[p] == 0 && !done[p])
				q[qt++] = p;
		}
	}
	for (x = 0; x < n; x++) {
		done[x] = 0;
		left[x] = 0;
	}
}

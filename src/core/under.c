/*
 * How much of a function's samples lies under a row (findings_int.h,
 * under()): all of them where the row dominates it in the union call
 * graph, else what the calls from the row's region into it carry, no
 * more than the row's own samples.  For findings.c's joint() and
 * ascend().  No I/O here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/delta.h"
#include "core/findings_int.h"
#include "core/region.h"
#include "support/xmalloc.h"

/*
 * Past this many calls into a row, flow_in() puts them in the order of
 * their callers' places, and reads only those in the span of a region.
 */
#define FLOW_PLACED	64

static const size_t *sort_place;	/* cmp_place()'s keys */

static int
cmp_place(const void *a, const void *b)
{
	size_t x = sort_place[*(const size_t *)a];
	size_t y = sort_place[*(const size_t *)b];

	return x < y ? -1 : x > y;
}

void
sort_by_place(size_t *by, size_t n, const size_t *pl)
{
	sort_place = pl;
	qsort(by, n, sizeof(*by), cmp_place);
}

/* The calls into c->into in the order of their callers' places. */
static void
place_in(struct fctx *c)
{
	struct delta_edge *e;
	size_t	*by, *pl, i;

	by = xreallocarray(NULL, c->nin, sizeof(*by));
	pl = xreallocarray(NULL, c->nin, sizeof(*pl));
	e = xreallocarray(NULL, c->nin, sizeof(*e));
	for (i = 0; i < c->nin; i++) {
		by[i] = i;
		pl[i] = region_place(c->ri, c->in[i].from);
	}
	sort_by_place(by, c->nin, pl);
	c->inplace = xreallocarray(c->inplace, c->cap_in,
	    sizeof(*c->inplace));
	for (i = 0; i < c->nin; i++) {
		e[i] = c->in[by[i]];
		c->inplace[i] = pl[by[i]];
	}
	memcpy(c->in, e, c->nin * sizeof(*e));
	c->in_placed = 1;
	free(by);
	free(pl);
	free(e);
}

/*
 * The value of the edges from x's region into row t, on a side.  The
 * calls into the last t asked are kept: ascend() asks of one finding's
 * function for each caller of the rows above it, and joining both
 * sides' calls into a function that thousands call is the cost.  Of
 * many such calls, only those from the span of x's region are read.
 */
static int64_t
flow_in(struct fctx *c, size_t x, size_t t, int side)
{
	const struct delta_edge *e;
	size_t	 i = 0, n, lo, hi, a, b, m;
	int64_t	 w = 0;

	if (c->into != t) {
		c->nin = delta_edges(c->d, t, 0, &e);
		if (c->nin > c->cap_in) {
			c->cap_in = c->nin;
			c->in = xreallocarray(c->in, c->cap_in,
			    sizeof(*c->in));
		}
		if (c->nin > 0)
			memcpy(c->in, e, c->nin * sizeof(*c->in));
		c->into = t;
		c->in_placed = 0;
	}
	n = c->nin;
	/* Placing them builds the index, as so many regions asked would. */
	if (n > FLOW_PLACED && !c->in_placed)
		place_in(c);
	if (n > FLOW_PLACED && region_span(c->ri, x, &lo, &hi)) {
		for (a = 0, b = n; a < b;) {	/* the first place >= lo */
			m = a + (b - a) / 2;
			if (c->inplace[m] < lo)
				a = m + 1;
			else
				b = m;
		}
		for (i = a; i < n && c->inplace[i] < hi; i++)
			continue;
		n = i;
		i = a;
	}
	for (; i < n; i++)
		if (c->in[i].from != t && region_has(c->ri, x, c->in[i].from))
			w += side ? c->in[i].new : c->in[i].base;
	return w;
}

/*
 * At most the share of x's samples that row r can call it with, on a
 * side: r's own samples, of x's.  under() is never more.
 */
double
under_most(const struct fctx *c, size_t r, size_t x, int side)
{
	const struct delta_row *rr = &c->d->rows[r], *rx = &c->d->rows[x];
	int64_t		 u = side ? rr->new_cum : rr->base_cum;
	int64_t		 v = side ? rx->new_cum : rx->base_cum;
	double		 f = v > 0 ? (double)u / (double)v : 0;

	return f < 1 ? f : 1;
}

/*
 * The share of x's samples that row r's region calls it with, on a side,
 * or 1 if r dominates x: how much of x lies under r, when r is above x.
 * No more than r's own samples (under_most()): the calls from a
 * recursion's rows into x count a sample once for each.
 */
double
under(struct fctx *c, size_t r, size_t x, int side)
{
	const struct delta_row *rx = &c->d->rows[x];
	int64_t		 v = side ? rx->new_cum : rx->base_cum;
	double		 f, most = under_most(c, r, x, side);

	if (region_has(c->ri, r, x))
		f = 1;
	else
		f = v > 0 ? (double)flow_in(c, r, x, side) / (double)v : 0;
	return f < most ? f : most;
}

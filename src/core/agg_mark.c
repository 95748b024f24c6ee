/*
 * Marks of an aggregate (agg.h: agg_mark(), agg_since()): what it held
 * at one point, and what it gained since, as an aggregate of its own.
 * A profile's --base snapshot and a series' points are windows made
 * this way.  No I/O here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/agg_int.h"
#include "core/pview.h"
#include "support/xmalloc.h"

/* What an agg held at some point: its nodes' columns and its totals. */
struct agg_mark {
	size_t		 nnodes;
	int64_t		(*flat)[AGG_NCOLS];
	int64_t		(*cum)[AGG_NCOLS];
	int64_t		 total[AGG_NCOLS];
	int64_t		 abstotal[AGG_NCOLS];
	int64_t		 idle[AGG_NCOLS];
	size_t		 nsamples, nidle;
	struct aggmom	*mom;
};

struct agg_mark *
agg_mark(const struct agg *a)
{
	struct agg_mark	*m;
	size_t		 i;
	int		 c;

	m = xcalloc(1, sizeof(*m));
	m->nnodes = a->nnodes;
	m->flat = xreallocarray(NULL, a->nnodes ? a->nnodes : 1,
	    sizeof(*m->flat));
	m->cum = xreallocarray(NULL, a->nnodes ? a->nnodes : 1,
	    sizeof(*m->cum));
	for (i = 0; i < a->nnodes; i++)
		for (c = 0; c < AGG_NCOLS; c++) {
			m->flat[i][c] = a->nodes[i].flat[c];
			m->cum[i][c] = a->nodes[i].cum[c];
		}
	for (c = 0; c < AGG_NCOLS; c++) {
		m->total[c] = a->total[c];
		m->abstotal[c] = a->abstotal[c];
		m->idle[c] = a->idle[c];
	}
	m->nsamples = a->nsamples;
	m->nidle = a->nidle;
	m->mom = aggmom_dup(a->mom);
	return m;
}

void
agg_mark_free(struct agg_mark *m)
{
	if (m == NULL)
		return;
	free(m->flat);
	free(m->cum);
	aggmom_free(m->mom);
	free(m);
}

struct agg *
agg_since(const struct agg *a, const struct agg_mark *m)
{
	struct agg_opts	 o = a->opts;
	struct agg	*b;
	int64_t		 flat[AGG_NCOLS], cum[AGG_NCOLS];
	size_t		 i, n, len;
	int		 c, changed;

	o.noedges = 1;
	o.tree = 0;
	b = agg_new(&o);
	for (i = 0; i < a->nnodes; i++) {
		changed = i >= m->nnodes;
		for (c = 0; c < AGG_NCOLS; c++) {
			flat[c] = a->nodes[i].flat[c] -
			    (i < m->nnodes ? m->flat[i][c] : 0);
			cum[c] = a->nodes[i].cum[c] -
			    (i < m->nnodes ? m->cum[i][c] : 0);
			changed |= flat[c] != 0 || cum[c] != 0;
		}
		if (!changed)
			continue;
		len = strlen(a->nodes[i].name);
		b->nb.len = 0;
		pview_buf_add(&b->nb, a->nodes[i].name, len);
		n = agg_node_get(b);
		if (agg_node_own(a, i))
			agg_own_add(b, n);
		for (c = 0; c < AGG_NCOLS; c++) {
			b->nodes[n].flat[c] = flat[c];
			b->nodes[n].cum[c] = b->hot[n].cum[c] = cum[c];
		}
		if (b->mom != NULL)
			aggmom_since(b->mom, n, a->mom, m->mom, i);
	}
	if (b->mom != NULL)
		aggmom_since_total(b->mom, a->mom, m->mom);
	for (c = 0; c < AGG_NCOLS; c++) {
		b->total[c] = a->total[c] - m->total[c];
		b->abstotal[c] = a->abstotal[c] - m->abstotal[c];
		b->idle[c] = a->idle[c] - m->idle[c];
	}
	b->nsamples = a->nsamples - m->nsamples;
	b->nidle = a->nidle - m->nidle;
	b->nprofiles = 1;
	return b;
}

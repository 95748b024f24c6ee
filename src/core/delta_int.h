/*
 * delta.c's private view, shared with walk.c: the graph of a diff's
 * two sides and its rows, and a node's count by name.  Core: no I/O.
 */
#ifndef DELTA_INT_H
#define DELTA_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/agg.h"
#include "core/delta.h"

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
	struct delta_edge *e;		/* scratch: one row's edges */
	size_t		 ecap;
	size_t		*at;		/* per row: its edge in e, or SIZE_MAX */
	int		*dir;		/* per row: +1 regressed, -1 improved */
	struct agg *const *be, *const *ne;	/* the runs, if replicates */
	size_t		 nb, nn;
};

/* A node's flat or cum count in an aggregate, by name; 0 if absent. */
int64_t	delta_node_count(const struct agg *, const char *name, int flat);

#endif

/*
 * The strongly connected components of a graph of n vertices given as
 * successor lists (succ[off[v]] .. succ[off[v + 1] - 1]), by Tarjan's
 * algorithm without recursion, for the call graphs of a diff's findings
 * (region.c) and of a series (series_carry.c).  No I/O.
 */
#ifndef SCC_H
#define SCC_H

#include <stddef.h>

/*
 * comp[v] gets v's component, numbered in the order they complete:
 * every component a vertex reaches completes before its own, so
 * successors' components come first.  pop (if not NULL) gets the
 * vertices in the order they leave the stack: the components in that
 * order, each one's vertices together.  Returns how many components.
 */
size_t	scc_tarjan(size_t n, const size_t *off, const size_t *succ,
	    size_t *comp, size_t *pop);

#endif

/*
 * What lies under a set of rows, through the union call graph: the
 * calls out of each row read once into arrays (struct calls), and each
 * row's value under the set on both sides from one walk of them.  For
 * the findings (findings.c: what a finding's region holds of a shared
 * callee) and for the spread of no change (spread.c: the samples a
 * candidate change could have moved).  Core: no I/O.
 */
#ifndef FLOW_H
#define FLOW_H

#include <stddef.h>
#include <stdint.h>

struct delta;

/*
 * The calls out of each row, self-calls left out, as arrays rather than
 * structs: the first half of a walk reads only where they go.
 */
struct calls {
	size_t		*off;		/* row r's calls: [off[r], off[r + 1]) */
	uint32_t	*to;
	int64_t		*w[2];		/* the values through each, a side */
	size_t		*order;		/* the rows, callees' components
					   first (scc.h, pop) */
	/* calls_flows()'s own arrays, kept for the next walk */
	size_t		*q;
	long		*indeg;
	unsigned char	*seen, *done;
	/* each row's callers: [roff[r], roff[r + 1]) of rfrom, once asked */
	size_t		*roff, *rfrom;
};

/*
 * d's calls (d->graph set), read the first time they are asked for and
 * kept in d (d->calls) until delta_release(): spread.c and findings.c
 * both walk them, and reading every row's edges is the costly part.
 */
struct calls *calls_of(struct delta *);
void	calls_free(struct calls *);

/*
 * A second walker of g (of a delta of nrows rows): g's calls, shared and
 * only read, with walking arrays of its own, so that two threads can
 * walk down at once (spread.c: calls_flows() only).  Freed by
 * calls_twin_free(), before g.
 */
struct calls *calls_twin(const struct calls *g, size_t nrows);
void	calls_twin_free(struct calls *);

/*
 * The value of each row that lies under the rows of reg, on each side
 * (fl[0] base, fl[1] new: arrays of d->nrows + 1 the caller frees): all
 * of a row of reg, and of any other the calls into it from rows under
 * reg, each carrying its caller's part (what lies under reg of the
 * caller's cum).  fl[] are the caller's; they are overwritten.  So a
 * shared function called through a chain of shared functions from reg
 * gets the part that came from it, not only what reg calls directly.
 * The rows are taken callers first (Kahn's order over the rows reg
 * reaches); the rows of a recursion, which never come free, when every
 * component that calls into theirs is done, and then in Tarjan's order
 * (struct calls, order), so that the rows below a recursion get all
 * that it carries.  O(calls).
 */
void	calls_flows(const struct delta *, struct calls *,
	    const unsigned char *reg, double *fl[2]);

/*
 * The other way: the value of each row's cum that lies above the rows
 * of reg, on each side (a row of reg: all of it).  Each call carries
 * into its caller the part of the callee's cum that lies above reg, in
 * proportion (all of a call into reg), so a function that calls reg
 * through another (runtime.growslice through runtime.mallocgc into the
 * collector's assists) gets its part.  The rows are taken callees
 * first; the rows of a recursion, whose callees never all come first,
 * when every component theirs calls into is done, in Tarjan's order,
 * with what their callees had by then; a caller above the recursion
 * waits for all of it.  O(calls).
 */
void	calls_above(const struct delta *, struct calls *,
	    const unsigned char *reg, double *fl[2]);

/*
 * Mark in up[] row x and the rows that call it, and theirs, walking up
 * only through rows that up[] did not mark before (beside.c: the rows
 * above a finding).  O(calls).
 */
void	calls_up(const struct delta *, struct calls *, size_t x,
	    unsigned char *up);

#endif

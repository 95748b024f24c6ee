/*
 * One profile a side: the spread of no change between two processes,
 * read outside the changes that spread (spread.c says why and how).
 * Core: no I/O.
 */
#ifndef SPREAD_H
#define SPREAD_H

struct delta;
struct judge;
struct stats_null;

/*
 * The rows of the runtime's work apart from the code (runtime.h's
 * collector and scheduler, and the C library's waits) and all each
 * dominates, marked in a new
 * array; NULL if there are none.  Their functions (Go's mark workers'
 * scanobject, findObject, ...) move together, as the load of
 * allocation or scheduling moves them: for the spread of no change
 * they are one part, not dozens (judge.h's JUDGE_FLAT_BG).
 */
unsigned char	*spread_background(struct delta *);

/*
 * The value of each row that lies under the rows of reg on one side,
 * estimated through the call graph: all of a row of reg, and of any
 * other the calls into it from rows under reg, each carrying its
 * caller's part (what lies under reg of the caller's cum).  So a shared
 * function called through a chain of shared functions from reg gets
 * the part that came from it, not only what reg calls directly.  The
 * rows are taken callers first (Kahn's order over the rows reg
 * reaches); rows of a recursion, which never come free, are taken last,
 * in row order.  Each row's outgoing calls are walked twice: O(edges).
 * An array of d->nrows + 1, freed by the caller.
 */
double		*spread_flows(struct delta *, const unsigned char *reg,
		    int side);

/*
 * The spread of no change for j's family of d's rows (bg: the
 * background rows, or NULL), into out: stats_null()'s, read without
 * the samples of the changes that hold against the rest (spread.c).
 * Needs d's call graph.  Returns 0, or -1 on an invalid count.
 */
int		 spread_null(struct delta *, const unsigned char *bg,
		    const struct judge *, struct stats_null *out);

#endif

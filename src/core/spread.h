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
 * The spread of no change for j's family of d's rows (bg: the
 * background rows, or NULL), into out: stats_null()'s, read without
 * the samples of the changes that hold against the rest (spread.c).
 * Needs d's call graph.  Returns 0, or -1 on an invalid count.
 */
int		 spread_null(struct delta *, const unsigned char *bg,
		    const struct judge *, struct stats_null *out);

#endif

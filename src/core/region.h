/*
 * Every row's region at once: the rows it dominates, as delta_region()
 * finds them for one row, but for all rows from one pass over the
 * union call graph (its dominator tree), so that findings.c can ask of
 * thousands of groups whether one lies in another's region without a
 * walk and an array of every row for each.  The answers are
 * delta_region()'s, exactly, wherever it looks: the greatest region
 * for a row that reaches few rows, the region grown from it for one
 * that reaches many (region.c says how); the few rows the tree cannot
 * answer for are left to delta_region() itself.  Core: no I/O.
 */
#ifndef REGION_H
#define REGION_H

#include <stddef.h>

struct delta;
struct region_index;

/*
 * The index of d's rows (d->graph set); free it with region_free().
 * The first lazy rows asked about are answered by delta_region() (a
 * diff that asks for few regions pays for no tree); the next one asked
 * builds the tree.  0 builds it at once.
 */
struct region_index *region_new(struct delta *d, size_t lazy);
void	region_free(struct region_index *);

/*
 * Is row r in the region of row x (delta_region(d, x))?  Neither this
 * nor region_fill() reads delta_edges()'s scratch: either may be asked
 * while its edges are walked.
 */
int	region_has(struct region_index *, size_t x, size_t r);

/* Mark in[r] for every row r of x's region; in[] is all 0 before. */
void	region_fill(struct region_index *, size_t x, unsigned char *in);

/*
 * The rows of x's region all have a place (region_place()) in [*lo,
 * *hi): 1, and region_has() says which of them are in it; or 0 when
 * the index cannot bound it (a region delta_region() found before the
 * tree was built, or one of a row that reaches a row no root reaches),
 * and any row may be.  A row's place is its rank in the dominator
 * tree's preorder.
 */
int	region_span(struct region_index *, size_t x, size_t *lo,
	    size_t *hi);
size_t	region_place(struct region_index *, size_t r);

/*
 * What the index has had to walk so far: the rows whose region is
 * delta_region()'s own (slow, each a walk and an array of every row),
 * and the rows it walked below to tell a greatest region from a grown
 * one (walks, each of at most DELTA_REGION_WALK rows).  For the tests:
 * a stack 65,000 frames deep needs neither.
 */
struct region_stats {
	size_t		 tree, grown, slow, walks;
};
void	region_stats(const struct region_index *, struct region_stats *);

#endif

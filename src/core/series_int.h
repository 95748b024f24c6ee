/*
 * What series.c's grouping of changes asks of the call graph, in time
 * linear in the graph and the changes (series_carry.c), for series.c
 * alone.  Issue 30: a stack 65,000 frames deep is a change at nearly
 * every frame, and group() looked, for each, through every other for
 * one its function reaches, a walk of the graph each time: the cube of
 * the depth.
 */
#ifndef SERIES_INT_H
#define SERIES_INT_H

#include <stddef.h>
#include <stdint.h>

struct series;
struct series_change;
struct series_graph;

/* near() of series.c: same place, same direction, both transient or not. */
int	series_near(const struct series_change *, const struct series_change *);

/* The union of the points' calls, by function; free with _free(). */
struct series_graph *series_graph_new(const struct series *);
void	series_graph_free(struct series_graph *);

/*
 * group()'s search, for each cum change i of v[n]: to[i], the first
 * near flat change of its own function at least half as large (same[i]
 * set), else the largest near change (the first of equals) of another
 * function its function reaches through calls, at least half as large,
 * not both appeared (before 0); else SIZE_MAX.  One pass over the
 * graph for each place a change is at, whatever their number.
 */
void	series_carriers(struct series_graph *, const struct series_change *v,
	    size_t n, size_t *to, char *same);

/*
 * parts()' hosts, for each change i of v[n]: by[i], the change near it
 * whose group is the largest (the first of equals) among those below
 * which i's function lies (reached from the host's function or from one
 * of its carriers through calls, or the host the cum change of i's
 * own function when i is its flat one) and larger than i's group; or
 * else, of a group as large, the first whose function reaches i's and
 * is not reached by it; else SIZE_MAX.  One pass over the graph for
 * each place, and for each group size at each place.
 */
void	series_parts(struct series_graph *, const struct series_change *v,
	    size_t n, size_t *by);

/*
 * The ends of the chains to[] makes (SIZE_MAX ends one) into end[]:
 * each i in order whose chain goes round a cycle is cut (to[i] set to
 * SIZE_MAX), as a walk from each in turn would find it, and end[i] is
 * the last of its chain.  Linear in n.
 */
void	series_chain_ends(size_t *to, size_t n, size_t *end);

#endif

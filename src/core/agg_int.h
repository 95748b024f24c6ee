/*
 * What agg.c keeps for agg_opts.moments, and the count recovery of
 * struct agg_src (agg.h says what both mean), apart from agg.c's
 * folding so that folding without them is as it was.  agg.c walks the
 * stacks and calls these; agg_count.c holds the per-node sums.  For
 * agg.c and agg_count.c alone.  No I/O.
 */
#ifndef AGGMOM_H
#define AGGMOM_H

#include <stddef.h>
#include <stdint.h>

#include "core/agg.h"
#include "core/itab.h"
#include "core/pview.h"

struct arena;

struct pf_sample;

/*
 * The sums, open so that folding adds to a node's cum inline: per node
 * the stamp of the last stack that added to it (its own, as agg.c's
 * struct nhot has one for the columns) beside its cum, 32 bytes, and
 * its flat apart, which a sample adds to once.
 */
struct aggmom_cum {
	uint64_t	 seen;
	struct agg_moments m;
};

struct aggmom {
	struct aggmom_cum *cum;
	struct agg_moments *flat;
	size_t		 cap;		/* of both */
	struct agg_moments total;
	struct agg_moments cur;		/* the sample being folded */
	double		 uncounted;	/* values of no count, agg_uncounted() */
};

struct aggmom	*aggmom_new(void);
void		 aggmom_free(struct aggmom *);	/* NULL is a no-op */
struct aggmom	*aggmom_dup(const struct aggmom *);	/* NULL: NULL */

/*
 * Take one sample's moments (w: its two columns as folded) as the
 * current sample's, and add them to the totals.
 */
void		 aggmom_sample(struct aggmom *, const struct pf_sample *,
		    const struct agg_src *, const int64_t *w);
/* Room for nodes 0 to n - 1, the new ones zero. */
void		 aggmom_reserve(struct aggmom *, size_t n);
/*
 * Node n is of the profiler's own code (rt_profiler_file()), read by
 * agg_node_own(); a no-op if it is already.
 */
void		 agg_own_add(struct agg *, size_t n);

/*
 * Add the current sample's to node n's cum, once a stamp; and to its
 * flat.  n must have room (aggmom_reserve()).
 */
static inline void
aggmom_cum(struct aggmom *m, size_t n, uint64_t stamp)
{
	struct aggmom_cum *x = &m->cum[n];

	if (x->seen == stamp)
		return;
	x->seen = stamp;
	x->m.c += m->cur.c;
	x->m.vv += m->cur.vv;
	x->m.vc += m->cur.vc;
	x->m.cc += m->cur.cc;
}

static inline void
aggmom_flat(struct aggmom *m, size_t n)
{
	m->flat[n].c += m->cur.c;
	m->flat[n].vv += m->cur.vv;
	m->flat[n].vc += m->cur.vc;
	m->flat[n].cc += m->cur.cc;
}
/*
 * Node n of to (agg_since()) takes node i of now less node i of then
 * (then NULL, or i beyond it: nothing to take away); and the totals,
 * aggmom_since_total().
 */
void		 aggmom_since(struct aggmom *to, size_t n,
		    const struct aggmom *now, const struct aggmom *then,
		    size_t i);
void		 aggmom_since_total(struct aggmom *to,
		    const struct aggmom *now, const struct aggmom *then);

/* The counts divided by g: the events' moments times g. */
void		 aggmom_scale(struct aggmom *, double g);

/* Do the recovery's sample types fit nst of them?  0, or -1. */
int		 agg_src_check(const struct agg_src *, size_t nst);

/* The agg's store, or NULL without agg_opts.moments (agg.c). */
const struct aggmom *agg_aggmom(const struct agg *);

/*
 * What folding touches of a node on every frame, apart from the rest so
 * that those of all nodes fit in L2 (24 bytes a node): the stamp of the last
 * stack that added to its cum, and the cum itself, copied into the node
 * at the end of each agg_add().
 */
struct nhot {
	uint64_t	 seen;
	int64_t		 cum[AGG_NCOLS];
};

struct agg {
	struct agg_opts	 opts;
	struct arena	*names;		/* node names */

	struct agg_node	*nodes;
	struct nhot	*hot;		/* per node, see struct nhot */
	uint64_t	*nhash;		/* hash of each node's name */
	uint32_t	*own;		/* the profiler's nodes, agg_own_add() */
	size_t		 nown, owncap;
	size_t		 nnodes, nodecap;
	struct itab	 ntab;		/* the nodes by name */

	struct agg_edge	*etab;		/* open addressing, see etab_clear() */
	size_t		 etabcap;
	uint32_t	*eorder;	/* slot of each edge, by edge index */
	size_t		 nedges;
	uint32_t	*eout, *ein;	/* edge numbers by caller, by callee */
	uint32_t	*eout_at;	/* nnodes + 1 offsets into eout */
	uint32_t	*ein_at;	/* and into ein; NULL: no index */

	struct pview_maps maps;		/* every mapping key met so far */

	struct agg_tnode *tree;		/* calling-context tree, if asked */
	size_t		 ntree, treecap;
	struct itab	 ttab;		/* the tree by parent and node */

	uint64_t	 stamp;		/* one per distinct stack folded */
	struct aggmom	*mom;		/* with opts.moments (agg_count.c) */
	int64_t		 total[AGG_NCOLS];
	int64_t		 abstotal[AGG_NCOLS];
	size_t		 nsamples;
	size_t		 nprofiles;
	int64_t		 idle[AGG_NCOLS];	/* samples kept apart (runtime.h) */
	size_t		 nidle;

	struct pview_buf nb;		/* scratch for names */
};

/*
 * The node of the name in a->nb, made (zero) if there is none: agg.c's,
 * for agg_mark.c's agg_since() too.
 */
size_t	 agg_node_get(struct agg *);
/*
 * Per location of p, 1 where its innermost frame is idle (runtime.h),
 * or NULL when none is: agg_sample() keeps such samples apart.
 */
unsigned char	*agg_idle_locs(const struct profile *p);

#endif

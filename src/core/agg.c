/*
 * Stack aggregation, following go tool pprof step by step: the profile
 * is first seen as pprof's driver sees it (pview.c: profile.Merge
 * folding mappings with the same key and moving their addresses,
 * RemoveUninteresting applying drop_frames and keep_frames, Aggregate
 * clearing what the granularity does not show), then folded as
 * internal/graph's newGraph folds it.  Each location becomes one frame
 * per line, innermost first; a sample adds its value to the cum of every
 * distinct node on its stack, to the flat of the innermost frame of its
 * leaf location, and to every distinct caller -> callee edge.  Node names
 * are pprof's PrintableName strings, and nodes are keyed by that name.
 *
 * Samples with the same stack are summed first and each distinct stack
 * is folded once; a stamp per node makes "already counted in this
 * stack" an O(1) test, and an edge into a node new to the stack is new
 * to it too, so only recursion looks for edges already counted.  The
 * profile is never modified: what pprof would rewrite in place (pruned
 * lines, moved addresses) is kept in side tables for the duration of
 * one agg_add().  No I/O here, no statistics and no output formats.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/agg_int.h"
#include "support/arena.h"
#include "support/diag.h"
#include "core/itab.h"
#include "model/profile.h"
#include "core/pview.h"
#include "core/runtime.h"
#include "support/units.h"
#include "support/xmalloc.h"

#define NONE		SIZE_MAX	/* no node, no edge, not resolved */
#define NONE32		UINT32_MAX	/* the same, in 32 bits */

/*
 * The edge table's slots are the edges themselves, 16 bytes (node
 * indices fit in 32 bits, as the views already assume): the edges live
 * in the open-addressing table rather than beside it, and eorder lists
 * the slots in the order the edges were made.  An empty slot has caller
 * NONE32.
 */

/* Mark slots [from, to) of an edge table empty. */
static void
etab_clear(struct agg_edge *tab, size_t from, size_t to)
{
	size_t j;

	for (j = from; j < to; j++)
		tab[j].caller = NONE32;
}

/*
 * The edge table tab of old slots (none: NULL, 0) made cap slots long,
 * the new ones empty.  Its pages are mapped, so that doubling copies
 * nothing and never holds two tables (xremap()).
 */
static struct agg_edge *
etab_grow(struct agg_edge *tab, size_t old, size_t cap)
{
	if (cap > SIZE_MAX / sizeof(*tab))
		xmalloc(SIZE_MAX);	/* reports out of memory and exits */
	tab = old == 0 ? xmap(cap * sizeof(*tab)) :
	    xremap(tab, old * sizeof(*tab), cap * sizeof(*tab));
	etab_clear(tab, old, cap);
	return tab;
}

static void
etab_free(struct agg_edge *tab, size_t cap)
{
	xunmap(tab, cap * sizeof(*tab));
}


/*
 * A location as folding sees it: its frames, and the edge out of it.
 * A location that is one frame (most are) holds its node in off;
 * otherwise off is where its frames are in view.frames[].
 *
 * The edge table is large and touched at random, and looking up an
 * edge in it was the costliest load of folding.  But a call site calls
 * the same function nearly every time, so the edge from a location's
 * innermost frame to the next frame of the stack is nearly always the
 * same one: that edge (ecallee, eslot) and the weight added to it since
 * it was cached (ew) are kept here, in the cache line that folding
 * reads anyway.  The edges between the inlined frames of a location
 * never change, and each is kept the same way in its inner frame
 * (struct vframe).  view_flush() adds the weights into the table.
 * Without edges a location's record is its struct locres alone, a
 * third of the size, so that more of them stay in the cache.
 */
struct locres {
	uint32_t	 off;		/* NONE32 if not resolved yet */
	uint32_t	 n;
};

struct locframes {
	struct locres	 r;
	uint32_t	 ecallee;	/* node, or NONE32 */
	uint32_t	 eslot;		/* its slot in the edge table */
	int64_t		 ew;
};

/* A frame of a location of several, and the edge into it from its caller. */
struct vframe {
	uint32_t	 node;
	uint32_t	 eslot;		/* NONE32 until the edge is cached */
	int64_t		 ew;
};

/* Per-agg_add() state: pprof's view of one profile. */
struct view {
	const struct profile *p;
	void		*loc;		/* per location: struct locframes,
					   or without edges struct locres */
	struct vframe	*frames;	/* innermost first */
	size_t		 nframes, framecap;
	unsigned char	*pflags;	/* PVIEW_PRUNE_* per location, or NULL */
	size_t		*lineoff;	/* first line kept after pruning */
	uint64_t	*reloc;		/* address delta per mapping */
	const char	**mfile;	/* file name printed per mapping */
	uint32_t	*fnode;		/* per function at -functions, or NULL */
	unsigned char	*mseen;		/* per mapping: placed yet? */
	size_t		 mdone;		/* how many are */
	uint64_t	*epairs;	/* the edges one stack has counted:
					   caller << 32 | callee */
	size_t		 epcap;
	uint32_t	*lix;		/* the stack being folded: location */
	size_t		 lixcap;	/* indexes */
};

static inline struct locframes *
loc_edges(const struct view *v, size_t li)
{
	return &((struct locframes *)v->loc)[li];
}

/* Location li's record; edges is !opts.noedges, a constant where it can be. */
static inline struct locres *
loc_res(const struct view *v, size_t li, int edges)
{
	return edges ? &loc_edges(v, li)->r : &((struct locres *)v->loc)[li];
}

/* Forget agg_index_edges()'s index. */
static void
index_drop(struct agg *a)
{
	free(a->eout);
	free(a->ein);
	free(a->eout_at);
	free(a->ein_at);
	a->eout = a->ein = a->eout_at = a->ein_at = NULL;
}

struct agg *
agg_new(const struct agg_opts *opts)
{
	struct agg *a;

	a = xcalloc(1, sizeof(*a));
	a->opts = *opts;
	a->names = arena_new();
	if (opts->moments)
		a->mom = aggmom_new();
	return a;
}

void
agg_divide_counts(struct agg *a, int64_t g)
{
	size_t	 i;

	for (i = 0; i < a->nnodes; i++) {
		a->nodes[i].flat[AGG_COUNT] /= g;
		a->nodes[i].cum[AGG_COUNT] /= g;
		a->hot[i].cum[AGG_COUNT] /= g;
	}
	for (i = 0; i < a->ntree; i++) {
		a->tree[i].flat[AGG_COUNT] /= g;
		a->tree[i].cum[AGG_COUNT] /= g;
	}
	a->total[AGG_COUNT] /= g;
	a->abstotal[AGG_COUNT] /= g;
	a->idle[AGG_COUNT] /= g;
	if (a->mom != NULL)
		aggmom_scale(a->mom, (double)g);
}

void
agg_counts_from_values(struct agg *a, int64_t g)
{
	size_t	 i;

	for (i = 0; i < a->nnodes; i++) {
		a->nodes[i].flat[AGG_COUNT] = a->nodes[i].flat[AGG_VALUE] / g;
		a->nodes[i].cum[AGG_COUNT] = a->nodes[i].cum[AGG_VALUE] / g;
		a->hot[i].cum[AGG_COUNT] = a->hot[i].cum[AGG_VALUE] / g;
	}
	for (i = 0; i < a->ntree; i++) {
		a->tree[i].flat[AGG_COUNT] = a->tree[i].flat[AGG_VALUE] / g;
		a->tree[i].cum[AGG_COUNT] = a->tree[i].cum[AGG_VALUE] / g;
	}
	a->total[AGG_COUNT] = a->total[AGG_VALUE] / g;
	a->abstotal[AGG_COUNT] = a->abstotal[AGG_VALUE] / g;
	a->idle[AGG_COUNT] = a->idle[AGG_VALUE] / g;
}

void
agg_want_moments(struct agg *a)
{
	a->opts.moments = 1;
	if (a->mom == NULL)
		a->mom = aggmom_new();
}

void
agg_free(struct agg *a)
{
	if (a == NULL)
		return;
	arena_free(a->names);
	free(a->nodes);
	free(a->hot);
	free(a->nhash);
	free(a->own);
	itab_release(&a->ntab);
	free(a->eorder);
	etab_free(a->etab, a->etabcap);
	index_drop(a);
	pview_maps_release(&a->maps);
	free(a->tree);
	itab_release(&a->ttab);
	aggmom_free(a->mom);
	pview_buf_release(&a->nb);
	free(a);
}

/*
 * A deep copy: the same nodes, edges and mapping keys in the same order,
 * with the names copied into the new agg's own arena.
 */
struct agg *
agg_dup(const struct agg *src)
{
	struct agg	*a;
	size_t		 i;

	a = xcalloc(1, sizeof(*a));
	*a = *src;
	a->names = arena_new();
	memset(&a->nb, 0, sizeof(a->nb));
	a->nodes = xreallocarray(NULL, src->nodecap ? src->nodecap : 1,
	    sizeof(*a->nodes));
	a->hot = xreallocarray(NULL, src->nodecap ? src->nodecap : 1,
	    sizeof(*a->hot));
	a->nhash = xreallocarray(NULL, src->nodecap ? src->nodecap : 1,
	    sizeof(*a->nhash));
	if (src->nnodes > 0) {
		memcpy(a->nodes, src->nodes, src->nnodes * sizeof(*a->nodes));
		memcpy(a->hot, src->hot, src->nnodes * sizeof(*a->hot));
		memcpy(a->nhash, src->nhash, src->nnodes * sizeof(*a->nhash));
	}
	for (i = 0; i < a->nnodes; i++)
		a->nodes[i].name = arena_strndup(a->names,
		    src->nodes[i].name, strlen(src->nodes[i].name));
	itab_copy(&a->ntab, &src->ntab);
	a->own = NULL;
	if (src->nown > 0) {
		a->own = xreallocarray(NULL, src->owncap, sizeof(*a->own));
		memcpy(a->own, src->own, src->nown * sizeof(*a->own));
	}
	a->etab = NULL;
	a->eorder = NULL;
	a->eout = a->ein = a->eout_at = a->ein_at = NULL;
	if (src->etabcap > 0) {
		a->etab = etab_grow(NULL, 0, src->etabcap);
		memcpy(a->etab, src->etab, src->etabcap * sizeof(*a->etab));
		a->eorder = xreallocarray(NULL, src->etabcap / 2,
		    sizeof(*a->eorder));
		memcpy(a->eorder, src->eorder, src->nedges *
		    sizeof(*a->eorder));
	}
	pview_maps_copy(&a->maps, &src->maps, a->names);
	a->tree = NULL;
	if (src->treecap > 0) {
		a->tree = xreallocarray(NULL, src->treecap, sizeof(*a->tree));
		memcpy(a->tree, src->tree, src->ntree * sizeof(*a->tree));
	}
	itab_copy(&a->ttab, &src->ttab);
	a->mom = aggmom_dup(src->mom);
	return a;
}

/* Hand-built profiles may leave strings NULL; pprof's are never. */
static const char *
str(const char *s)
{
	return s != NULL ? s : "";
}

/* A node's name and its hash, as node_eq() looks for them. */
struct nkey {
	const struct agg *a;
	const char	*name;
	uint64_t	 h;
};

static int
node_eq(const void *ctx, size_t n)
{
	const struct nkey *k = ctx;

	return k->a->nhash[n] == k->h &&
	    strcmp(k->a->nodes[n].name, k->name) == 0;
}

static uint64_t
node_hash(const void *ctx, size_t n)
{
	return ((const struct agg *)ctx)->nhash[n];
}

/* Find or add the node named by a->nb. */
size_t
agg_node_get(struct agg *a)
{
	struct nkey	 k;
	size_t		 n;

	k.a = a;
	k.name = a->nb.s;
	k.h = itab_hash_bytes(a->nb.s, a->nb.len);
	if ((n = itab_find(&a->ntab, k.h, node_eq, &k)) != ITAB_NONE)
		return n;
	if (a->nnodes == a->nodecap) {
		/* Folding keeps node indices in 32 bits. */
		if (a->nodecap >= NONE32 / 2)
			xmalloc(SIZE_MAX);	/* reports out of memory */
		a->nodecap = a->nodecap ? a->nodecap * 2 : 256;
		a->nodes = xreallocarray(a->nodes, a->nodecap,
		    sizeof(*a->nodes));
		a->hot = xreallocarray(a->hot, a->nodecap, sizeof(*a->hot));
		a->nhash = xreallocarray(a->nhash, a->nodecap,
		    sizeof(*a->nhash));
	}
	n = a->nnodes++;
	memset(&a->nodes[n], 0, sizeof(a->nodes[n]));
	memset(&a->hot[n], 0, sizeof(a->hot[n]));
	a->nodes[n].name = arena_strndup(a->names, a->nb.s, a->nb.len);
	a->nhash[n] = k.h;
	itab_add(&a->ntab, k.h, a->nnodes, 1024, node_hash, a);
	return n;
}

/* The free slot for caller -> callee in a table that does not hold it. */
static size_t
edge_slot(const struct agg_edge *tab, size_t cap, size_t caller, size_t callee)
{
	size_t j;

	for (j = itab_home(itab_hash_pair(caller, callee), cap);
	    tab[j].caller != NONE32; j = itab_next(j, cap))
		continue;
	return j;
}

static void view_reslot(const struct agg *, struct view *, const uint32_t *);

/*
 * Double the edge table where it lies, so that the old and the new table
 * are never both in memory (on large-bad, with slots of 32 bytes, they
 * took 48 MB at once for a table that ends at 32).  Each edge not yet
 * moved is taken out and put in the first free slot from its new home;
 * a slot that holds an edge not yet moved is taken over, and that edge
 * moves next.  So every moved edge has only moved edges between its home
 * and its slot, and none of those is ever taken out: linear probing
 * finds them all.  Slots change: eorder follows, and so do the edges
 * the view caches, through their edge numbers, keeping what they hold.
 */
static void
edge_table_grow(struct agg *a, struct view *v)
{
	struct agg_edge	 cur, t;
	uint32_t	*rev, k, tk;
	size_t		 old = a->etabcap, cap, s, j;

	cap = old ? old * 2 : 1024;
	if (cap > NONE32)	/* views keep slots in 32 bits */
		xmalloc(SIZE_MAX);	/* reports out of memory and exits */
	a->eorder = xreallocarray(a->eorder, cap / 2, sizeof(*a->eorder));
	a->etab = etab_grow(a->etab, old, cap);
	a->etabcap = cap;
	if (old == 0)
		return;
	/* rev: which edge (in eorder) an old slot holds, until it moves */
	rev = xreallocarray(NULL, old, sizeof(*rev));
	memset(rev, 0xff, old * sizeof(*rev));
	for (k = 0; k < a->nedges; k++)
		rev[a->eorder[k]] = k;
	view_reslot(a, v, rev);		/* slots to edge numbers */
	for (s = 0; s < old; s++) {
		if ((k = rev[s]) == NONE32)
			continue;	/* empty, or an edge moved here */
		cur = a->etab[s];
		a->etab[s].caller = NONE32;
		rev[s] = NONE32;
		for (;;) {
			for (j = itab_home(itab_hash_pair(cur.caller,
			    cur.callee), cap); a->etab[j].caller != NONE32 &&
			    (j >= old || rev[j] == NONE32);
			    j = itab_next(j, cap))
				continue;
			t = a->etab[j];
			tk = j < old ? rev[j] : NONE32;
			a->etab[j] = cur;
			a->eorder[k] = (uint32_t)j;
			if (t.caller == NONE32)
				break;
			rev[j] = NONE32;	/* t is taken out: it moves next */
			cur = t;
			k = tk;
		}
	}
	free(rev);
	view_reslot(a, v, a->eorder);	/* and back to their new slots */
}

/*
 * Find or add the edge caller -> callee.  (Folding asks only when the
 * edges cached in the view miss, and then the last edge looked up from
 * the same caller is the one asked for once in 300: not worth keeping.)
 */
static struct agg_edge *
edge_get(struct agg *a, struct view *v, size_t caller, size_t callee)
{
	struct agg_edge	*ed;
	size_t		 j;

	if (a->etabcap != 0) {
		for (j = itab_home(itab_hash_pair(caller, callee), a->etabcap);
		    (ed = &a->etab[j])->caller != NONE32;
		    j = itab_next(j, a->etabcap))
			if (ed->caller == caller && ed->callee == callee)
				goto found;
	}
	if (2 * (a->nedges + 1) > a->etabcap)
		edge_table_grow(a, v);
	j = edge_slot(a->etab, a->etabcap, caller, callee);
	ed = &a->etab[j];
	memset(ed, 0, sizeof(*ed));
	ed->caller = (uint32_t)caller;
	ed->callee = (uint32_t)callee;
	a->eorder[a->nedges++] = (uint32_t)j;
found:
	return ed;
}

/*
 * Add the weights the locations' and frames' cached edges gathered into
 * the edge table, and forget the cached edges.
 */
static void
view_flush(struct agg *a, struct view *v)
{
	struct locframes	*lf;
	struct vframe		*vf;
	size_t			 li, i;

	for (i = 0; i < v->nframes; i++) {
		vf = &v->frames[i];
		if (vf->eslot == NONE32)
			continue;
		a->etab[vf->eslot].w += vf->ew;
		vf->eslot = NONE32;
	}

	for (li = 0; !a->opts.noedges && li < v->p->nlocations; li++) {
		lf = loc_edges(v, li);
		if (lf->ecallee == NONE32)
			continue;
		a->etab[lf->eslot].w += lf->ew;
		lf->ecallee = NONE32;
	}
}

/*
 * Map the slot of each edge the view caches through map: an old slot to
 * the edge's number, or a number to its new slot.
 */
static void
view_reslot(const struct agg *a, struct view *v, const uint32_t *map)
{
	struct locframes	*lf;
	size_t			 li, i;

	for (i = 0; i < v->nframes; i++)
		if (v->frames[i].eslot != NONE32)
			v->frames[i].eslot = map[v->frames[i].eslot];
	for (li = 0; !a->opts.noedges && li < v->p->nlocations; li++) {
		lf = loc_edges(v, li);
		if (lf->ecallee != NONE32)
			lf->eslot = map[lf->eslot];
	}
}

static void
view_push(struct view *v, size_t node)
{
	if (v->nframes == v->framecap) {
		v->framecap = v->framecap ? v->framecap * 2 : 1024;
		v->frames = xreallocarray(v->frames, v->framecap,
		    sizeof(*v->frames));
	}
	v->frames[v->nframes].node = (uint32_t)node;
	v->frames[v->nframes++].eslot = NONE32;
}

/* The node of one frame of a location. */
static size_t
frame_node(struct agg *a, const struct view *v, const struct pf_location *loc,
    const struct pf_line *ln)
{
	const struct pf_mapping	*m;
	uint32_t		*fn = NULL;
	size_t			 n, mi = 0;

	/*
	 * At -functions a named function's frames are all one node, named
	 * by the function alone: found once per function, not per
	 * location (a function has several call sites).
	 */
	if (v->fnode != NULL && ln != NULL && ln->function != NULL) {
		fn = &v->fnode[ln->function - v->p->functions];
		if (*fn != NONE32)
			return *fn;
		/* A nameless function's frames are named otherwise. */
		if (str(ln->function->name)[0] == '\0')
			fn = NULL;
	}
	/* Merged mappings print the file of the one they merged into. */
	if ((m = loc->mapping) != NULL)
		mi = (size_t)(m - v->p->mappings);
	pview_name(&a->nb, a->opts.gran, loc, ln, m != NULL ? v->mfile[mi] :
	    "", m != NULL ? v->reloc[mi] : 0);
	n = agg_node_get(a);
	if (fn != NULL)
		*fn = (uint32_t)n;
	if (ln != NULL && ln->function != NULL &&
	    rt_profiler_file(ln->function->filename))
		agg_own_add(a, n);
	return n;
}

/*
 * Give location li its frames: one per line that survived pruning,
 * innermost first, or only the outermost with noinlines; a location
 * without lines is one frame of its own.
 */
static void
view_resolve(struct agg *a, struct view *v, size_t li)
{
	const struct pf_location	*loc = &v->p->locations[li];
	struct locres			*lr;
	size_t				 k, lo, off = v->nframes;

	lo = v->lineoff != NULL ? v->lineoff[li] : 0;
	if (loc->nlines == 0)
		view_push(v, frame_node(a, v, loc, NULL));
	else if (a->opts.noinlines)
		view_push(v, frame_node(a, v, loc,
		    &loc->lines[loc->nlines - 1]));
	else
		for (k = lo; k < loc->nlines; k++)
			view_push(v, frame_node(a, v, loc, &loc->lines[k]));
	lr = loc_res(v, li, !a->opts.noedges);
	lr->n = (uint32_t)(v->nframes - off);
	if (lr->n == 1)
		lr->off = v->frames[--v->nframes].node;
	else
		lr->off = (uint32_t)off;
}

/*
 * The first location of the sample's stack that pprof keeps after
 * pruning: scanning from the root, frames before the first unpruned one
 * stay; then the first pruned location cuts the stack, below itself if
 * only some of its lines matched, or including itself.
 */
static inline __attribute__((always_inline)) size_t
view_prune_sample(const struct view *v, const struct pf_location *const *locs,
    size_t nlocs)
{
	size_t		 i, li;
	int		 user = 0;

	if (v->pflags == NULL)
		return 0;
	for (i = nlocs; i > 0; i--) {
		li = (size_t)(locs[i - 1] - v->p->locations);
		if (v->pflags[li] == 0) {
			user = 1;
			continue;
		}
		if (!user)
			continue;
		if (v->pflags[li] & PVIEW_PRUNE_ALL)
			return i;
		return i - 1;
	}
	return 0;
}

/* Place mapping m, unless done; returns 1 if it was new. */
static int
view_map(struct agg *a, struct view *v, const struct pf_mapping *m,
    unsigned char *seen)
{
	const struct pview_mkey	*k;
	size_t			 mi = (size_t)(m - v->p->mappings);

	if (seen[mi])
		return 0;
	seen[mi] = 1;
	k = pview_maps_get(&a->maps, a->names, m);
	v->reloc[mi] = k->start - m->memory_start;
	v->mfile[mi] = k->file;
	return 1;
}

/*
 * profile.Merge, which pprof runs on every profile it loads (and on the
 * profiles it merges), folds mappings with the same key into the first
 * one it meets, and moves their locations' addresses by the difference
 * of the start addresses.  It meets the first mapping of the first
 * profile first, then the others in order of first use by a sample with
 * any non-zero value.  That changes the addresses at -addresses and the
 * object file printed for nameless frames, so it is replayed here.
 */
static void
view_mappings_setup(struct agg *a, struct view *v)
{
	const struct profile	*p = v->p;
	size_t			 n = p->nmappings;

	v->reloc = xcalloc(n, sizeof(*v->reloc));
	v->mfile = xcalloc(n, sizeof(*v->mfile));
	v->mseen = xcalloc(n ? n : 1, 1);
	if (a->maps.n == 0 && p->nmappings > 0)
		v->mdone += view_map(a, v, &p->mappings[0], v->mseen);
}

/* Place the mappings a sample uses, before it is folded. */
static void
view_mappings_sample(struct agg *a, struct view *v, const struct pf_sample *s)
{
	const struct profile	*p = v->p;
	size_t			 j, k;

	if (v->mdone == p->nmappings)
		return;
	for (k = 0; k < p->nsample_types; k++)
		if (s->values[k] != 0)
			break;
	if (k == p->nsample_types)
		return;
	for (j = 0; j < s->nlocs; j++)
		if (s->locs[j]->mapping != NULL)
			v->mdone += view_map(a, v, s->locs[j]->mapping,
			    v->mseen);
}

static void
view_free(struct view *v)
{
	free(v->loc);
	free(v->frames);
	free(v->pflags);
	free(v->lineoff);
	free(v->reloc);
	free(v->mfile);
	free(v->mseen);
	free(v->fnode);
	free(v->epairs);
	free(v->lix);
}

static int64_t
sample_count(const struct pf_sample *s, const struct agg_src *src)
{
	if (src->count_index >= 0)
		return s->values[src->count_index];
	if (src->count_divisor > 0)
		return s->values[src->value_index] / src->count_divisor;
	if (src->unsample != AGG_UNSAMPLE_NONE)
		return agg_sample_count(src, s->values);
	return 0;
}

/*
 * Add |x| to *sum, failing on overflow (|INT64_MIN| does not exist).
 * Every value the agg holds is a signed sum of a subset of the values
 * added, so when the sum of their magnitudes fits, nothing can overflow.
 */
static int
add_abs(int64_t *sum, int64_t x)
{
	if (x == INT64_MIN)
		return -1;
	return __builtin_add_overflow(*sum, x < 0 ? -x : x, sum) ? -1 : 0;
}

/* Is the request one the profile can answer? */
static int
check_src(const struct profile *p, const struct agg_src *src, struct diag *d)
{
	size_t	 nst = p->nsample_types;

	if (src->value_index < 0 || (size_t)src->value_index >= nst)
		return diag_set(d, DIAG_USAGE, -1,
		    "sample type index %d out of range (profile has %zu)",
		    src->value_index, nst);
	if (src->count_index >= 0 && (size_t)src->count_index >= nst)
		return diag_set(d, DIAG_USAGE, -1,
		    "count sample type index %d out of range "
		    "(profile has %zu)", src->count_index, nst);
	if (src->count_divisor < 0)
		return diag_set(d, DIAG_USAGE, -1,
		    "negative count divisor %" PRId64, src->count_divisor);
	if (agg_src_check(src, nst) == -1)
		return diag_set(d, DIAG_USAGE, -1, "count recovery from sample "
		    "types %d and %d out of range (profile has %zu)",
		    src->un_count, src->un_bytes, nst);
	return 0;
}

/*
 * Check the request and the sums before touching the agg, so that a
 * failed agg_add() leaves it as it was.
 */
static int
check_add(const struct agg *a, const struct profile *p,
    const struct agg_src *src, struct diag *d)
{
	int64_t	 abs[AGG_NCOLS];
	size_t	 i;

	if (check_src(p, src, d) == -1)
		return -1;
	abs[AGG_VALUE] = a->abstotal[AGG_VALUE];
	abs[AGG_COUNT] = a->abstotal[AGG_COUNT];
	for (i = 0; i < p->nsamples; i++) {
		const struct pf_sample *s = &p->samples[i];

		if (s->values[src->value_index] == 0)
			continue;
		if (add_abs(&abs[AGG_VALUE], s->values[src->value_index]) == -1)
			return diag_set(d, DIAG_LIMIT, -1, "sample %zu: "
			    "sum of sample type %d overflows a 64-bit integer",
			    i, src->value_index);
		if (add_abs(&abs[AGG_COUNT], sample_count(s, src)) == -1)
			return diag_set(d, DIAG_LIMIT, -1, "sample %zu: "
			    "sum of sample counts overflows a 64-bit integer",
			    i);
	}
	return 0;
}

/* A stack being folded, and the columns of its sample. */
struct ustack {
	const struct pf_location *const *locs;
	size_t		 nlocs;
	int64_t		 w[AGG_NCOLS];
};

static uint64_t
tree_hash(size_t parent, size_t node)
{
	return itab_hash_pair(parent == AGG_ROOT ? 0 : parent + 1, node);
}

static uint64_t
tree_node_hash(const void *ctx, size_t i)
{
	const struct agg_tnode *t = &((const struct agg *)ctx)->tree[i];

	return tree_hash(t->parent, t->node);
}

/* What tree_eq() looks for: a parent and a node. */
struct tlook {
	const struct agg *a;
	size_t		 parent, node;
};

static int
tree_eq(const void *ctx, size_t i)
{
	const struct tlook	*l = ctx;
	const struct agg_tnode	*t = &l->a->tree[i];

	return t->parent == l->parent && t->node == l->node;
}

/* The child of tree node parent (or a root) for node, made if new. */
static size_t
tree_child(struct agg *a, size_t parent, size_t node)
{
	struct agg_tnode	*t;
	struct tlook		 l;
	uint64_t		 h = tree_hash(parent, node);
	size_t			 i;

	l.a = a;
	l.parent = parent;
	l.node = node;
	if ((i = itab_find(&a->ttab, h, tree_eq, &l)) != ITAB_NONE)
		return i;
	if (a->ntree == a->treecap) {
		a->treecap = a->treecap ? a->treecap * 2 : 256;
		a->tree = xreallocarray(a->tree, a->treecap,
		    sizeof(*a->tree));
	}
	t = &a->tree[a->ntree++];
	memset(t, 0, sizeof(*t));
	t->parent = parent;
	t->node = node;
	itab_add(&a->ttab, h, a->ntree, 1024, tree_node_hash, a);
	return a->ntree - 1;
}

/* Was caller -> callee among the first ne edges counted for this stack? */
static int
edge_counted(const struct view *v, size_t ne, size_t caller, size_t callee)
{
	uint64_t	 key = (uint64_t)caller << 32 | callee;
	size_t		 i;

	for (i = ne; i > 0; i--)
		if (v->epairs[i - 1] == key)
			return 1;
	return 0;
}

/* The stack has counted its edge number ne, caller -> callee. */
static inline void
edge_note(struct view *v, size_t ne, size_t caller, size_t callee)
{
	if (ne == v->epcap) {
		v->epcap = v->epcap ? 2 * v->epcap : 256;
		v->epairs = xreallocarray(v->epairs, v->epcap,
		    sizeof(*v->epairs));
	}
	v->epairs[ne] = (uint64_t)caller << 32 | callee;
}

/* Add the stack's value to an edge it has not counted yet. */
static inline void
fold_edge(struct agg *a, struct view *v, const struct ustack *u,
    struct locframes *from, size_t caller, size_t callee)
{
	struct agg_edge	*ed;

	if (from != NULL && from->ecallee == callee) {
		from->ew += u->w[AGG_VALUE];
		return;
	}
	ed = edge_get(a, v, caller, callee);
	if (from == NULL) {
		ed->w += u->w[AGG_VALUE];
		return;
	}
	/* Cache this edge in the location, flushing the one it held. */
	if (from->ecallee != NONE32)
		a->etab[from->eslot].w += from->ew;
	from->ecallee = (uint32_t)callee;
	from->eslot = (uint32_t)(ed - a->etab);
	from->ew = u->w[AGG_VALUE];
}

/*
 * The same for the edge between two inlined frames of a location, into
 * view.frames[fi]: that edge never changes.
 */
static inline void
fold_inline_edge(struct agg *a, struct view *v, const struct ustack *u,
    size_t fi, size_t caller, size_t callee)
{
	struct agg_edge	*ed;

	if (v->frames[fi].eslot == NONE32) {
		/* edge_get() may move the frames' slots: it comes first. */
		ed = edge_get(a, v, caller, callee);
		v->frames[fi].eslot = (uint32_t)(ed - a->etab);
		v->frames[fi].ew = 0;
	}
	v->frames[fi].ew += u->w[AGG_VALUE];
}

/*
 * Fold one stack (leaf first) into the nodes and edges: graph.newGraph's
 * loop, from the root down, frames of a location outermost first.  The
 * stamp makes "seen in this stack" an O(1) test per node.  The edge from
 * a location into the first frame of the next goes through the cache of
 * the outer location (struct locframes).  fold_as() is that loop for
 * edges and tree fixed, so that each kind of agg has a loop without the
 * others' tests (top folds neither).
 */
static inline __attribute__((always_inline)) void
fold_as(struct agg *a, struct view *v, const struct ustack *u, size_t lo,
    const int edges, const int tree)
{
	struct locres		*lf;
	struct locframes	*from = NULL;
	struct nhot		*hot = a->hot;
	uint64_t		 stamp = a->stamp;
	int64_t			 mask;
	size_t			 j, k, li, n, parent = NONE, ne = 0;
	size_t			 t = AGG_ROOT;
	int			 c, first, pfirst = 0;

	/* The leaf's node takes the flat value at the end: ask for it now. */
	if (u->nlocs > lo) {
		lf = loc_res(v, v->lix[lo], edges);
		if (lf->off != NONE32 && lf->n > 0)
			__builtin_prefetch(&a->nodes[lf->n == 1 ? lf->off :
			    v->frames[lf->off].node]);
	}
	for (j = u->nlocs; j > lo; j--) {
		li = v->lix[j - 1];
		lf = loc_res(v, li, edges);
		if (lf->off == NONE32) {
			view_resolve(a, v, li);
			hot = a->hot;
		}
		for (k = lf->n; k > 0; k--) {
			n = lf->n == 1 ? lf->off :
			    v->frames[lf->off + k - 1].node;
			/*
			 * Whether a frame is its node's first in the stack
			 * is a coin toss to the branch predictor: add the
			 * weights or zeros, without a branch.
			 */
			first = hot[n].seen != stamp;
			mask = -(int64_t)first;
			hot[n].seen = stamp;
			for (c = 0; c < AGG_NCOLS; c++)
				hot[n].cum[c] += u->w[c] & mask;
			/*
			 * An edge into a node met for the first time in this
			 * stack is new to the stack too, and so is an edge out
			 * of a node met for the first time one frame up; only
			 * recursion needs the edges already counted.
			 */
			if (edges && parent != NONE && n != parent &&
			    (first || pfirst ||
			    !edge_counted(v, ne, parent, n))) {
				if (k == lf->n)
					fold_edge(a, v, u, from, parent, n);
				else
					fold_inline_edge(a, v, u,
					    lf->off + k - 1, parent, n);
				edge_note(v, ne++, parent, n);
			}
			parent = n;
			pfirst = first;
			if (tree) {
				t = tree_child(a, t, n);
				for (c = 0; c < AGG_NCOLS; c++)
					a->tree[t].cum[c] += u->w[c];
			}
		}
		if (edges)
			from = loc_edges(v, li);
	}
	/* The flat value goes to the innermost frame of the leaf location. */
	if (parent != NONE)
		for (c = 0; c < AGG_NCOLS; c++)
			a->nodes[parent].flat[c] += u->w[c];
	if (tree && t != AGG_ROOT)
		for (c = 0; c < AGG_NCOLS; c++)
			a->tree[t].flat[c] += u->w[c];
}

/*
 * With moments, the same frames as fold_as() once more: the sample's
 * moments go to each distinct node's cum and to the leaf frame's flat.
 */
static void
fold_moments(struct agg *a, struct view *v, const struct ustack *u,
    size_t lo)
{
	struct locres	*lf;
	size_t		 j, k, n = NONE;

	aggmom_reserve(a->mom, a->nnodes);
	for (j = u->nlocs; j > lo; j--) {
		lf = loc_res(v, v->lix[j - 1], !a->opts.noedges);
		for (k = lf->n; k > 0; k--) {
			n = lf->n == 1 ? lf->off :
			    v->frames[lf->off + k - 1].node;
			aggmom_cum(a->mom, n, a->stamp);
		}
	}
	if (n != NONE)
		aggmom_flat(a->mom, n);
}

static void
fold_stack(struct agg *a, struct view *v, const struct ustack *u)
{
	const struct profile	*p = v->p;
	size_t			 j, li, lo, rsize;

	a->stamp++;
	lo = view_prune_sample(v, u->locs, u->nlocs);
	if (u->nlocs > v->lixcap) {
		v->lixcap = u->nlocs > 2 * v->lixcap ? u->nlocs : 2 * v->lixcap;
		v->lix = xreallocarray(v->lix, v->lixcap, sizeof(*v->lix));
	}
	/*
	 * The locations' records are scattered over megabytes: ask for all
	 * of this stack's at once, so that their cache misses overlap
	 * instead of following one another.
	 */
	rsize = a->opts.noedges ? sizeof(struct locres) :
	    sizeof(struct locframes);
	for (j = u->nlocs; j > lo; j--) {
		li = (size_t)(u->locs[j - 1] - p->locations);
		v->lix[j - 1] = (uint32_t)li;
		__builtin_prefetch((const char *)v->loc + li * rsize);
	}
	if (!a->opts.noedges && a->opts.tree)
		fold_as(a, v, u, lo, 1, 1);
	else if (!a->opts.noedges)
		fold_as(a, v, u, lo, 1, 0);
	else if (a->opts.tree)
		fold_as(a, v, u, lo, 0, 1);
	else
		fold_as(a, v, u, lo, 0, 0);
	if (a->mom != NULL)
		fold_moments(a, v, u, lo);
}

/* Add a sample to the node of each distinct value of the label key. */
static void
fold_labels(struct agg *a, const struct pf_sample *s, const int64_t *w)
{
	const char	*key = a->opts.label_key;
	char		 num[UNITS_BUFSZ];
	size_t		 i, n;
	int		 c, any = 0;

	a->stamp++;
	for (i = 0; i <= s->nlabels; i++) {
		a->nb.len = 0;
		if (i < s->nlabels) {
			const struct pf_label *l = &s->labels[i];

			if (strcmp(l->key, key) != 0)
				continue;
			pview_buf_add(&a->nb, key, strlen(key));
			pview_buf_add(&a->nb, "=", 1);
			if (l->str != NULL)
				pview_buf_add(&a->nb, l->str, strlen(l->str));
			else {
				units_format(num, sizeof(num), l->num,
				    units_of_label(l->key, l->num_unit));
				pview_buf_add(&a->nb, num, strlen(num));
			}
			any = 1;
		} else if (any)
			break;
		else {
			pview_buf_add(&a->nb, key, strlen(key));
			pview_buf_add(&a->nb, " unset", 6);
		}
		n = agg_node_get(a);
		if (a->hot[n].seen == a->stamp)
			continue;
		a->hot[n].seen = a->stamp;
		for (c = 0; c < AGG_NCOLS; c++) {
			a->nodes[n].flat[c] += w[c];
			a->hot[n].cum[c] += w[c];
		}
		if (a->mom != NULL) {
			aggmom_reserve(a->mom, a->nnodes);
			aggmom_cum(a->mom, n, a->stamp);
			aggmom_flat(a->mom, n);
		}
	}
}

/* Copy the cums folding keeps beside the nodes into the nodes. */
static void
sync_cum(struct agg *a)
{
	size_t	 i;
	int	 c;

	for (i = 0; i < a->nnodes; i++)
		for (c = 0; c < AGG_NCOLS; c++)
			a->nodes[i].cum[c] = a->hot[i].cum[c];
}

/* One profile being folded, a sample at a time. */
struct agg_run {
	struct agg	*a;
	struct view	 v;
	struct agg_src	 src;
	size_t		 i;		/* samples seen */
	unsigned char	*idle;		/* agg_idle_locs(), or NULL */
};

struct agg_run *
agg_begin(struct agg *a, const struct profile *p, const struct agg_src *src,
    struct diag *d)
{
	struct agg_run	*r;
	size_t		 li;

	if (check_src(p, src, d) == -1)
		return NULL;
	index_drop(a);
	r = xcalloc(1, sizeof(*r));
	r->a = a;
	r->src = *src;
	r->v.p = p;
	r->idle = a->opts.idle_apart ? agg_idle_locs(p) : NULL;
	if (a->opts.label_key != NULL)
		return r;
	r->v.loc = xreallocarray(NULL, p->nlocations, a->opts.noedges ?
	    sizeof(struct locres) : sizeof(struct locframes));
	for (li = 0; li < p->nlocations; li++) {
		loc_res(&r->v, li, !a->opts.noedges)->off = NONE32;
		if (!a->opts.noedges)
			loc_edges(&r->v, li)->ecallee = NONE32;
	}
	if (a->opts.gran == AGG_FUNCTIONS) {
		r->v.fnode = xreallocarray(NULL, p->nfunctions ?
		    p->nfunctions : 1, sizeof(*r->v.fnode));
		memset(r->v.fnode, 0xff, p->nfunctions * sizeof(*r->v.fnode));
	}
	view_mappings_setup(a, &r->v);
	pview_prune(p, &a->nb, &r->v.pflags, &r->v.lineoff);
	return r;
}

int
agg_sample(struct agg_run *r, const struct pf_sample *s, int fold,
    struct diag *d)
{
	struct agg	*a = r->a;
	struct ustack	 u;
	int64_t		 abs[AGG_NCOLS];
	size_t		 i = r->i++;
	int		 c;

	if (r->v.mseen != NULL)
		view_mappings_sample(a, &r->v, s);
	u.w[AGG_VALUE] = s->values[r->src.value_index];
	u.w[AGG_COUNT] = sample_count(s, &r->src);
	/*
	 * An idle sample is counted whatever its value of the type read:
	 * Datadog's time profiles give "(idle)" CPU time and no wall time,
	 * and how much of the time the thread was idle is still a fact
	 * of the window (agg_idle()).
	 */
	if (r->idle != NULL && s->nlocs > 0 &&
	    r->idle[s->locs[0] - r->v.p->locations]) {
		for (c = 0; c < AGG_NCOLS; c++)
			a->idle[c] += u.w[c];
		a->nidle++;
		return 0;
	}
	/* graph.newGraph skips samples whose value is zero. */
	if (u.w[AGG_VALUE] == 0)
		return 0;
	abs[AGG_VALUE] = a->abstotal[AGG_VALUE];
	abs[AGG_COUNT] = a->abstotal[AGG_COUNT];
	if (add_abs(&abs[AGG_VALUE], u.w[AGG_VALUE]) == -1)
		return diag_set(d, DIAG_LIMIT, -1, "sample %zu: sum of "
		    "sample type %d overflows a 64-bit integer", i,
		    r->src.value_index);
	if (add_abs(&abs[AGG_COUNT], u.w[AGG_COUNT]) == -1)
		return diag_set(d, DIAG_LIMIT, -1, "sample %zu: sum of "
		    "sample counts overflows a 64-bit integer", i);
	for (c = 0; c < AGG_NCOLS; c++) {
		a->total[c] += u.w[c];
		a->abstotal[c] = abs[c];
	}
	a->nsamples++;
	if (a->mom != NULL)
		aggmom_sample(a->mom, s, &r->src, u.w);
	if (!fold)
		return 0;
	if (a->opts.label_key != NULL)
		fold_labels(a, s, u.w);
	else {
		u.locs = s->locs;
		u.nlocs = s->nlocs;
		fold_stack(a, &r->v, &u);
	}
	return 0;
}

/*
 * agg_sample() apart, so that its code, the hottest of folding, is the
 * same whether views are asked for or not.
 */
int
agg_sample_hook(struct agg_run *r, const struct pf_sample *s, int fold,
    struct diag *d, agg_hook_fn *fn, void *ctx)
{
	int64_t	 w[AGG_NCOLS];

	if (agg_sample(r, s, fold, d) == -1)
		return -1;
	if (!fold || r->a->opts.label_key != NULL ||
	    (w[AGG_VALUE] = s->values[r->src.value_index]) == 0)
		return 0;
	w[AGG_COUNT] = sample_count(s, &r->src);
	fn(ctx, s, view_prune_sample(&r->v, s->locs, s->nlocs), r->v.lineoff,
	    w);
	return 0;
}

void
agg_end(struct agg_run *r)
{
	if (r == NULL)
		return;
	if (r->a->opts.label_key == NULL)
		view_flush(r->a, &r->v);
	view_free(&r->v);
	free(r->idle);
	sync_cum(r->a);
	r->a->nprofiles++;
	free(r);
}

int
agg_add(struct agg *a, const struct profile *p, const struct agg_src *src,
    struct diag *d)
{
	struct agg_run	*r;
	size_t		 i;

	if (check_add(a, p, src, d) == -1 ||
	    (r = agg_begin(a, p, src, d)) == NULL)
		return -1;
	/* check_add() saw every sum fit: agg_sample() cannot fail. */
	for (i = 0; i < p->nsamples; i++)
		(void)agg_sample(r, &p->samples[i], src->keep == NULL ||
		    src->keep[i], d);
	agg_end(r);
	return 0;
}

size_t
agg_nnodes(const struct agg *a)
{
	return a->nnodes;
}

const struct agg_node *
agg_node(const struct agg *a, size_t i)
{
	return i < a->nnodes ? &a->nodes[i] : NULL;
}

long
agg_find(const struct agg *a, const char *name)
{
	struct nkey	 k;
	size_t		 n;

	k.a = a;
	k.name = name;
	k.h = itab_hash_bytes(name, strlen(name));
	n = itab_find(&a->ntab, k.h, node_eq, &k);
	return n == ITAB_NONE ? -1 : (long)n;
}

size_t
agg_ntree(const struct agg *a)
{
	return a->ntree;
}

const struct agg_tnode *
agg_tree(const struct agg *a, size_t i)
{
	return i < a->ntree ? &a->tree[i] : NULL;
}

size_t
agg_nedges(const struct agg *a)
{
	return a->nedges;
}

const struct agg_edge *
agg_edge(const struct agg *a, size_t i)
{
	return i < a->nedges ? &a->etab[a->eorder[i]] : NULL;
}

void
agg_each_edge(const struct agg *a,
    void (*fn)(void *, const struct agg_edge *), void *arg)
{
	size_t	 j;

	for (j = 0; j < a->etabcap; j++)
		if (a->etab[j].caller != NONE32)
			fn(arg, &a->etab[j]);
}

/*
 * Index the edges by caller and by callee: two counting sorts of the
 * edge numbers, so that each node's edges are in ascending order.
 */
void
agg_index_edges(struct agg *a)
{
	const struct agg_edge	*ed;
	uint32_t		*po, *pi;
	size_t			 i;

	if (a->eout_at != NULL)
		return;
	a->eout_at = xcalloc(a->nnodes + 1, sizeof(*a->eout_at));
	a->ein_at = xcalloc(a->nnodes + 1, sizeof(*a->ein_at));
	a->eout = xreallocarray(NULL, a->nedges ? a->nedges : 1,
	    sizeof(*a->eout));
	a->ein = xreallocarray(NULL, a->nedges ? a->nedges : 1,
	    sizeof(*a->ein));
	for (i = 0; i < a->nedges; i++) {
		ed = &a->etab[a->eorder[i]];
		a->eout_at[ed->caller + 1]++;
		a->ein_at[ed->callee + 1]++;
	}
	for (i = 0; i < a->nnodes; i++) {
		a->eout_at[i + 1] += a->eout_at[i];
		a->ein_at[i + 1] += a->ein_at[i];
	}
	/* Each node's next free place, from a copy of the offsets. */
	po = xreallocarray(NULL, a->nnodes + 1, sizeof(*po));
	pi = xreallocarray(NULL, a->nnodes + 1, sizeof(*pi));
	memcpy(po, a->eout_at, (a->nnodes + 1) * sizeof(*po));
	memcpy(pi, a->ein_at, (a->nnodes + 1) * sizeof(*pi));
	for (i = 0; i < a->nedges; i++) {
		ed = &a->etab[a->eorder[i]];
		a->eout[po[ed->caller]++] = (uint32_t)i;
		a->ein[pi[ed->callee]++] = (uint32_t)i;
	}
	free(po);
	free(pi);
}

const uint32_t *
agg_edges_out(const struct agg *a, size_t node, size_t *n)
{
	*n = 0;
	if (a->eout_at == NULL || node >= a->nnodes)
		return NULL;
	*n = a->eout_at[node + 1] - a->eout_at[node];
	return a->eout + a->eout_at[node];
}

const uint32_t *
agg_edges_in(const struct agg *a, size_t node, size_t *n)
{
	*n = 0;
	if (a->ein_at == NULL || node >= a->nnodes)
		return NULL;
	*n = a->ein_at[node + 1] - a->ein_at[node];
	return a->ein + a->ein_at[node];
}

int64_t
agg_total(const struct agg *a, enum agg_col c)
{
	return a->total[c];
}

int64_t
agg_abs_total(const struct agg *a, enum agg_col c)
{
	return a->abstotal[c];
}

size_t
agg_nsamples(const struct agg *a)
{
	return a->nsamples;
}

const struct aggmom *
agg_aggmom(const struct agg *a)
{
	return a->mom;
}

size_t
agg_nprofiles(const struct agg *a)
{
	return a->nprofiles;
}

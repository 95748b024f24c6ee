/*
 * Frames for flame graphs: the calling-context trees of the two sides,
 * merged by the path of frame names from the root, so that a frame of
 * base and one of new are the same frame when every name above them is
 * the same.  A frame's cum is what the samples through its path added;
 * its share (its width), its value in the quantity the table compares,
 * the change of that value, and the test of its cum sample counts are
 * those of a function's row in delta.c, through the same delta_judge
 * and against the same denominators: with rates, the sides' exposures,
 * not their totals, so that a frame that holds all of a function's
 * samples says what its row says.  Only frames at least min_share of
 * either side (and whose parent is) are tested, so that
 * Benjamini-Hochberg counts the frames a reader can see, not the
 * thousands of slivers no one could.
 *
 * Smaller frames are not even made: a profile of random deep stacks has
 * millions of distinct paths, and a flame graph shows a few thousand.
 * Each side's tree is walked to make the frames that pass min_share on
 * that side, then both are walked again to add their values to the
 * frames that exist, so a frame large on one side only still gets the
 * other side's numbers.  What the frames not made held stays in their
 * parent's cum (cum - flat - the children's cum).  No I/O here, and
 * nothing about how frames are drawn.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/delta.h"
#include "core/flame.h"
#include "core/itab.h"
#include "stats/stats.h"
#include "support/xmalloc.h"

/* The frame table while it is built: open addressing on (parent, name). */
struct fbuild {
	struct flame	*fl;
	size_t		 cap;
	struct itab	 tab;		/* the frames by parent and name */
	uint64_t	*hash;		/* per frame */
};

static uint64_t
frame_hash(const void *ctx, size_t i)
{
	return ((const struct fbuild *)ctx)->hash[i];
}

/* What frame_eq() looks for: a parent, a name and their hash. */
struct flook {
	const struct fbuild *b;
	size_t		 parent;
	const char	*name;
	uint64_t	 h;
};

static int
frame_eq(const void *ctx, size_t i)
{
	const struct flook	*l = ctx;
	const struct flame_frame *f = &l->b->fl->frames[i];

	return l->b->hash[i] == l->h && f->parent == l->parent &&
	    strcmp(f->name, l->name) == 0;
}

/* The child of parent named name, made if new and make is set; or -1. */
static long
frame_get(struct fbuild *b, size_t parent, const char *name, uint64_t nh,
    int make)
{
	struct flame		*fl = b->fl;
	struct flame_frame	*f;
	struct flook		 l;
	uint64_t		 h = itab_hash_pair(parent, nh);
	size_t			 i;

	l.b = b;
	l.parent = parent;
	l.name = name;
	l.h = h;
	if ((i = itab_find(&b->tab, h, frame_eq, &l)) != ITAB_NONE)
		return (long)i;
	if (!make)
		return -1;
	if (fl->nframes == b->cap) {
		b->cap *= 2;
		fl->frames = xreallocarray(fl->frames, b->cap,
		    sizeof(*fl->frames));
		b->hash = xreallocarray(b->hash, b->cap, sizeof(*b->hash));
	}
	f = &fl->frames[fl->nframes];
	memset(f, 0, sizeof(*f));
	f->name = name;
	f->parent = parent;
	f->depth = fl->frames[parent].depth + 1;
	b->hash[fl->nframes] = h;
	fl->nframes++;
	itab_add(&b->tab, h, fl->nframes, 1024, frame_hash, b);
	return (long)(fl->nframes - 1);
}

/*
 * Map every tree node of a to its frame, making the frames of nodes
 * whose |cum| is at least make_min (none if make_min is negative), or
 * FLAME_NONE.  Tree nodes come after their parents, so the parent's
 * frame is known.  The caller frees the map.
 */
static size_t *
map_tree(struct fbuild *b, const struct agg *a, double make_min)
{
	size_t		 n = agg_ntree(a), nn = agg_nnodes(a), i, pf;
	size_t		*map = xreallocarray(NULL, n + 1, sizeof(*map));
	uint64_t	*nh = xreallocarray(NULL, nn + 1, sizeof(*nh));
	unsigned char	*have = xcalloc(nn + 1, 1);
	long		 f;

	for (i = 0; i < n; i++) {
		const struct agg_tnode *t = agg_tree(a, i);
		const char *name = agg_node(a, t->node)->name;

		pf = t->parent == AGG_ROOT ? 0 : map[t->parent];
		if (pf == FLAME_NONE) {
			map[i] = FLAME_NONE;
			continue;
		}
		if (!have[t->node]) {
			nh[t->node] = itab_hash_bytes(name, strlen(name));
			have[t->node] = 1;
		}
		f = frame_get(b, pf, name, nh[t->node], make_min >= 0 &&
		    fabs((double)t->cum[AGG_VALUE]) >= make_min);
		map[i] = f < 0 ? FLAME_NONE : (size_t)f;
	}
	free(nh);
	free(have);
	return map;
}

/* Add a side's values to the frames that exist (making none). */
static void
add_side(struct fbuild *b, const struct agg *a, int is_new)
{
	size_t	*map = map_tree(b, a, -1), i;

	for (i = 0; i < agg_ntree(a); i++) {
		const struct agg_tnode *t = agg_tree(a, i);
		struct flame_frame *f;

		if (map[i] == FLAME_NONE)
			continue;
		f = &b->fl->frames[map[i]];

		if (is_new) {
			f->new_cum += t->cum[AGG_VALUE];
			f->new_flat += t->flat[AGG_VALUE];
			f->new_count += t->cum[AGG_COUNT];
		} else {
			f->base_cum += t->cum[AGG_VALUE];
			f->base_flat += t->flat[AGG_VALUE];
			f->base_count += t->cum[AGG_COUNT];
		}
	}
	free(map);
}

/* Each profile's cum count of every frame, into column col of each[]. */
static void
add_each(struct fbuild *b, const struct agg *a, int64_t *each, size_t ncol,
    size_t col)
{
	size_t	*map = map_tree(b, a, -1), i;

	for (i = 0; i < agg_ntree(a); i++)
		if (map[i] != FLAME_NONE)
			each[map[i] * ncol + col] += agg_tree(a, i)->cum[AGG_COUNT];
	free(map);
}

static double
share(int64_t v, int64_t total)
{
	return total != 0 ? (double)v / (double)total : 0;
}

struct kidkey {
	size_t		 parent;
	const char	*name;
	size_t		 idx;
};

static int
cmp_kid(const void *a, const void *b)
{
	const struct kidkey *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
link_kids(struct flame *fl)
{
	struct kidkey	*k;
	size_t		 i, n = fl->nframes - 1;

	k = xreallocarray(NULL, n + 1, sizeof(*k));
	for (i = 1; i < fl->nframes; i++) {
		k[i - 1].parent = fl->frames[i].parent;
		k[i - 1].name = fl->frames[i].name;
		k[i - 1].idx = i;
	}
	qsort(k, n, sizeof(*k), cmp_kid);
	fl->kids = xreallocarray(NULL, n + 1, sizeof(*fl->kids));
	for (i = 0; i < n; i++) {
		struct flame_frame *p = &fl->frames[k[i].parent];

		if (p->nkids++ == 0)
			p->kid0 = i;
		fl->kids[i] = k[i].idx;
	}
	free(k);
}

/*
 * The least |cum| of a frame worth making on a side: min_share of its
 * total, a hair lower so that rounding never loses a visible frame.
 */
static double
make_min(int64_t total, double min_share)
{
	return min_share * fabs((double)total) * (1 - 1e-9);
}

/* The root's columns: the whole side, and what no frame holds. */
static void
fill_root(struct flame *fl)
{
	struct flame_frame	*r = &fl->frames[0];
	size_t			 i;

	r->base_cum = r->base_flat = fl->base_total;
	r->new_cum = r->new_flat = fl->new_total;
	r->base_count = fl->base_n;
	r->new_count = fl->new_n;
	for (i = 1; i < fl->nframes; i++)
		if (fl->frames[i].parent == 0) {
			r->base_flat -= fl->frames[i].base_cum;
			r->new_flat -= fl->frames[i].new_cum;
		}
}

struct named {
	const char	*name;
	size_t		 frame;
};

static int
cmp_named(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name,
	    ((const struct named *)b)->name);
}

/*
 * One profile a side: the spread of no change from each function's flat
 * count (the samples of the frames of its name that end there), as the
 * table's rows give it, so that the graph and the table judge alike
 * (judge_null()).  Returns 0, or -1 on an invalid count.
 */
static int
null_of_frames(const struct flame *fl, struct judge *j)
{
	struct named	*ix;
	size_t		 i, k, m = 0;
	int64_t		*k1, *k2, s1, s2;
	int		 rc;

	if (j->replicates || fl->nframes < 2)
		return 0;
	ix = xcalloc(fl->nframes, sizeof(*ix));
	k1 = xcalloc(2 * fl->nframes, sizeof(*k1));
	k2 = k1 + fl->nframes;
	for (i = 1; i < fl->nframes; i++) {
		ix[i - 1].name = fl->frames[i].name;
		ix[i - 1].frame = i;
	}
	qsort(ix, fl->nframes - 1, sizeof(*ix), cmp_named);
	for (i = 0; i < fl->nframes - 1; i++) {
		const struct flame_frame *f = &fl->frames[ix[i].frame];

		s1 = f->base_count;
		s2 = f->new_count;
		for (k = 0; k < f->nkids; k++) {
			s1 -= fl->frames[fl->kids[f->kid0 + k]].base_count;
			s2 -= fl->frames[fl->kids[f->kid0 + k]].new_count;
		}
		if (i == 0 || strcmp(f->name, ix[i - 1].name) != 0)
			m++;
		k1[m - 1] += s1 > 0 ? s1 : 0;
		k2[m - 1] += s2 > 0 ? s2 : 0;
	}
	rc = judge_null(j, k1, k2, m);
	free(k1);
	free(ix);
	return rc;
}

/*
 * What the frames' family divides by: the table's, as delta.c's
 * denominators() made them for its rows.  With an exposure, each side's
 * counts are tested out of its cden, its part of 2^50 by its exposure
 * (between replicates each run's part of that, by its own exposure, as
 * the rows'), and a value's share is of the side's vden, so that the
 * tests, --min-effect and the verdicts are the table's rows'.  Else
 * shares of each side's samples and values.
 */
struct fden {
	int64_t		 n1, n2;	/* the tests' totals */
	double		 v1, v2;	/* a value's share is of these */
	double		 cscale;	/* a share of n to the engine's shares */
	double		 min_pp;
};

static void
frame_den(const struct flame *fl, const struct delta_opts *o,
    const struct delta *t, struct fden *dn)
{
	if (fl->exposure) {
		dn->n1 = t->base_cden;
		dn->n2 = t->new_cden;
		dn->v1 = t->base_vden;
		dn->v2 = t->new_vden;
		dn->cscale = t->cscale;
		dn->min_pp = t->min_pp;
		return;
	}
	dn->n1 = fl->base_n;
	dn->n2 = fl->new_n;
	dn->v1 = (double)fl->base_total;
	dn->v2 = (double)fl->new_total;
	dn->cscale = 1;
	dn->min_pp = t != NULL ? t->min_pp : o->min_effect_pp;
}

static double
vshare(int64_t v, double den)
{
	return den != 0 ? (double)v / den : 0;
}

/*
 * A tested frame's verdict: a discovery whose change passes
 * --min-effect, in the direction of the change shown (delta_n), which
 * its counts' change must share: where values per sample differ
 * between the sides, they may not, and the frame is then not called a
 * change, as a row whose values disagree is not (delta.c).
 */
static enum verdict
frame_verdict(const struct judge *j, const struct judge_hyp *h,
    const struct flame_frame *f)
{
	if (judge_significant(j, h) && f->relevant)
		return f->st.diff * f->delta_n <= 0 ? VERDICT_UNCHANGED :
		    f->delta_n > 0 ? VERDICT_REGRESSED : VERDICT_IMPROVED;
	if (judge_insufficient(j, h))
		return VERDICT_INSUFFICIENT;
	return VERDICT_UNCHANGED;
}

/*
 * The frames drawn, tested as one family (judge.h) on their cum counts,
 * as the table's rows are, against its denominators (struct fden):
 * each frame's verdict from its discovery and --min-effect.  Returns 0,
 * or -1 if a count is invalid.
 */
static int
judge_frames(struct flame *fl, struct agg *const *be, size_t nb,
    struct agg *const *ne, size_t nn, const struct delta_opts *o,
    const struct delta *t, const int64_t *each)
{
	struct judge		 j;
	struct judge_hyp	*h;
	struct delta_opts	 so = *o;
	struct fden		 dn;
	int64_t			*runs = NULL;
	size_t			*at, i, m = 0, w = nb + nn, k;
	int			 rc = 0;

	if (each != NULL)
		runs = xcalloc((fl->nframes + 1) * w, sizeof(*runs));
	frame_den(fl, o, t, &dn);
	/*
	 * Without an exposure the frames are shares of each side's
	 * samples: each run's total is then its own count, not a part of
	 * the side's samples by exposure (which a run's frame could
	 * exceed).  With one, each run's part of its side's cden.
	 */
	if (!fl->exposure)
		so.norm = DELTA_NORM_TOTAL;
	delta_judge_init(&j, &so, dn.min_pp, dn.n1, dn.n2, be, nb, ne, nn);
	fl->replicates = j.replicates;
	h = xcalloc(fl->nframes + 1, sizeof(*h));
	at = xcalloc(fl->nframes + 1, sizeof(*at));
	for (i = 1; i < fl->nframes; i++) {
		struct flame_frame *f = &fl->frames[i];

		f->relevant = judge_relevant(&j, vshare(f->base_cum, dn.v1),
		    vshare(f->new_cum, dn.v2));
		if (!f->visible)
			continue;
		h[m].k1 = f->base_count;
		h[m].k2 = f->new_count;
		h[m].kind = JUDGE_CUM;
		for (k = 0; runs != NULL && k < w; k++)
			runs[m * w + k] = each[i * w + k];
		at[m++] = i;
	}
	if (o->nulls != NULL)
		judge_null_from(&j, o->nulls);
	else if (o->same_process)
		j.null_given = 1;
	else
		rc = null_of_frames(fl, &j);
	if (rc == 0)
		rc = judge_family(&j, h, m, runs);
	fl->ntested = j.ntested;
	for (k = 0; k < m && rc == 0; k++) {
		struct flame_frame *f = &fl->frames[at[k]];

		f->tested = h[k].tested;
		f->st = h[k].st;
		f->st.diff *= dn.cscale;
		f->st.lo *= dn.cscale;
		f->st.hi *= dn.cscale;
		f->q = h[k].q;
		f->verdict = frame_verdict(&j, &h[k], f);
	}
	/* Frames not drawn are not tested. */
	for (i = 1; i < fl->nframes; i++)
		if (!fl->frames[i].visible) {
			fl->frames[i].q = NAN;
			fl->frames[i].verdict = VERDICT_INSUFFICIENT;
		}
	/* The summary outlives the family; its runs' totals do not. */
	fl->judge = j;
	fl->judge.n1r = fl->judge.n2r = NULL;
	judge_release(&j);
	free(h);
	free(at);
	free(runs);
	return rc;
}

/*
 * Each frame's value in the table's quantity, as delta_norm() gives a
 * row's: a share, or the value over its side's exposure.
 */
static void
frame_norm(struct flame *fl, const struct delta_opts *o,
    const struct delta *t)
{
	size_t	 i;

	for (i = 0; i < fl->nframes; i++) {
		struct flame_frame *f = &fl->frames[i];

		if (fl->norm == DELTA_NORM_TOTAL) {
			f->base_cum_n = f->base_share;
			f->new_cum_n = f->new_share;
		} else {
			f->base_cum_n = delta_norm(t, o, f->base_cum, 0);
			f->new_cum_n = delta_norm(t, o, f->new_cum, 1);
		}
		f->delta_n = f->new_cum_n - f->base_cum_n;
	}
}

int
flame_compute(const struct agg *base, const struct agg *new,
    struct agg *const *be, size_t nb, struct agg *const *ne, size_t nn,
    const struct delta_opts *o, const struct delta *t, double min_share,
    struct flame *fl)
{
	struct fbuild	 b;
	int64_t		*each = NULL;
	size_t		 i, ncol = nb + nn;
	int		 rc = 0;

	memset(fl, 0, sizeof(*fl));
	memset(&b, 0, sizeof(b));
	b.fl = fl;
	b.cap = 256;
	fl->frames = xcalloc(b.cap, sizeof(*fl->frames));
	b.hash = xcalloc(b.cap, sizeof(*b.hash));
	fl->nframes = 1;
	fl->frames[0].name = "all";
	fl->frames[0].parent = FLAME_NONE;
	fl->single = base == NULL;
	fl->min_share = min_share;
	/* The table's quantity, and its exposures if it tested against them. */
	fl->norm = base != NULL && o != NULL && t != NULL ? o->norm :
	    DELTA_NORM_TOTAL;
	fl->exposure = fl->norm != DELTA_NORM_TOTAL && t->exposure;
	itab_add(&b.tab, b.hash[0], fl->nframes, 1024, frame_hash, &b);

	fl->new_total = agg_total(new, AGG_VALUE);
	fl->new_n = agg_total(new, AGG_COUNT);
	if (base != NULL) {
		fl->base_total = agg_total(base, AGG_VALUE);
		fl->base_n = agg_total(base, AGG_COUNT);
		free(map_tree(&b, base, make_min(fl->base_total, min_share)));
	}
	free(map_tree(&b, new, make_min(fl->new_total, min_share)));
	if (base != NULL)
		add_side(&b, base, 0);
	add_side(&b, new, 1);
	fill_root(fl);

	if (base != NULL && o != NULL && nb >= 2 && nn >= 2) {
		each = xcalloc(fl->nframes * ncol + 1, sizeof(*each));
		for (i = 0; i < nb; i++)
			add_each(&b, be[i], each, ncol, i);
		for (i = 0; i < nn; i++)
			add_each(&b, ne[i], each, ncol, nb + i);
	}
	itab_release(&b.tab);
	free(b.hash);

	for (i = 0; i < fl->nframes; i++) {
		struct flame_frame *f = &fl->frames[i];

		f->base_share = share(f->base_cum, fl->base_total);
		f->new_share = share(f->new_cum, fl->new_total);
		f->delta = f->new_share - f->base_share;
		f->status = fl->single || (f->base_cum != 0 &&
		    f->new_cum != 0) ? STATUS_BOTH : f->new_cum == 0 &&
		    f->base_cum != 0 ? STATUS_GONE : f->base_cum == 0 &&
		    f->new_cum != 0 ? STATUS_NEW : STATUS_BOTH;
		f->q = NAN;
		f->verdict = VERDICT_INSUFFICIENT;
		f->visible = i == 0 || (fl->frames[f->parent].visible &&
		    (fabs(f->base_share) >= min_share ||
		    fabs(f->new_share) >= min_share));
		if (f->visible)
			fl->nvisible++;
	}
	link_kids(fl);
	frame_norm(fl, o, t);
	if (!fl->single && o != NULL)
		rc = judge_frames(fl, be, nb, ne, nn, o, t, each);
	free(each);
	return rc;
}

void
flame_release(struct flame *fl)
{
	free(fl->frames);
	free(fl->kids);
	memset(fl, 0, sizeof(*fl));
}

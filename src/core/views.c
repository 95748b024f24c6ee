/*
 * --list and --peek: the views that explain a diff (views.h).
 *
 * The lines of --list are folded here, apart from the agg, as pprof's
 * -list folds them (granularity lines): a line of a function is keyed
 * by the function's name, its file and the line number; a sample adds
 * its value to the cum of each distinct line of a matching function on
 * its stack, once, and to the flat of the innermost frame of its leaf
 * location, as agg.c does for nodes.  Only the functions --list
 * matches are kept, so the collector is as small as the listing.
 *
 * The lines are tested as a family of their own: each line's flat and
 * cum sample counts, one hypothesis when they are the same samples,
 * judged as the rows are (judge.c) but apart from them, so that listing
 * a function does not change a row's verdict.  No I/O here.
 */
#include <math.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "support/arena.h"
#include "core/delta.h"
#include "support/diag.h"
#include "core/filter.h"
#include "core/itab.h"
#include "core/judge.h"
#include "model/profile.h"
#include "core/views.h"
#include "support/xmalloc.h"

#define NONE32		UINT32_MAX	/* a function that --list does not match */
#define UNSET32		(UINT32_MAX - 1)	/* matches; no group yet */

struct views_spec {
	const char	*list, *peek;	/* the expressions, borrowed */
	regex_t		 list_re, peek_re;
};

/* A function in a file, and what the samples through it added. */
struct vgroup {
	const char	*name, *file;	/* in the collector's arena */
	uint64_t	 hash;
	uint64_t	 seen;		/* stamp of the last sample in its cum */
	int64_t		 flat[AGG_NCOLS], cum[AGG_NCOLS];
};

/* A line of a group. */
struct vline {
	uint32_t	 group;
	int64_t		 line;
	uint64_t	 seen;
	int64_t		 flat[AGG_NCOLS], cum[AGG_NCOLS];
};

struct views_lines {
	const struct views_spec *spec;
	int		 noinlines;
	size_t		 nprof;		/* profiles the side will fold */
	size_t		 iprof;		/* the one being folded */
	int64_t		*runs;		/* per line, per profile: flat and
					   cum counts, for replicates */
	struct arena	*names;
	struct vgroup	*g;
	size_t		 ng, gcap;
	struct itab	 gtab;		/* groups by name and file */
	struct vline	*l;
	size_t		 nl, lcap;
	struct itab	 ltab;		/* lines by group and number */
	uint64_t	 stamp;		/* one per sample */
	/* The profile being folded: */
	const struct profile *p;
	uint32_t	*fgroup;	/* per function: group, NONE32, UNSET32 */
	unsigned char	*locm;		/* per location: a line matches */
};

static const char *
str(const char *s)
{
	return s != NULL ? s : "";
}

int
views_spec_new(const char *list, const char *peek, struct views_spec **out,
    struct diag *d)
{
	struct views_spec *v;

	*out = NULL;
	if (list == NULL && peek == NULL)
		return 0;
	v = xcalloc(1, sizeof(*v));
	if (list != NULL && filter_regcomp(&v->list_re, list, "--list",
	    d) == -1) {
		free(v);
		return -1;
	}
	if (peek != NULL && filter_regcomp(&v->peek_re, peek, "--peek",
	    d) == -1) {
		if (list != NULL)
			regfree(&v->list_re);
		free(v);
		return -1;
	}
	v->list = list;
	v->peek = peek;
	*out = v;
	return 0;
}

void
views_spec_free(struct views_spec *v)
{
	if (v == NULL)
		return;
	if (v->list != NULL)
		regfree(&v->list_re);
	if (v->peek != NULL)
		regfree(&v->peek_re);
	free(v);
}

int
views_spec_lists(const struct views_spec *v)
{
	return v != NULL && v->list != NULL;
}

struct views_lines *
views_lines_new(const struct views_spec *spec, int noinlines,
    size_t nprofiles)
{
	struct views_lines *vl;

	vl = xcalloc(1, sizeof(*vl));
	vl->spec = spec;
	vl->noinlines = noinlines;
	vl->nprof = nprofiles > 0 ? nprofiles : 1;
	vl->names = arena_new();
	return vl;
}

void
views_lines_free(struct views_lines *vl)
{
	if (vl == NULL)
		return;
	arena_free(vl->names);
	free(vl->g);
	free(vl->l);
	free(vl->runs);
	itab_release(&vl->gtab);
	itab_release(&vl->ltab);
	free(vl->fgroup);
	free(vl->locm);
	free(vl);
}

/*
 * Which functions of p --list matches (a test of each name, once a
 * profile), and which locations hold one of them, so that a sample
 * whose stack holds none costs a byte a location.
 */
void
views_lines_begin(struct views_lines *vl, const struct profile *p)
{
	const struct pf_function *f;
	size_t			 i, k;

	vl->p = p;
	vl->fgroup = xreallocarray(NULL, p->nfunctions ? p->nfunctions : 1,
	    sizeof(*vl->fgroup));
	vl->locm = xcalloc(p->nlocations ? p->nlocations : 1, 1);
	for (i = 0; i < p->nfunctions; i++) {
		f = &p->functions[i];
		vl->fgroup[i] = vl->spec->list != NULL &&
		    str(f->name)[0] != '\0' && regexec(&vl->spec->list_re,
		    f->name, 0, NULL, 0) == 0 ? UNSET32 : NONE32;
	}
	for (i = 0; i < p->nlocations; i++)
		for (k = 0; k < p->locations[i].nlines; k++) {
			f = p->locations[i].lines[k].function;
			if (f != NULL && vl->fgroup[f - p->functions] != NONE32)
				vl->locm[i] = 1;
		}
}

void
views_lines_end(struct views_lines *vl)
{
	free(vl->fgroup);
	free(vl->locm);
	vl->fgroup = NULL;
	vl->locm = NULL;
	vl->p = NULL;
	if (vl->iprof + 1 < vl->nprof)
		vl->iprof++;
}

static uint64_t
group_hash(const char *name, const char *file)
{
	return itab_hash_pair(itab_hash_bytes(name, strlen(name)),
	    itab_hash_bytes(file, strlen(file)));
}

static uint64_t
group_rehash(const void *ctx, size_t i)
{
	return ((const struct views_lines *)ctx)->g[i].hash;
}

struct gkey {
	const struct views_lines *vl;
	const char	*name, *file;
	uint64_t	 h;
};

static int
group_eq(const void *ctx, size_t i)
{
	const struct gkey	*k = ctx;
	const struct vgroup	*g = &k->vl->g[i];

	return g->hash == k->h && strcmp(g->name, k->name) == 0 &&
	    strcmp(g->file, k->file) == 0;
}

/* The group of function f, found or made. */
static uint32_t
group_of(struct views_lines *vl, const struct pf_function *f)
{
	struct vgroup	*g;
	struct gkey	 k;
	size_t		 i;

	k.vl = vl;
	k.name = str(f->name);
	k.file = str(f->filename);
	k.h = group_hash(k.name, k.file);
	if ((i = itab_find(&vl->gtab, k.h, group_eq, &k)) == ITAB_NONE) {
		if (vl->ng == vl->gcap) {
			if (vl->gcap >= UNSET32 / 2)
				xmalloc(SIZE_MAX);	/* out of memory */
			vl->gcap = vl->gcap ? 2 * vl->gcap : 16;
			vl->g = xreallocarray(vl->g, vl->gcap, sizeof(*vl->g));
		}
		g = &vl->g[i = vl->ng++];
		memset(g, 0, sizeof(*g));
		g->name = arena_strndup(vl->names, k.name, strlen(k.name));
		g->file = arena_strndup(vl->names, k.file, strlen(k.file));
		g->hash = k.h;
		itab_add(&vl->gtab, k.h, vl->ng, 64, group_rehash, vl);
	}
	return (uint32_t)i;
}

static uint64_t
line_hash(uint32_t group, int64_t line)
{
	return itab_hash_pair(group, (uint64_t)line);
}

static uint64_t
line_rehash(const void *ctx, size_t i)
{
	const struct vline *l = &((const struct views_lines *)ctx)->l[i];

	return line_hash(l->group, l->line);
}

struct lkey {
	const struct views_lines *vl;
	uint32_t	 group;
	int64_t		 line;
};

static int
line_eq(const void *ctx, size_t i)
{
	const struct lkey	*k = ctx;
	const struct vline	*l = &k->vl->l[i];

	return l->group == k->group && l->line == k->line;
}

static struct vline *
line_of(struct views_lines *vl, uint32_t group, int64_t line)
{
	struct lkey	 k;
	uint64_t	 h = line_hash(group, line);
	size_t		 i;

	k.vl = vl;
	k.group = group;
	k.line = line;
	if ((i = itab_find(&vl->ltab, h, line_eq, &k)) != ITAB_NONE)
		return &vl->l[i];
	if (vl->nl == vl->lcap) {
		vl->lcap = vl->lcap ? 2 * vl->lcap : 64;
		vl->l = xreallocarray(vl->l, vl->lcap, sizeof(*vl->l));
		vl->runs = xreallocarray(vl->runs, vl->lcap, 2 * vl->nprof *
		    sizeof(*vl->runs));
	}
	memset(&vl->runs[vl->nl * 2 * vl->nprof], 0, 2 * vl->nprof *
	    sizeof(*vl->runs));
	memset(&vl->l[vl->nl], 0, sizeof(vl->l[0]));
	vl->l[vl->nl].group = group;
	vl->l[vl->nl].line = line;
	vl->nl++;
	itab_add(&vl->ltab, h, vl->nl, 256, line_rehash, vl);
	return &vl->l[vl->nl - 1];
}

/* Add the sample's columns to a frame of a matching function. */
static void
add_frame(struct views_lines *vl, const struct pf_line *ln, int leaf,
    const int64_t w[AGG_NCOLS])
{
	uint32_t	*fg = &vl->fgroup[ln->function - vl->p->functions];
	struct vgroup	*g;
	struct vline	*l;
	int64_t		*run;
	int		 c;

	if (*fg == UNSET32)
		*fg = group_of(vl, ln->function);
	g = &vl->g[*fg];
	l = line_of(vl, *fg, ln->line);
	run = &vl->runs[((size_t)(l - vl->l) * vl->nprof + vl->iprof) * 2];
	if (leaf)
		run[0] += w[AGG_COUNT];
	if (l->seen != vl->stamp)
		run[1] += w[AGG_COUNT];
	for (c = 0; c < AGG_NCOLS; c++) {
		if (leaf) {
			g->flat[c] += w[c];
			l->flat[c] += w[c];
		}
		if (g->seen != vl->stamp)
			g->cum[c] += w[c];
		if (l->seen != vl->stamp)
			l->cum[c] += w[c];
	}
	g->seen = l->seen = vl->stamp;
}

/*
 * agg's hook: the frames of the stack from locs[lo], each location's
 * lines from lineoff (only its outermost with noinlines), as agg.c's
 * view_resolve() makes them frames; the innermost frame of the leaf
 * location takes the flat value.
 */
void
views_lines_sample(void *ctx, const struct pf_sample *s, size_t lo,
    const size_t *lineoff, const int64_t w[AGG_NCOLS])
{
	struct views_lines		*vl = ctx;
	const struct pf_location	*loc;
	const struct pf_line		*ln;
	size_t				 j, k, k0, li;

	vl->stamp++;
	for (j = lo; j < s->nlocs; j++) {
		li = (size_t)(s->locs[j] - vl->p->locations);
		if (!vl->locm[li])
			continue;
		loc = &vl->p->locations[li];
		k0 = vl->noinlines ? loc->nlines - 1 : lineoff != NULL ?
		    lineoff[li] : 0;
		for (k = k0; k < loc->nlines; k++) {
			ln = &loc->lines[k];
			if (ln->function != NULL && vl->fgroup[ln->function -
			    vl->p->functions] != NONE32)
				add_frame(vl, ln, j == lo && k == k0, w);
		}
	}
}

static double
share(int64_t v, int64_t total)
{
	return total != 0 ? (double)v / (double)total : 0;
}

/* A line of one side's collector, for the sort that joins the sides. */
struct lref {
	const struct views_lines *vl;
	const struct vline *l;
	int		 is_new;
};

static int
lref_cmp(const void *a, const void *b)
{
	const struct lref	*x = a, *y = b;
	const struct vgroup	*gx = &x->vl->g[x->l->group];
	const struct vgroup	*gy = &y->vl->g[y->l->group];
	int			 c;

	if ((c = strcmp(gx->name, gy->name)) != 0 ||
	    (c = strcmp(gx->file, gy->file)) != 0)
		return c;
	if (x->l->line != y->l->line)
		return x->l->line < y->l->line ? -1 : 1;
	return x->is_new - y->is_new;
}

static size_t
add_refs(struct lref *r, size_t n, const struct views_lines *vl, int is_new)
{
	size_t i;

	for (i = 0; vl != NULL && i < vl->nl; i++) {
		r[n].vl = vl;
		r[n].l = &vl->l[i];
		r[n++].is_new = is_new;
	}
	return n;
}

static long
row_named(const struct delta *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nrows; i++)
		if (strcmp(d->rows[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* Start the list of the group of r, one side's half of it. */
static void
list_side(struct view_list *vw, const struct lref *r)
{
	const struct vgroup *g = &r->vl->g[r->l->group];

	vw->name = g->name;
	vw->file = g->file;
	if (r->is_new) {
		vw->new_flat = g->flat[AGG_VALUE];
		vw->new_cum = g->cum[AGG_VALUE];
	} else {
		vw->base_flat = g->flat[AGG_VALUE];
		vw->base_cum = g->cum[AGG_VALUE];
	}
}

/* One side's half of a line. */
static void
line_side(struct view_line *l, const struct lref *r)
{
	const int64_t *runs = &r->vl->runs[(size_t)(r->l - r->vl->l) * 2 *
	    r->vl->nprof];

	l->line = r->l->line;
	if (r->is_new) {
		l->nruns = runs;
		l->new_flat = r->l->flat[AGG_VALUE];
		l->new_cum = r->l->cum[AGG_VALUE];
		l->new_flat_count = r->l->flat[AGG_COUNT];
		l->new_count = r->l->cum[AGG_COUNT];
	} else {
		l->bruns = runs;
		l->base_flat = r->l->flat[AGG_VALUE];
		l->base_cum = r->l->cum[AGG_VALUE];
		l->base_flat_count = r->l->flat[AGG_COUNT];
		l->base_count = r->l->cum[AGG_COUNT];
	}
}

/*
 * Join the two sides' lines into lists, one per function and file, by
 * name, then file, then line.
 */
static void
join_lists(struct views *v, const struct views_lines *b,
    const struct views_lines *n)
{
	struct lref	*r;
	struct view_list *vw = NULL;
	size_t		 nr, i, nl = 0;

	nr = (b != NULL ? b->nl : 0) + (n != NULL ? n->nl : 0);
	r = xreallocarray(NULL, nr ? nr : 1, sizeof(*r));
	nr = add_refs(r, 0, b, 0);
	nr = add_refs(r, nr, n, 1);
	qsort(r, nr, sizeof(*r), lref_cmp);
	v->lists = xcalloc(nr ? nr : 1, sizeof(*v->lists));
	v->store = xcalloc(nr ? nr : 1, sizeof(*v->store));
	for (i = 0; i < nr; i++) {
		const struct vgroup *g = &r[i].vl->g[r[i].l->group];
		struct view_line *l;

		if (vw == NULL || strcmp(vw->name, g->name) != 0 ||
		    strcmp(vw->file, g->file) != 0) {
			vw = &v->lists[v->nlists++];
			vw->lines = &v->store[nl];
		}
		list_side(vw, &r[i]);
		if (vw->nlines == 0 || vw->lines[vw->nlines - 1].line !=
		    r[i].l->line) {
			vw->nlines++;
			nl++;
		}
		l = &vw->lines[vw->nlines - 1];
		line_side(l, &r[i]);
	}
	free(r);
}

/* The numbers of a list and of its lines in the report's unit. */
static void
normalize_list(struct view_list *vw, const struct delta *d,
    const struct delta_opts *o)
{
	size_t i;

	vw->base_flat_n = delta_norm(d, o, vw->base_flat, 0);
	vw->new_flat_n = delta_norm(d, o, vw->new_flat, 1);
	vw->base_cum_n = delta_norm(d, o, vw->base_cum, 0);
	vw->new_cum_n = delta_norm(d, o, vw->new_cum, 1);
	vw->delta_flat = vw->new_flat_n - vw->base_flat_n;
	vw->delta = vw->new_cum_n - vw->base_cum_n;
	vw->row = row_named(d, vw->name);
	for (i = 0; i < vw->nlines; i++) {
		struct view_line *l = &vw->lines[i];

		l->base_flat_n = delta_norm(d, o, l->base_flat, 0);
		l->new_flat_n = delta_norm(d, o, l->new_flat, 1);
		l->base_cum_n = delta_norm(d, o, l->base_cum, 0);
		l->new_cum_n = delta_norm(d, o, l->new_cum, 1);
		l->delta_flat = l->new_flat_n - l->base_flat_n;
		l->delta = l->new_cum_n - l->base_cum_n;
		l->verdict = VERDICT_UNCHANGED;
	}
}

/*
 * A line's verdict, by delta.c's rule for a row: a hypothesis that is
 * a discovery and whose change of share passes --min-effect flags it,
 * the cum one deciding when the two disagree.
 */
static void
line_verdict(const struct judge *j, struct view_line *l, const struct delta *d)
{
	const struct judge_hyp *h;
	double	 bf = share(l->base_flat, d->base_total);
	double	 nf = share(l->new_flat, d->new_total);
	double	 bc = share(l->base_cum, d->base_total);
	double	 nc = share(l->new_cum, d->new_total);
	int	 f, c;

	f = judge_significant(j, &l->flat) && judge_relevant(j, bf, nf);
	c = judge_significant(j, &l->cum) && judge_relevant(j, bc, nc);
	if (f && c && (nf - bf) * (nc - bc) < 0)
		f = 0;
	l->hyp = (f ? DELTA_HYP_FLAT : 0) | (c ? DELTA_HYP_CUM : 0);
	if (l->hyp != 0 && l->same)
		l->hyp = DELTA_HYP_BOTH;
	h = l->hyp == DELTA_HYP_FLAT ? &l->flat : &l->cum;
	if (l->hyp != 0)
		l->verdict = h->st.diff > 0 ? VERDICT_REGRESSED :
		    VERDICT_IMPROVED;
	else if (judge_insufficient(j, &l->flat) &&
	    judge_insufficient(j, &l->cum))
		l->verdict = VERDICT_INSUFFICIENT;
	else
		l->verdict = VERDICT_UNCHANGED;
}

/*
 * Hypothesis m's counts run by run, the base side's runs then the new
 * side's, from the lines' collectors: cum, or else flat.
 */
static void
line_runs(int64_t *runs, size_t m, const struct view_line *l,
    const struct views_runs *vr, int cum)
{
	size_t k, w = vr->nb + vr->nn;

	for (k = 0; runs != NULL && k < w; k++) {
		const int64_t *r = k < vr->nb ? l->bruns : l->nruns;
		size_t j = k < vr->nb ? k : k - vr->nb;

		runs[m * w + k] = r != NULL ? r[2 * j + cum] : 0;
	}
}

/*
 * The lines' family: every listed line's flat and cum counts, one
 * hypothesis when they are equal (flat is a subset of cum: the same
 * samples), tested and adjusted together.  Returns 0, or -1 on counts
 * invalid for the statistics.
 */
static int
judge_lines(struct views *v, const struct delta *d, const struct delta_opts *o,
    const struct views_runs *vr)
{
	struct judge_hyp *h;
	int64_t		*runs = NULL;
	size_t		 i, k, m = 0, w = vr->nb + vr->nn;
	int		 rc;

	for (i = 0; i < v->nlists; i++)
		m += 2 * v->lists[i].nlines;
	if (!o->has_counts || m == 0)
		return 0;
	delta_judge_init(&v->judge, o, d->min_pp, d->base_n, d->new_n, vr->be,
	    vr->nb, vr->ne, vr->nn);
	h = xcalloc(m, sizeof(*h));
	if (v->judge.replicates)
		runs = xcalloc(m * w, sizeof(*runs));
	m = 0;
	for (i = 0; i < v->nlists; i++)
		for (k = 0; k < v->lists[i].nlines; k++) {
			struct view_line *l = &v->lists[i].lines[k];

			l->same = l->base_flat_count == l->base_count &&
			    l->new_flat_count == l->new_count;
			h[m].k1 = l->base_count;
			h[m].k2 = l->new_count;
			line_runs(runs, m++, l, vr, 1);
			if (l->same)
				continue;
			h[m].k1 = l->base_flat_count;
			h[m].k2 = l->new_flat_count;
			line_runs(runs, m++, l, vr, 0);
		}
	rc = judge_family(&v->judge, h, m, runs);
	free(runs);
	v->nhyp = m;
	v->tested = 1;
	m = 0;
	for (i = 0; i < v->nlists && rc == 0; i++)
		for (k = 0; k < v->lists[i].nlines; k++) {
			struct view_line *l = &v->lists[i].lines[k];

			l->cum = h[m++];
			l->flat = l->same ? l->cum : h[m++];
			line_verdict(&v->judge, l, d);
		}
	free(h);
	return rc;
}

static int
edge_cmp(const void *a, const void *b)
{
	const struct view_edge	*x = a, *y = b;
	double			 ax = fabs(x->delta), ay = fabs(y->delta);

	if (ax != ay)
		return ax > ay ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Row r's edges out of it (out) or into it, without its calls of
 * itself, most change first.  *n gets how many.
 */
static struct view_edge *
peek_edges(struct delta *d, const struct delta_opts *o, size_t r, int out,
    size_t *n)
{
	const struct delta_edge	*e;
	struct view_edge	*ve;
	size_t			 k, i;

	k = delta_edges(d, r, out, &e);
	ve = xcalloc(k ? k : 1, sizeof(*ve));
	*n = 0;
	for (i = 0; i < k; i++) {
		struct view_edge *x;

		if (e[i].from == e[i].to)
			continue;
		x = &ve[(*n)++];
		x->row = out ? e[i].to : e[i].from;
		x->name = d->rows[x->row].name;
		x->base = e[i].base;
		x->new = e[i].new;
		x->base_n = delta_norm(d, o, e[i].base, 0);
		x->new_n = delta_norm(d, o, e[i].new, 1);
		x->delta = x->new_n - x->base_n;
	}
	qsort(ve, *n, sizeof(*ve), edge_cmp);
	return ve;
}

/* The rows --peek matches, by the change of cum, then name. */
static void
peek_rows(struct views *v, const struct views_spec *spec, struct delta *d,
    const struct delta_opts *o)
{
	struct delta_key *key;
	size_t		 i, n = 0;

	key = xcalloc(d->nrows + 1, sizeof(*key));
	for (i = 0; i < d->nrows; i++) {
		const struct delta_row *row = &d->rows[i];

		if ((row->base_flat == 0 && row->new_flat == 0 &&
		    row->base_cum == 0 && row->new_cum == 0) ||
		    regexec(&spec->peek_re, row->name, 0, NULL, 0) != 0)
			continue;
		key[n].key = fabs(row->delta_share);
		key[n].name = row->name;
		key[n++].idx = i;
	}
	qsort(key, n, sizeof(*key), delta_key_cmp);
	v->peeks = xcalloc(n + 1, sizeof(*v->peeks));
	for (i = 0; i < n; i++) {
		struct view_peek *pk = &v->peeks[i];

		pk->row = key[i].idx;
		pk->callers = peek_edges(d, o, pk->row, 0, &pk->ncallers);
		pk->callees = peek_edges(d, o, pk->row, 1, &pk->ncallees);
	}
	v->npeeks = n;
	free(key);
}

int
views_compute(struct views *v, const struct views_spec *spec,
    const struct views_lines *base, const struct views_lines *new,
    const struct views_runs *vr, struct delta *d,
    const struct delta_opts *o)
{
	size_t i;

	memset(v, 0, sizeof(*v));
	if (spec == NULL)
		return 0;
	v->list_re = spec->list;
	v->peek_re = spec->peek;
	if (spec->list != NULL) {
		join_lists(v, base, new);
		for (i = 0; i < v->nlists; i++)
			normalize_list(&v->lists[i], d, o);
		if (judge_lines(v, d, o, vr) == -1)
			return -1;
	}
	if (spec->peek != NULL)
		peek_rows(v, spec, d, o);
	return 0;
}

void
views_release(struct views *v)
{
	size_t i;

	free(v->store);
	free(v->lists);
	for (i = 0; i < v->npeeks; i++) {
		free(v->peeks[i].callers);
		free(v->peeks[i].callees);
	}
	free(v->peeks);
	if (v->tested)
		judge_release(&v->judge);
	memset(v, 0, sizeof(*v));
}

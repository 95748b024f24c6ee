/*
 * The sequence of profdiff series: each point's per-function counts,
 * kept as a list of (function, point, flat, cum) so that a point costs
 * what it holds and its aggregate can be freed at once; the union of
 * the call graph's edges, for the paths and the carriers; and for
 * replicates, each function's Pearson statistic within the points, for
 * the dispersion shared across functions.  Then the changes: one scan
 * a hypothesis (a function's flat or cum counts along the points,
 * stats_cpt.c), one family under the discrete FDR, binary segmentation
 * of the discoveries, the transients, and the carriers grouped under
 * the change they carry.  doc/statistics.md explains the choices.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/itab.h"
#include "core/series.h"
#include "core/series_int.h"
#include "stats/stats.h"
#include "support/diag.h"
#include "support/xmalloc.h"

#define SERIES_FIRST_CAP	1024

void
series_init(struct series *s)
{
	memset(s, 0, sizeof(*s));
}

void
series_release(struct series *s)
{
	size_t i;

	for (i = 0; i < s->npts; i++) {
		free(s->pts[i].label);
		free(s->pts[i].path);
	}
	for (i = 0; i < s->nfuncs; i++)
		free(s->names[i]);
	free(s->pts);
	free(s->names);
	free(s->slot);
	free(s->ent);
	free(s->wide);
	free(s->edges);
	free(s->eslot);
	free(s->x2);
	free(s->xdf);
	free(s->xv);
	memset(s, 0, sizeof(*s));
}

static uint64_t
name_hash(const char *name)
{
	return itab_hash_bytes(name, strlen(name));
}

static void
names_rehash(struct series *s)
{
	size_t i, j;

	s->cap = s->cap ? s->cap * 2 : SERIES_FIRST_CAP;
	free(s->slot);
	s->slot = xcalloc(s->cap, sizeof(*s->slot));
	for (i = 0; i < s->nfuncs; i++) {
		for (j = itab_home(name_hash(s->names[i]), s->cap);
		    s->slot[j] != 0; j = itab_next(j, s->cap))
			continue;
		s->slot[j] = i + 1;
	}
}

/* The function's id, added if new; UINT32_MAX when there are too many. */
static uint32_t
intern(struct series *s, const char *name)
{
	size_t j, n;

	if (2 * (s->nfuncs + 1) > s->cap)
		names_rehash(s);
	for (j = itab_home(name_hash(name), s->cap); s->slot[j] != 0;
	    j = itab_next(j, s->cap))
		if (strcmp(s->names[s->slot[j] - 1], name) == 0)
			return (uint32_t)(s->slot[j] - 1);
	if (s->nfuncs >= UINT32_MAX - 1)
		return UINT32_MAX;
	if (s->nfuncs == s->capfuncs) {
		n = s->capfuncs ? 2 * s->capfuncs : 256;
		s->names = xreallocarray(s->names, n, sizeof(*s->names));
		s->x2 = xreallocarray(s->x2, 2 * n, sizeof(*s->x2));
		s->xdf = xreallocarray(s->xdf, 2 * n, sizeof(*s->xdf));
		s->xv = xreallocarray(s->xv, 2 * n, sizeof(*s->xv));
		s->capfuncs = n;
	}
	s->names[s->nfuncs] = xstrdup(name);
	s->x2[2 * s->nfuncs] = s->x2[2 * s->nfuncs + 1] = 0;
	s->xdf[2 * s->nfuncs] = s->xdf[2 * s->nfuncs + 1] = 0;
	s->xv[2 * s->nfuncs] = s->xv[2 * s->nfuncs + 1] = 0;
	s->slot[j] = s->nfuncs + 1;
	return (uint32_t)s->nfuncs++;
}

static uint64_t
edge_hash(uint32_t a, uint32_t b)
{
	return itab_hash_pair(a, b);
}

static void
edges_rehash(struct series *s)
{
	size_t i, j;

	s->ecap = s->ecap ? s->ecap * 2 : SERIES_FIRST_CAP;
	free(s->eslot);
	s->eslot = xcalloc(s->ecap, sizeof(*s->eslot));
	for (i = 0; i < s->nedges; i++) {
		for (j = itab_home(edge_hash(s->edges[i].caller,
		    s->edges[i].callee), s->ecap); s->eslot[j] != 0;
		    j = itab_next(j, s->ecap))
			continue;
		s->eslot[j] = i + 1;
	}
}

/*
 * Add |w| to the edge a -> b.  Returns 0, or -1 when its sum over the
 * points would overflow 64 bits (checked before adding: no wrap, no
 * undefined behaviour), the edge then as it was.
 */
static int
add_edge(struct series *s, uint32_t a, uint32_t b, int64_t w)
{
	struct series_edge	*e;
	size_t			 j;
	int64_t			 sum;

	if (w == INT64_MIN)
		return -1;
	w = w < 0 ? -w : w;
	if (2 * (s->nedges + 1) > s->ecap)
		edges_rehash(s);
	for (j = itab_home(edge_hash(a, b), s->ecap); s->eslot[j] != 0;
	    j = itab_next(j, s->ecap)) {
		e = &s->edges[s->eslot[j] - 1];
		if (e->caller == a && e->callee == b) {
			if (__builtin_add_overflow(e->w, w, &sum))
				return -1;
			e->w = sum;
			return 0;
		}
	}
	if (s->nedges == s->capedges) {
		s->capedges = s->capedges ? 2 * s->capedges : 256;
		s->edges = xreallocarray(s->edges, s->capedges,
		    sizeof(*s->edges));
	}
	e = &s->edges[s->nedges];
	e->caller = a;
	e->callee = b;
	e->w = w;
	s->eslot[j] = ++s->nedges;
	return 0;
}

/* Can the statistics take count k (stats.h: 0 to STATS_MAX_N)? */
static int
count_ok(int64_t k)
{
	return k >= 0 && k <= STATS_MAX_N;
}

/*
 * Are a point's counts ones the statistics can take: its total, and
 * each function's flat and cum?  Checked as the point is added, so
 * that every sum of counts over the points is bounded (make_hyps()),
 * and the file at fault is named.
 */
static int
counts_ok(const struct agg *merged)
{
	size_t i;

	if (!count_ok(agg_total(merged, AGG_COUNT)))
		return 0;
	for (i = 0; i < agg_nnodes(merged); i++) {
		const struct agg_node *nd = agg_node(merged, i);

		if (!count_ok(nd->flat[AGG_COUNT]) ||
		    !count_ok(nd->cum[AGG_COUNT]))
			return 0;
	}
	return 1;
}

/*
 * Replicates: each function's Pearson statistic on the point's
 * profiles, flat and cum, summed over the points (stats_disp.c's, with
 * the point as its one side).
 */
static void
add_dispersion(struct series *s, const struct agg *merged,
    struct agg *const *each, size_t neach, const uint32_t *map)
{
	struct stats_disp	 sd;
	int64_t			*k, *kv, *n;
	size_t			 i, r, v;
	long			 at;

	k = xreallocarray(NULL, 2 * neach, sizeof(*k));
	kv = xreallocarray(NULL, neach, sizeof(*kv));
	n = xreallocarray(NULL, neach, sizeof(*n));
	for (r = 0; r < neach; r++)
		n[r] = agg_total(each[r], AGG_COUNT);
	for (i = 0; i < agg_nnodes(merged); i++) {
		const struct agg_node *nd = agg_node(merged, i);

		if (nd->cum[AGG_COUNT] == 0 && nd->flat[AGG_COUNT] == 0)
			continue;
		for (r = 0; r < neach; r++) {
			at = agg_find(each[r], nd->name);
			k[2 * r] = at < 0 ? 0 :
			    agg_node(each[r], (size_t)at)->flat[AGG_COUNT];
			k[2 * r + 1] = at < 0 ? 0 :
			    agg_node(each[r], (size_t)at)->cum[AGG_COUNT];
		}
		for (v = 0; v < 2; v++) {
			for (r = 0; r < neach; r++)
				kv[r] = k[2 * r + v];
			if (stats_disp_pearson(kv, n, neach, NULL, NULL, 0,
			    &sd) == -1 || !(sd.df > 0))
				continue;
			s->x2[2 * map[i] + v] += sd.s2 * sd.df;
			s->xdf[2 * map[i] + v] += sd.df;
			s->xv[2 * map[i] + v] += sd.v * sd.df;
		}
	}
	free(k);
	free(kv);
	free(n);
	s->nrep_points++;
}

int
series_add(struct series *s, const struct agg *merged,
    struct agg *const *each, size_t neach, const char *label,
    const char *path, int64_t time_ns, int64_t duration_ns, struct diag *d)
{
	struct series_point	*pt;
	uint32_t		*map;
	size_t			 i, nn = agg_nnodes(merged);

	if (s->npts >= UINT32_MAX - 1)
		return diag_set(d, DIAG_LIMIT, -1, "more than 2^32 - 2 "
		    "points in the series");
	if (!counts_ok(merged))
		return diag_set_msg(d, DIAG_USAGE, MSG_OUT_OF_RANGE);
	if (s->npts == s->cappts) {
		s->cappts = s->cappts ? 2 * s->cappts : 64;
		s->pts = xreallocarray(s->pts, s->cappts, sizeof(*s->pts));
	}
	pt = &s->pts[s->npts];
	pt->label = xstrdup(label);
	pt->path = xstrdup(path);
	pt->time_ns = time_ns;
	pt->n = agg_total(merged, AGG_COUNT);
	pt->seconds = (double)duration_ns / 1e9;
	pt->nrep = neach > 1 ? neach : 1;
	map = xreallocarray(NULL, nn + 1, sizeof(*map));
	for (i = 0; i < nn; i++) {
		const struct agg_node	*nd = agg_node(merged, i);
		struct series_ent	*e;

		if ((map[i] = intern(s, nd->name)) == UINT32_MAX) {
			free(map);
			return diag_set(d, DIAG_LIMIT, -1, "more than 2^32 - 2 "
			    "functions in the series");
		}
		if (nd->flat[AGG_COUNT] == 0 && nd->cum[AGG_COUNT] == 0)
			continue;
		if (s->nent == s->capent) {
			s->capent = s->capent ? 2 * s->capent : 4096;
			s->ent = xreallocarray(s->ent, s->capent,
			    sizeof(*s->ent));
		}
		e = &s->ent[s->nent++];
		e->fid = map[i];
		e->t = (uint32_t)s->npts;
		if (nd->flat[AGG_COUNT] >= 0 && nd->cum[AGG_COUNT] >= 0 &&
		    nd->flat[AGG_COUNT] < SERIES_WIDE &&
		    nd->cum[AGG_COUNT] < SERIES_WIDE) {
			e->flat = (uint32_t)nd->flat[AGG_COUNT];
			e->cum = (uint32_t)nd->cum[AGG_COUNT];
			continue;
		}
		/* Rare: counts too large for 32 bits. */
		e->flat = e->cum = SERIES_WIDE;
		if (s->nwide == s->capwide) {
			s->capwide = s->capwide ? 2 * s->capwide : 16;
			s->wide = xreallocarray(s->wide, s->capwide,
			    sizeof(*s->wide));
		}
		s->wide[s->nwide].ent = s->nent - 1;
		s->wide[s->nwide].flat = nd->flat[AGG_COUNT];
		s->wide[s->nwide++].cum = nd->cum[AGG_COUNT];
	}
	for (i = 0; i < agg_nedges(merged); i++) {
		const struct agg_edge *e = agg_edge(merged, i);

		if (add_edge(s, map[e->caller], map[e->callee], e->w) == -1) {
			diag_set(d, DIAG_LIMIT, -1, "the values of the call "
			    "%s -> %s over the points overflow a 64-bit "
			    "integer", s->names[map[e->caller]],
			    s->names[map[e->callee]]);
			free(map);
			free(pt->label);
			free(pt->path);
			return -1;
		}
	}
	if (neach >= 2)
		add_dispersion(s, merged, each, neach, map);
	free(map);
	s->npts++;
	return 0;
}

static const struct series_point *sort_pts;

static int
cmp_time(const void *a, const void *b)
{
	const size_t	 x = *(const size_t *)a, y = *(const size_t *)b;
	int64_t		 tx = sort_pts[x].time_ns, ty = sort_pts[y].time_ns;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

void
series_sort_time(struct series *s)
{
	struct series_point	*pts;
	size_t			*ord, *inv, i;

	if (s->npts < 2)
		return;
	ord = xreallocarray(NULL, s->npts, sizeof(*ord));
	inv = xreallocarray(NULL, s->npts, sizeof(*inv));
	pts = xreallocarray(NULL, s->cappts, sizeof(*pts));
	for (i = 0; i < s->npts; i++)
		ord[i] = i;
	sort_pts = s->pts;
	qsort(ord, s->npts, sizeof(*ord), cmp_time);
	for (i = 0; i < s->npts; i++) {
		pts[i] = s->pts[ord[i]];
		inv[ord[i]] = i;
	}
	for (i = 0; i < s->nent; i++)
		s->ent[i].t = (uint32_t)inv[s->ent[i].t];
	free(s->pts);
	s->pts = pts;
	free(ord);
	free(inv);
}

/* What series_compute() works with. */
struct work {
	const struct series	*s;
	const struct series_opts *o;
	enum stats_cpt_model	 model;
	double			*e;		/* exposure a point */
	size_t			*off;		/* entries by fid */
	size_t			*byfid;
	double			 phi, df;
	double			 ci_alpha;	/* of the intervals */
	double			 thr;		/* a discovery's p */
	size_t			 kept, rejected;
	int64_t			*k;		/* one hypothesis' counts */
};

/* Entry i's counts, from the wide table when they did not fit. */
static void
ent_counts(const struct series *s, size_t i, int64_t *flat, int64_t *cum)
{
	const struct series_ent	*e = &s->ent[i];
	size_t			 lo = 0, hi = s->nwide, mid;

	if (e->flat != SERIES_WIDE) {
		*flat = e->flat;
		*cum = e->cum;
		return;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->wide[mid].ent < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	*flat = s->wide[lo].flat;
	*cum = s->wide[lo].cum;
}

/* Fill w->k with function fid's flat or cum count at each point. */
static void
counts_of(struct work *w, uint32_t fid, int cum)
{
	size_t i;

	memset(w->k, 0, w->s->npts * sizeof(*w->k));
	for (i = w->off[fid]; i < w->off[fid + 1]; i++) {
		int64_t f, c;

		ent_counts(w->s, w->byfid[i], &f, &c);
		w->k[w->s->ent[w->byfid[i]].t] = cum ? c : f;
	}
}

static void
index_entries(struct work *w)
{
	const struct series	*s = w->s;
	size_t			 i, *fill;

	w->off = xcalloc(s->nfuncs + 2, sizeof(*w->off));
	w->byfid = xreallocarray(NULL, s->nent + 1, sizeof(*w->byfid));
	for (i = 0; i < s->nent; i++)
		w->off[s->ent[i].fid + 1]++;
	for (i = 0; i < s->nfuncs; i++)
		w->off[i + 1] += w->off[i];
	fill = xreallocarray(NULL, s->nfuncs + 1, sizeof(*fill));
	memcpy(fill, w->off, (s->nfuncs + 1) * sizeof(*fill));
	for (i = 0; i < s->nent; i++)
		w->byfid[fill[s->ent[i].fid]++] = i;
	free(fill);
}

/*
 * The dispersion shared across functions, from the replicates' Pearson
 * statistics: 1 (known) when the runs agree, as in diff.
 */
static void
shared_dispersion(struct work *w)
{
	const struct series		*s = w->s;
	struct stats_disp		*d;
	struct stats_disp_prior		 pr;
	size_t				 i, m = 0;

	w->phi = 1;
	w->df = HUGE_VAL;
	if (s->nrep_points == 0)
		return;
	d = xreallocarray(NULL, 2 * s->nfuncs + 1, sizeof(*d));
	for (i = 0; i < 2 * s->nfuncs; i++) {
		if (!(s->xdf[i] > 0))
			continue;
		d[m].s2 = s->x2[i] / s->xdf[i];
		d[m].df = s->xdf[i];
		/* A run's binomial variance is at most its expected count. */
		d[m].v = s->xv[i] / s->xdf[i];
		d[m++].minexp = s->xv[i] / s->xdf[i];
	}
	if (stats_disp_prior(d, m, &pr) == 0 && !pr.binomial && pr.df > 0) {
		w->phi = fmax(1, pr.s02);
		w->df = pr.df;
	}
	free(d);
}

struct hyp {
	uint32_t	 fid;
	int		 cum;
	struct stats_cpt c;
};

/*
 * The hypotheses: each function's flat counts and cum counts along the
 * sequence, one test when they are the same at every point (a leaf).
 */
static struct hyp *
make_hyps(struct work *w, size_t *nh, size_t *nsplits, size_t *nfuncs)
{
	const struct series	*s = w->s;
	struct hyp		*h;
	size_t			 i, j, t, n = 0;
	int			 same;

	h = xreallocarray(NULL, 2 * s->nfuncs + 1, sizeof(*h));
	*nsplits = *nfuncs = 0;
	for (i = 0; i < s->nfuncs; i++) {
		same = 1;
		for (j = w->off[i]; j < w->off[i + 1]; j++) {
			int64_t f, c;

			ent_counts(s, w->byfid[j], &f, &c);
			same &= f == c;
		}
		*nfuncs += w->off[i + 1] > w->off[i];
		for (j = 0; j < 2; j++) {
			if (j == 1 && same)
				continue;
			counts_of(w, (uint32_t)i, (int)j);
			/*
			 * No samples, nothing to test.  The counts are 0 to
			 * STATS_MAX_N (counts_ok()): their sum over 2^32
			 * points would not fit 64 bits, and is not needed.
			 */
			for (t = 0; t < s->npts && w->k[t] == 0; t++)
				continue;
			if (t == s->npts)
				continue;
			h[n].fid = (uint32_t)i;
			h[n].cum = (int)j;
			if (stats_cpt_scan(w->k, w->e, 0, s->npts, w->model,
			    w->phi, w->df, &h[n].c) == -1) {
				free(h);
				return NULL;
			}
			*nsplits = h[n].c.nsplits;
			n++;
		}
	}
	*nh = n;
	return h;
}

/* A change point of one hypothesis, before its levels are known. */
struct cp {
	size_t		 at;
	double		 p, q;
};

static int
cmp_cp(const void *a, const void *b)
{
	const struct cp *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Binary segmentation of a discovery: the segments on either side of
 * each change found are scanned again, and a change in one is kept
 * when its p-value is under the threshold the family's discoveries
 * needed; its q is that p on the family's scale (p kept / R).
 */
static struct cp *
segment(struct work *w, const struct hyp *h, double q, size_t *ncp)
{
	struct stats_cpt	 c;
	struct cp		*cp;
	size_t			*stack, nstack = 0, n = 0, lo, hi, T = w->s->npts;

	cp = xreallocarray(NULL, T + 1, sizeof(*cp));
	stack = xreallocarray(NULL, 2 * (T + 1), sizeof(*stack));
	cp[n].at = h->c.split;
	cp[n].p = h->c.p;
	cp[n++].q = q;
	stack[nstack++] = 0;
	stack[nstack++] = h->c.split;
	stack[nstack++] = h->c.split;
	stack[nstack++] = T;
	while (nstack > 0) {
		hi = stack[--nstack];
		lo = stack[--nstack];
		if (hi - lo < 2 || stats_cpt_scan(w->k, w->e, lo, hi,
		    w->model, w->phi, w->df, &c) == -1 || c.p > w->thr)
			continue;
		cp[n].at = c.split;
		cp[n].p = c.p;
		cp[n++].q = fmin(1, c.p * (double)w->kept /
		    (double)w->rejected);
		stack[nstack++] = lo;
		stack[nstack++] = c.split;
		stack[nstack++] = c.split;
		stack[nstack++] = hi;
	}
	free(stack);
	qsort(cp, n, sizeof(*cp), cmp_cp);
	*ncp = n;
	return cp;
}

/* The level of w->k over the points [from, to), with its interval. */
static void
level(const struct work *w, size_t from, size_t to, double *est,
    double *lo, double *hi)
{
	int64_t	 k = 0;
	double	 n = 0;
	size_t	 t;

	for (t = from; t < to; t++) {
		k += w->k[t];
		n += w->e[t];
	}
	if (stats_cpt_level(k, n, w->model, w->phi, w->df, w->ci_alpha, est,
	    lo, hi) == -1)
		*est = *lo = *hi = NAN;
}

/* --min-effect: in points and relative for shares, relative for rates. */
static int
relevant(const struct work *w, double b, double a)
{
	double d = fabs(a - b);

	if (w->model == STATS_CPT_BINOMIAL && d * 100 < w->o->min_effect_pp)
		return 0;
	return b == 0 || d / b * 100 >= w->o->min_effect_rel;
}

static void
push_change(struct series_change **v, size_t *n, size_t *cap,
    const struct series_change *c)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[(*n)++] = *c;
}

/*
 * The changes of one discovery: each change point with the levels of
 * the segments on either side; two in a row of opposite sign, both
 * relevant, the second back to a level --min-effect cannot tell from
 * the first, are one transient (up and back, or down and back).
 */
static void
changes_of(struct work *w, const struct hyp *h, const struct cp *cp,
    size_t ncp, struct series_change **v, size_t *n, size_t *cap)
{
	struct series_change	 c, c2;
	size_t			 i, T = w->s->npts;
	int			 rel, rel2;

	for (i = 0; i < ncp; i++) {
		memset(&c, 0, sizeof(c));
		c.fid = h->fid;
		c.cum = h->cum;
		c.at = c.until = cp[i].at;
		c.from = i > 0 ? cp[i - 1].at : 0;
		c.to = i + 1 < ncp ? cp[i + 1].at : T;
		c.p = cp[i].p;
		c.q = cp[i].q;
		level(w, c.from, c.at, &c.before, &c.before_lo, &c.before_hi);
		level(w, c.at, c.to, &c.after, &c.after_lo, &c.after_hi);
		if (!(rel = relevant(w, c.before, c.after)))
			continue;
		c.verdict = c.after > c.before ? SERIES_REGRESSED :
		    SERIES_IMPROVED;
		if (i + 1 < ncp) {
			c2 = c;
			c2.from = c.at;
			c2.at = cp[i + 1].at;
			c2.to = i + 2 < ncp ? cp[i + 2].at : T;
			level(w, c2.at, c2.to, &c2.after, &c2.after_lo,
			    &c2.after_hi);
			/* Back: to a level --min-effect cannot tell. */
			rel2 = relevant(w, c.after, c2.after) &&
			    !relevant(w, c.before, c2.after);
			if (rel2 && (c2.after > c.after) != (c.after >
			    c.before)) {
				c.verdict = SERIES_TRANSIENT;
				c.until = cp[i + 1].at;
				c.to = c.until;
				c.p = fmax(c.p, cp[i + 1].p);
				c.q = fmax(c.q, cp[i + 1].q);
				i++;
			}
		}
		c.gbefore = c.before;
		c.gafter = c.after;
		push_change(v, n, cap, &c);
	}
}

/* Callers and callees of each function, from the union of the edges. */
struct graph {
	size_t		*out_off, *out;		/* callees by caller */
	size_t		*in_off, *in;		/* edges by callee */
	unsigned	*stamp;
	unsigned	 now;
	size_t		*queue;
};

static void
graph_build(const struct series *s, struct graph *g)
{
	size_t i, *fo, *fi;

	g->out_off = xcalloc(s->nfuncs + 2, sizeof(size_t));
	g->in_off = xcalloc(s->nfuncs + 2, sizeof(size_t));
	g->out = xreallocarray(NULL, s->nedges + 1, sizeof(size_t));
	g->in = xreallocarray(NULL, s->nedges + 1, sizeof(size_t));
	g->stamp = xcalloc(s->nfuncs + 1, sizeof(*g->stamp));
	g->queue = xreallocarray(NULL, s->nfuncs + 1, sizeof(size_t));
	g->now = 0;
	for (i = 0; i < s->nedges; i++) {
		g->out_off[s->edges[i].caller + 1]++;
		g->in_off[s->edges[i].callee + 1]++;
	}
	for (i = 0; i < s->nfuncs; i++) {
		g->out_off[i + 1] += g->out_off[i];
		g->in_off[i + 1] += g->in_off[i];
	}
	fo = xreallocarray(NULL, s->nfuncs + 1, sizeof(size_t));
	fi = xreallocarray(NULL, s->nfuncs + 1, sizeof(size_t));
	memcpy(fo, g->out_off, (s->nfuncs + 1) * sizeof(size_t));
	memcpy(fi, g->in_off, (s->nfuncs + 1) * sizeof(size_t));
	for (i = 0; i < s->nedges; i++) {
		g->out[fo[s->edges[i].caller]++] = s->edges[i].callee;
		g->in[fi[s->edges[i].callee]++] = i;
	}
	free(fo);
	free(fi);
}

static void
graph_free(struct graph *g)
{
	free(g->out_off);
	free(g->out);
	free(g->in_off);
	free(g->in);
	free(g->stamp);
	free(g->queue);
}

/* The heaviest chain of callers of fid, outermost first. */
static void
path_of(const struct series *s, struct graph *g, struct series_change *c)
{
	size_t	 n = 0, x = c->fid, i, best;
	int64_t	 w;

	g->now++;
	g->stamp[x] = g->now;
	g->queue[n++] = x;
	for (;;) {
		best = SIZE_MAX;
		w = -1;
		for (i = g->in_off[x]; i < g->in_off[x + 1]; i++) {
			const struct series_edge *e = &s->edges[g->in[i]];

			if (g->stamp[e->caller] != g->now && e->w > w) {
				w = e->w;
				best = e->caller;
			}
		}
		if (best == SIZE_MAX)
			break;
		g->stamp[best] = g->now;
		g->queue[n++] = x = best;
	}
	c->path = xreallocarray(NULL, n, sizeof(*c->path));
	for (i = 0; i < n; i++)
		c->path[i] = s->names[g->queue[n - 1 - i]];
	c->npath = n;
}

static size_t
apart(size_t a, size_t b)
{
	return a > b ? a - b : b - a;
}

/* Up (1) or down (0), for a transient the way it went. */
static int
up(const struct series_change *c)
{
	return c->after > c->before;
}

/*
 * Do two changes have the same place, both transient or neither, (a
 * transient also the same place back), and the directions of same?
 */
static int
together(const struct series_change *a, const struct series_change *b,
    int same)
{
	if (apart(a->at, b->at) > 1 || (a->verdict == SERIES_TRANSIENT) !=
	    (b->verdict == SERIES_TRANSIENT))
		return 0;
	if (a->verdict == SERIES_TRANSIENT && apart(a->until, b->until) > 1)
		return 0;
	return (up(a) == up(b)) == same;
}

static int
near(const struct series_change *a, const struct series_change *b)
{
	return together(a, b, 1);
}

int
series_near(const struct series_change *a, const struct series_change *b)
{
	return near(a, b);
}

/*
 * The changes by place, for near() and together(), which take two
 * changes at most a point apart: only those are compared, and grouping
 * is linear in the changes, not quadratic (a series of 1,000 points
 * with thousands of changes spent most of its time comparing them).
 */
struct byat {
	size_t	*off;		/* changes at point t: idx[off[t], off[t + 1]) */
	size_t	*idx;		/* ascending within a point */
	size_t	*near;		/* byat_near()'s answer */
	size_t	 T;
};

static void
byat_build(struct byat *b, const struct series_change *v, size_t n, size_t T)
{
	size_t i, *fill;

	b->T = T;
	b->off = xcalloc(T + 3, sizeof(*b->off));
	b->idx = xreallocarray(NULL, n + 1, sizeof(*b->idx));
	b->near = xreallocarray(NULL, n + 1, sizeof(*b->near));
	for (i = 0; i < n; i++)
		b->off[v[i].at + 1]++;
	for (i = 0; i <= T; i++)
		b->off[i + 1] += b->off[i];
	fill = xreallocarray(NULL, T + 2, sizeof(*fill));
	memcpy(fill, b->off, (T + 2) * sizeof(*fill));
	for (i = 0; i < n; i++)
		b->idx[fill[v[i].at]++] = i;
	free(fill);
}

static void
byat_free(struct byat *b)
{
	free(b->off);
	free(b->idx);
	free(b->near);
}

/*
 * The changes at most a point from at, in ascending order (the order
 * a loop over all of them would meet them in), into b->near.  Returns
 * how many.
 */
static size_t
byat_near(struct byat *b, size_t at)
{
	size_t	 lo[3], hi[3], nb = 0, m = 0, k, t, pick, best;

	for (t = at > 0 ? at - 1 : 0; t <= at + 1 && t <= b->T; t++) {
		lo[nb] = b->off[t];
		hi[nb++] = b->off[t + 1];
	}
	for (;;) {
		best = SIZE_MAX;
		for (k = 0, pick = nb; k < nb; k++)
			if (lo[k] < hi[k] && b->idx[lo[k]] < best) {
				best = b->idx[lo[k]];
				pick = k;
			}
		if (pick == nb)
			return m;
		b->near[m++] = best;
		lo[pick]++;
	}
}

static double
size_of(const struct series_change *c)
{
	return fabs(c->after - c->before);
}

static void
change_free(struct series_change *c)
{
	free(c->path);
	free(c->carriers);
	free(c->crowded);
	free(c->parts);
}

/*
 * Append fid to a change's list of grouped functions: its room doubles
 * at each power of two, so that the 65,000 frames of one stack carried
 * under one change are not copied 65,000 times.
 */
static void
push_fid(uint32_t **list, size_t *n, uint32_t fid)
{
	if ((*n & (*n - 1)) == 0)
		*list = xreallocarray(*list, *n ? 2 * *n : 1, sizeof(**list));
	(*list)[(*n)++] = fid;
}

/*
 * Free the changes grouped under another (into[i] set) and close the
 * gaps they leave; returns the changes kept.
 */
static size_t
drop_joined(struct series_change *v, size_t n, const size_t *into)
{
	size_t	 i, m = 0;

	for (i = 0; i < n; i++) {
		if (into[i] != SIZE_MAX)
			change_free(&v[i]);
		else
			v[m++] = v[i];
	}
	return m;
}

/*
 * Each change i with a host by[i] joins the end of its chain of hosts
 * (each chain followed once), in its parts or, with crowded, in its
 * crowded list; by is the caller's, freed here.  Returns the changes
 * left.
 */
static size_t
join_chains(struct series_change *v, size_t n, size_t *by, int crowded)
{
	size_t	*end, i, j, m;

	end = xreallocarray(NULL, n + 1, sizeof(*end));
	series_chain_ends(by, n, end);
	for (i = 0; i < n; i++) {
		if (by[i] == SIZE_MAX)
			continue;
		j = end[i];
		if (crowded)
			push_fid(&v[j].crowded, &v[j].ncrowded, v[i].fid);
		else
			push_fid(&v[j].parts, &v[j].nparts, v[i].fid);
	}
	m = drop_joined(v, n, by);
	free(by);
	free(end);
	return m;
}

/*
 * Where each change is spent.  A function's cum change beside its own
 * flat change (same place, same direction, at least half as large) is
 * that change, and goes.  A cum change beside the change of a function
 * it calls, in the same direction and at least half as large, is
 * carried: it is grouped under the change at the end of the chain of
 * carriers; but a function that appeared (no samples before) is never
 * the carrier of a callee that appeared with it: the outermost of them
 * is where the change is spent, as diff's "(new)".  The search is
 * series_carriers()'s, linear in the graph for each place (a walk of it
 * for each pair of changes took the cube of a stack's depth).  A chain
 * of carriers that comes round keeps the first of its changes (they
 * are taken in order).  Returns the changes left.
 */
static size_t
group(struct series_graph *sg, struct series_change *v, size_t n)
{
	size_t		*to, *end, i, j, m;
	char		*same;

	to = xreallocarray(NULL, n + 1, sizeof(*to));
	end = xreallocarray(NULL, n + 1, sizeof(*end));
	same = xcalloc(n + 1, 1);
	series_carriers(sg, v, n, to, same);
	series_chain_ends(to, n, end);
	for (i = 0; i < n; i++) {
		if (to[i] == SIZE_MAX || same[i])
			continue;
		j = end[i];
		push_fid(&v[j].carriers, &v[j].ncarriers, v[i].fid);
		if (size_of(&v[i]) > fabs(v[j].gafter - v[j].gbefore)) {
			v[j].gbefore = v[i].before;
			v[j].gafter = v[i].after;
		}
	}
	m = drop_joined(v, n, to);
	free(to);
	free(end);
	free(same);
	return m;
}

static double
gsize_of(const struct series_change *c)
{
	return fabs(c->gafter - c->gbefore);
}

/*
 * A change below a larger one of its group (same place, same direction)
 * is a part of it: the larger change is spent in the subtree that holds
 * both, as when a new function's time is spread over its callees.  Of
 * two as large, the caller holds the callee.  The search is
 * series_parts()'s, linear in the graph for each place (a stack 65,000
 * frames deep is as many changes at one place, and each looked at every
 * other).  Returns the changes left.
 */
static size_t
parts(struct series_graph *sg, struct series_change *v, size_t n)
{
	size_t *by = xreallocarray(NULL, n + 1, sizeof(*by));

	series_parts(sg, v, n, by);
	/*
	 * Each step is to a larger group, or to one as large that calls it
	 * and is not called by it: no cycle.
	 */
	return join_chains(v, n, by, 0);
}

static int
has_part(const struct series_change *c, uint32_t fid)
{
	size_t i;

	for (i = 0; i < c->nparts; i++)
		if (c->parts[i] == fid)
			return 1;
	return c->fid == fid;
}

/*
 * Shares only: a change of the other sign beside a larger one (for a
 * transient, one that went the other way, there and back), whose
 * level after is what the larger change's growth (or shrinking) makes
 * of its level before when its own time stays the same, b (1 - a_G) /
 * (1 - b_G), within its interval, is crowded out (or in) by it, as
 * diff's findings say.  Returns the changes left.
 */
static size_t
crowd(struct series_change *v, size_t n, size_t T, int rates)
{
	struct byat	 b;
	size_t		*by, i, j, k, nk;
	double		 e, best;

	if (rates)
		return n;
	by = xreallocarray(NULL, n + 1, sizeof(*by));
	byat_build(&b, v, n, T);
	for (i = 0; i < n; i++) {
		by[i] = SIZE_MAX;
		nk = byat_near(&b, v[i].at);
		for (k = 0, best = 0; k < nk; k++) {
			j = b.near[k];
			if (j == i || !together(&v[i], &v[j], 0) ||
			    gsize_of(&v[j]) <= gsize_of(&v[i]) ||
			    gsize_of(&v[j]) <= best || v[j].gbefore >= 1)
				continue;
			if (has_part(&v[j], v[i].fid))
				continue;	/* not crowded: it is one */
			e = v[i].before * (1 - v[j].gafter) /
			    (1 - v[j].gbefore);
			if (e >= v[i].after_lo && e <= v[i].after_hi) {
				best = gsize_of(&v[j]);
				by[i] = j;
			}
		}
	}
	byat_free(&b);
	/* Each step is to a larger change: no cycle. */
	return join_chains(v, n, by, 1);
}

static const struct series *sort_series;

/* Larger changes first, then smaller q, then by name. */
static int
cmp_change(const void *a, const void *b)
{
	const struct series_change *x = a, *y = b;

	if (size_of(x) != size_of(y))
		return size_of(x) > size_of(y) ? -1 : 1;
	if (x->q != y->q)
		return x->q < y->q ? -1 : 1;
	if (x->fid != y->fid)
		return strcmp(sort_series->names[x->fid],
		    sort_series->names[y->fid]);
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The family: its q-values, and the threshold a discovery needed. */
static double *
family(struct work *w, const struct hyp *h, size_t nh)
{
	struct stats_fdr	 fdr;
	double			*p, *pm, *q;
	size_t			*scratch, i;

	p = xreallocarray(NULL, nh + 1, sizeof(*p));
	pm = xreallocarray(NULL, nh + 1, sizeof(*pm));
	q = xreallocarray(NULL, nh + 1, sizeof(*q));
	scratch = xreallocarray(NULL, nh + 1, sizeof(*scratch));
	for (i = 0; i < nh; i++) {
		p[i] = h[i].c.p;
		pm[i] = h[i].c.pmin;
	}
	if (stats_fdr_discrete(p, pm, nh, w->o->alpha, q, scratch,
	    &fdr) == -1)
		memset(&fdr, 0, sizeof(fdr));
	w->kept = fdr.kept;
	w->rejected = fdr.rejected;
	w->thr = fdr.rejected > 0 ? (double)fdr.rejected * w->o->alpha /
	    (double)fdr.kept : 0;
	w->ci_alpha = stats_fcr_alpha(fdr.rejected, fdr.kept, w->o->alpha);
	if (!(w->ci_alpha > 0))
		w->ci_alpha = w->o->alpha;
	free(p);
	free(pm);
	free(scratch);
	return q;
}

/*
 * Shares: the tests take the points' samples together (stats_cpt.c),
 * at most STATS_MAX_N of them.  0, or -1 with d naming the point that
 * takes them past it.  Each is at most STATS_MAX_N (counts_ok()): the
 * sum cannot overflow.
 */
static int
total_ok(const struct series *s, const struct series_opts *o,
    struct diag *d)
{
	int64_t	 n = 0;
	size_t	 t;

	for (t = 0; !o->rates && t < s->npts; t++)
		if ((n += s->pts[t].n) > STATS_MAX_N) {
			d->path = s->pts[t].path;
			return diag_set(d, DIAG_USAGE, -1, "with the points "
			    "before it, the samples add up to more than 2^52: "
			    "out of range for the statistics");
		}
	return 0;
}

int
series_compute(const struct series *s, const struct series_opts *o,
    struct series_result *r, struct diag *d)
{
	struct work		 w;
	struct graph		 g;
	struct series_graph	*sg;
	struct hyp		*h;
	struct cp		*cp;
	double			*q;
	size_t			 nh, i, ncp, cap = 0;

	memset(r, 0, sizeof(*r));
	if (total_ok(s, o, d) == -1)
		return -1;
	memset(&w, 0, sizeof(w));
	w.s = s;
	w.o = o;
	w.model = o->rates ? STATS_CPT_POISSON : STATS_CPT_BINOMIAL;
	w.e = xreallocarray(NULL, s->npts + 1, sizeof(*w.e));
	w.k = xreallocarray(NULL, s->npts + 1, sizeof(*w.k));
	for (i = 0; i < s->npts; i++)
		w.e[i] = o->rates ? s->pts[i].seconds : (double)s->pts[i].n;
	index_entries(&w);
	shared_dispersion(&w);
	if ((h = make_hyps(&w, &nh, &r->nsplits, &r->nfuncs)) == NULL) {
		diag_set_msg(d, DIAG_PAIR, MSG_OUT_OF_RANGE);
		free(w.e);
		free(w.k);
		free(w.off);
		free(w.byfid);
		return -1;
	}
	q = family(&w, h, nh);
	for (i = 0; i < nh; i++) {
		if (!(q[i] <= o->alpha))
			continue;
		counts_of(&w, h[i].fid, h[i].cum);
		cp = segment(&w, &h[i], q[i], &ncp);
		changes_of(&w, &h[i], cp, ncp, &r->changes, &r->nchanges,
		    &cap);
		free(cp);
	}
	graph_build(s, &g);
	sg = series_graph_new(s);
	i = r->nchanges;
	r->nchanges = group(sg, r->changes, r->nchanges);
	r->ncarried = i - r->nchanges;
	i = r->nchanges;
	r->nchanges = parts(sg, r->changes, r->nchanges);
	r->nparts = i - r->nchanges;
	i = r->nchanges;
	r->nchanges = crowd(r->changes, r->nchanges, s->npts, o->rates);
	r->ncrowded = i - r->nchanges;
	/*
	 * The paths of the changes left, once grouped: a path is as long
	 * as the stack, and a stack 65,000 frames deep left tens of
	 * thousands of changes to be grouped as parts.
	 */
	for (i = 0; i < r->nchanges; i++)
		path_of(s, &g, &r->changes[i]);
	graph_free(&g);
	series_graph_free(sg);
	sort_series = s;
	if (r->nchanges > 0)
		qsort(r->changes, r->nchanges, sizeof(*r->changes), cmp_change);
	r->nhyps = nh;
	r->kept = w.kept;
	r->rejected = w.rejected;
	r->phi = w.phi;
	r->phi_df = w.df;
	r->ci_level = 1 - w.ci_alpha;
	r->ci_alpha = w.ci_alpha;
	r->rates = o->rates;
	/* The index stays, for series_levels(). */
	r->off = w.off;
	r->byfid = w.byfid;
	free(q);
	free(h);
	free(w.e);
	free(w.k);
	return 0;
}

void
series_result_release(struct series_result *r)
{
	size_t i;

	for (i = 0; i < r->nchanges; i++)
		change_free(&r->changes[i]);
	free(r->changes);
	free(r->off);
	free(r->byfid);
	memset(r, 0, sizeof(*r));
}

void
series_levels(const struct series *s, const struct series_result *r,
    const struct series_change *c, double *lv, double *lo, double *hi)
{
	struct work	 w;
	size_t		 t;

	memset(&w, 0, sizeof(w));
	w.s = s;
	w.model = r->rates ? STATS_CPT_POISSON : STATS_CPT_BINOMIAL;
	w.phi = r->phi;
	w.df = r->phi_df;
	w.ci_alpha = r->ci_alpha;
	w.off = r->off;
	w.byfid = r->byfid;
	w.e = xreallocarray(NULL, s->npts + 1, sizeof(*w.e));
	w.k = xreallocarray(NULL, s->npts + 1, sizeof(*w.k));
	for (t = 0; t < s->npts; t++)
		w.e[t] = r->rates ? s->pts[t].seconds : (double)s->pts[t].n;
	counts_of(&w, c->fid, c->cum);
	for (t = 0; t < s->npts; t++)
		level(&w, t, t + 1, &lv[t], &lo[t], &hi[t]);
	free(w.e);
	free(w.k);
}

int
series_newest_regressed(const struct series *s,
    const struct series_result *r)
{
	size_t i;

	for (i = 0; i < r->nchanges; i++)
		if (r->changes[i].verdict == SERIES_REGRESSED &&
		    r->changes[i].to == s->npts)
			return 1;
	return 0;
}

double
series_newest_mde(const struct series *s, const struct series_result *r,
    double alpha)
{
	int64_t	 before = 0;
	double	 a, m;
	size_t	 t;

	if (r->rates || s->npts < 2)
		return -1;
	for (t = 0; t + 1 < s->npts; t++)
		before += s->pts[t].n;
	/* The threshold of a first discovery, at the last split. */
	a = alpha / ((double)(r->kept > 0 ? r->kept : 1) *
	    (double)(r->nsplits > 0 ? r->nsplits : 1));
	m = stats_mde(0.5, before, s->pts[s->npts - 1].n, a, STATS_POWER);
	if (m < 0)
		return -1;
	return fmin(1, m * sqrt(fmax(r->phi, 1)));
}

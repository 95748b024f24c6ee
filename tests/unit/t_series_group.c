/*
 * series_carry.c against what it replaces (issue 30): group() in
 * series.c looked, for each cum change, through every change near it
 * for one of a function its own reaches, with a walk of the call graph
 * each time, and followed each chain of carriers from each change.  On
 * random call graphs (recursion, functions called from many places)
 * and random changes (ties of size, changes that appeared, transients),
 * series_carriers() must give every change the same carrier as that
 * search, and series_chain_ends() the same ends and the same cuts of
 * chains that come round as a walk from each change in turn, and
 * series_parts() every change the host parts() found it pair by pair.
 * Then a series of a stack 30,000 frames deep, then 60,000, grouped
 * in time linear in the depth: three changes left, the new frames' one
 * with every other frame carried or a part of it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/series.h"
#include "core/series_int.h"
#include "model/profile.h"
#include "support/arena.h"
#include "support/diag.h"
#include "tap.h"
#include "tprofile.h"
#include "tdelta.h"

static uint64_t
rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* Does a reach b through one call or more (series.c's reaches())? */
static int
reaches(const struct series *s, size_t a, size_t b)
{
	size_t	*q = malloc((s->nfuncs + 1) * sizeof(*q)), qh = 0, qt = 0;
	char	*seen = calloc(s->nfuncs + 1, 1);
	size_t	 x, e;
	int	 found = 0;

	seen[a] = 1;
	q[qt++] = a;
	while (qh < qt && !found)
		for (x = q[qh++], e = 0; e < s->nedges && !found; e++) {
			if (s->edges[e].caller != x)
				continue;
			if (s->edges[e].callee == b)
				found = 1;
			else if (!seen[s->edges[e].callee]) {
				seen[s->edges[e].callee] = 1;
				q[qt++] = s->edges[e].callee;
			}
		}
	free(q);
	free(seen);
	return found;
}

static double
size_of(const struct series_change *c)
{
	return c->after > c->before ? c->after - c->before :
	    c->before - c->after;
}

/* group()'s search as it was, pair by pair. */
static void
carriers_ref(const struct series *s, const struct series_change *v,
    size_t n, size_t *to, char *same)
{
	size_t	 i, j;
	double	 best;

	for (i = 0; i < n; i++) {
		to[i] = SIZE_MAX;
		same[i] = 0;
		for (j = 0, best = 0; v[i].cum && j < n; j++) {
			if (j == i || !series_near(&v[i], &v[j]))
				continue;
			if (v[j].fid == v[i].fid && !v[j].cum &&
			    size_of(&v[j]) * 2 >= size_of(&v[i])) {
				to[i] = j;
				same[i] = 1;
				break;
			}
			if (v[i].before == 0 && v[j].before == 0)
				continue;
			if (v[j].fid != v[i].fid && size_of(&v[j]) * 2 >=
			    size_of(&v[i]) && size_of(&v[j]) > best &&
			    reaches(s, v[i].fid, v[j].fid)) {
				best = size_of(&v[j]);
				to[i] = j;
			}
		}
	}
}

static double
gsize_of(const struct series_change *c)
{
	return c->gafter > c->gbefore ? c->gafter - c->gbefore :
	    c->gbefore - c->gafter;
}

/* parts()' below() as it was. */
static int
below_ref(const struct series *s, const struct series_change *c,
    const struct series_change *i)
{
	size_t k;

	if (c->fid == i->fid && c->cum && !i->cum)
		return 1;
	if (reaches(s, c->fid, i->fid))
		return 1;
	for (k = 0; k < c->ncarriers; k++)
		if (reaches(s, c->carriers[k], i->fid))
			return 1;
	return 0;
}

/* parts()' search as it was, pair by pair. */
static void
parts_ref(const struct series *s, const struct series_change *v, size_t n,
    size_t *by)
{
	size_t	 i, j;
	double	 best;

	for (i = 0; i < n; i++) {
		by[i] = SIZE_MAX;
		for (j = 0, best = 0; j < n; j++) {
			if (j == i || !series_near(&v[i], &v[j]) ||
			    gsize_of(&v[j]) < gsize_of(&v[i]) ||
			    gsize_of(&v[j]) <= best || !below_ref(s, &v[j],
			    &v[i]))
				continue;
			if (gsize_of(&v[j]) == gsize_of(&v[i]) &&
			    (v[j].fid == v[i].fid || reaches(s, v[i].fid,
			    v[j].fid) || !reaches(s, v[j].fid, v[i].fid)))
				continue;
			best = gsize_of(&v[j]);
			by[i] = j;
		}
	}
}

/* group()'s cuts and ends as they were: a walk from each in turn. */
static void
ends_ref(size_t *to, size_t n, size_t *end)
{
	size_t	 i, d, x;

	for (i = 0; i < n; i++) {
		for (d = 0, x = i; to[x] != SIZE_MAX && d <= n; d++)
			x = to[x];
		if (to[x] != SIZE_MAX)
			to[i] = SIZE_MAX;	/* a cycle */
	}
	for (i = 0; i < n; i++) {
		for (x = i; to[x] != SIZE_MAX;)
			x = to[x];
		end[i] = x;
	}
}

/* A series of nf functions and random calls, changes only. */
static void
random_series(struct series *s, size_t nf, size_t ne, uint64_t *rng)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->nfuncs = nf;
	s->edges = calloc(ne + 1, sizeof(*s->edges));
	for (i = 0; i < ne; i++) {
		s->edges[s->nedges].caller = (uint32_t)(rnd(rng) % nf);
		s->edges[s->nedges].callee = (uint32_t)(rnd(rng) % 3 == 0 ?
		    rnd(rng) % nf : (s->edges[s->nedges].caller + 1 +
		    rnd(rng) % 3) % nf);
		if (s->edges[s->nedges].caller != s->edges[s->nedges].callee)
			s->nedges++;
	}
}

static void
random_changes(struct series_change *v, size_t n, size_t nf, size_t T,
    uint64_t *rng)
{
	size_t i, k;

	memset(v, 0, n * sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].fid = (uint32_t)(rnd(rng) % nf);
		v[i].cum = rnd(rng) % 3 != 0;
		v[i].at = 1 + rnd(rng) % T;
		v[i].verdict = rnd(rng) % 5 == 0 ? SERIES_TRANSIENT :
		    SERIES_REGRESSED;
		v[i].until = v[i].verdict == SERIES_TRANSIENT ? v[i].at + 1 +
		    rnd(rng) % 3 : v[i].at;
		/* Sizes in steps of 0.05, for ties; some appeared. */
		v[i].before = rnd(rng) % 4 == 0 ? 0 : 0.05 *
		    (double)(1 + rnd(rng) % 6);
		v[i].after = v[i].before + 0.05 * (double)(1 + rnd(rng) % 6) *
		    (rnd(rng) % 3 == 0 ? -1 : 1);
		if (v[i].after < 0)
			v[i].after = 0;
		if (v[i].verdict != SERIES_TRANSIENT)
			v[i].verdict = v[i].after > v[i].before ?
			    SERIES_REGRESSED : SERIES_IMPROVED;
		/* A group as parts() sees it: its largest, its carriers. */
		v[i].gbefore = v[i].before;
		v[i].gafter = v[i].after;
		if (rnd(rng) % 3 == 0)
			v[i].gafter += 0.05 * (double)(rnd(rng) % 3);
		v[i].ncarriers = rnd(rng) % 4 == 0 ? 1 + rnd(rng) % 3 : 0;
		v[i].carriers = calloc(v[i].ncarriers + 1,
		    sizeof(*v[i].carriers));
		for (k = 0; k < v[i].ncarriers; k++)
			v[i].carriers[k] = (uint32_t)(rnd(rng) % nf);
	}
}

static void
test_carriers(void)
{
	struct series		 s;
	struct series_graph	*g;
	struct series_change	*v;
	size_t			*to, *want, *end, *wend, i, n, nf, bad = 0;
	size_t			 pbad = 0;
	char			*same, *wsame;
	uint64_t		 rng = 5, seed;

	for (seed = 0; seed < 300; seed++) {
		nf = 2 + rnd(&rng) % 40;
		n = 1 + rnd(&rng) % 80;
		random_series(&s, nf, rnd(&rng) % (3 * nf), &rng);
		v = calloc(n, sizeof(*v));
		random_changes(v, n, nf, 1 + rnd(&rng) % 4, &rng);
		to = calloc(n, sizeof(*to));
		want = calloc(n, sizeof(*want));
		end = calloc(n, sizeof(*end));
		wend = calloc(n, sizeof(*wend));
		same = calloc(n, 1);
		wsame = calloc(n, 1);
		g = series_graph_new(&s);
		series_carriers(g, v, n, to, same);
		carriers_ref(&s, v, n, want, wsame);
		for (i = 0; i < n; i++)
			bad += to[i] != want[i] || same[i] != wsame[i];
		series_chain_ends(to, n, end);
		ends_ref(want, n, wend);
		for (i = 0; i < n; i++)
			bad += to[i] != want[i] || end[i] != wend[i];
		series_parts(g, v, n, to);
		parts_ref(&s, v, n, want);
		for (i = 0; i < n; i++)
			pbad += to[i] != want[i];
		series_graph_free(g);
		free(s.edges);
		for (i = 0; i < n; i++)
			free(v[i].carriers);
		free(v);
		free(to);
		free(want);
		free(end);
		free(wend);
		free(same);
		free(wsame);
	}
	CHECK_INT(bad, 0);
	CHECK_INT(pbad, 0);
}

/* Chains with cycles, each a walk of its own: the same cuts and ends. */
static void
test_chain_ends(void)
{
	size_t	 to[64], want[64], end[64], wend[64], i, n, bad = 0;
	uint64_t rng = 9, seed;

	for (seed = 0; seed < 2000; seed++) {
		n = 1 + rnd(&rng) % 64;
		for (i = 0; i < n; i++)
			to[i] = want[i] = rnd(&rng) % 4 == 0 ? SIZE_MAX :
			    rnd(&rng) % n;
		for (i = 0; i < n; i++)
			if (to[i] == i)
				to[i] = want[i] = SIZE_MAX;
		series_chain_ends(to, n, end);
		ends_ref(want, n, wend);
		for (i = 0; i < n; i++)
			bad += to[i] != want[i] || end[i] != wend[i];
	}
	CHECK_INT(bad, 0);
}

/*
 * Issue 30: four points of one stack, 30,000 frames deep at the first
 * two and 60,000 at the last two, and a sibling of it.  Every frame's
 * cum changes at point 2, all at one place (the pairwise searches took
 * the cube of the depth, and a path each the square).
 */
static void
test_deep(void)
{
	enum { BASE = 30000, NEW = 60000 };
	struct series		 s;
	struct series_opts	 o;
	struct series_result	 r;
	struct diag		 d;
	struct profile		*p;
	struct agg		*a;
	char			*name;
	size_t			 t, i, depth;

	series_init(&s);
	for (t = 0; t < 4; t++) {
		depth = t < 2 ? BASE : NEW;
		p = profile_new();
		p->nsample_types = 2;
		p->sample_types = arena_calloc(p->arena, 2,
		    sizeof(*p->sample_types));
		p->sample_types[0] = (struct pf_valuetype){ "samples",
		    "count" };
		p->sample_types[1] = (struct pf_valuetype){ "cpu",
		    "nanoseconds" };
		p->functions = arena_calloc(p->arena, NEW + 1,
		    sizeof(*p->functions));
		p->locations = arena_calloc(p->arena, NEW + 1,
		    sizeof(*p->locations));
		for (i = 0; i <= NEW; i++) {
			name = arena_calloc(p->arena, 24, 1);
			snprintf(name, 24, "f%zu", i);
			p->functions[i].id = i + 1;
			p->functions[i].name = name;
			p->functions[i].system_name = name;
			p->functions[i].filename = "";
			p->locations[i].id = i + 1;
			p->locations[i].nlines = 1;
			p->locations[i].lines = arena_calloc(p->arena, 1,
			    sizeof(struct pf_line));
			p->locations[i].lines[0].function = &p->functions[i];
		}
		p->nfunctions = p->nlocations = NEW + 1;
		p->samples = arena_calloc(p->arena, 2, sizeof(*p->samples));
		p->nsamples = 2;
		p->samples[0].nlocs = depth;
		p->samples[0].locs = arena_calloc(p->arena, depth,
		    sizeof(void *));
		for (i = 0; i < depth; i++)
			p->samples[0].locs[i] = &p->locations[depth - 1 - i];
		p->samples[1].nlocs = 1;
		p->samples[1].locs = arena_calloc(p->arena, 1, sizeof(void *));
		p->samples[1].locs[0] = &p->locations[NEW];
		for (i = 0; i < 2; i++) {
			p->samples[i].values = arena_calloc(p->arena, 2,
			    sizeof(int64_t));
			p->samples[i].values[0] = i == 0 ? (t < 2 ? 1000 :
			    3000) : 1000;
			p->samples[i].values[1] = p->samples[i].values[0] *
			    10000000;
		}
		a = t_aggregate(p, 0);
		diag_init(&d, "deep");
		CHECK(series_add(&s, a, NULL, 0, "deep", "deep", 0,
		    1000000000, &d) == 0);
		agg_free(a);
		profile_free(p);
	}
	memset(&o, 0, sizeof(o));
	o.alpha = 0.05;
	o.min_effect_pp = 1;
	o.min_effect_rel = 10;
	diag_init(&d, "series");
	CHECK(series_compute(&s, &o, &r, &d) == 0);
	/*
	 * The new frames' cum, with every old frame carried and every
	 * other new frame a part of it; the old leaf's own time and the
	 * sibling's, which fell.
	 */
	CHECK_INT(r.nchanges, 3);
	CHECK_INT(r.ncarried, BASE);
	CHECK_INT(r.nparts, NEW - BASE - 1);
	if (r.nchanges == 3) {
		CHECK_STR(s.names[r.changes[0].fid], "f30000");
		CHECK_INT(r.changes[0].cum, 1);
		CHECK_INT(r.changes[0].at, 2);
		CHECK_INT(r.changes[0].ncarriers, BASE);
		CHECK_INT(r.changes[0].nparts, NEW - BASE - 1);
		CHECK_INT(r.changes[0].npath, BASE + 1);
		CHECK_STR(s.names[r.changes[1].fid], "f29999");
		CHECK_STR(s.names[r.changes[2].fid], "f60000");
	}
	series_result_release(&r);
	series_release(&s);
}

int
main(void)
{
	test_carriers();
	test_chain_ends();
	test_deep();
	return tap_done();
}

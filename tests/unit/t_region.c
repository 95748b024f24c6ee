/*
 * region.c against delta_region(), the definition it replaces: on
 * random call graphs of both sides (chains, shared callees, recursion
 * through several functions, samples whose outermost frame comes back
 * deeper, values that cancel to 0), every row's region from the index
 * must be delta_region()'s, row for row, by region_has() and by
 * region_fill(), and within region_span().  The large graphs reach more
 * than DELTA_REGION_WALK rows, where delta_region() grows a region from
 * its row instead of finding the greatest one.  Then the case of issue
 * 30: a stack 30,000 frames deep, whose rows' regions the index finds
 * without one walk (delta_region() walked each: the square of the
 * depth), and a diff of it whose one finding is the chain's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/delta.h"
#include "core/region.h"
#include "model/profile.h"
#include "support/arena.h"
#include "tap.h"
#include "tprofile.h"
#include "tdelta.h"

static uint64_t
rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* A call graph: each function's callees. */
struct cg {
	size_t		 nfn;
	size_t		 (*callee)[3];
	size_t		*ncallee;
};

/*
 * Mostly a chain (f -> f + 1), with calls further down (skip_pct in
 * 100), calls back up (back_pct: recursion through several functions)
 * and calls to the last two, shared leaves (leaf_pct).
 */
static void
cg_make(struct cg *g, size_t nfn, uint64_t *rng, unsigned back_pct,
    unsigned skip_pct, unsigned leaf_pct)
{
	size_t i, k;

	g->nfn = nfn;
	g->callee = calloc(nfn, sizeof(*g->callee));
	g->ncallee = calloc(nfn, sizeof(*g->ncallee));
	for (i = 0; i + 1 < nfn; i++) {
		g->callee[i][g->ncallee[i]++] = i + 1;
		k = rnd(rng) % 100;
		if (k < back_pct && i > 2)
			g->callee[i][g->ncallee[i]++] = i - 1 - rnd(rng) % 3;
		else if (k < back_pct + skip_pct && i + 3 < nfn)
			g->callee[i][g->ncallee[i]++] = i + 2 + rnd(rng) % 2;
		if (rnd(rng) % 100 < leaf_pct)
			g->callee[i][g->ncallee[i]++] = nfn - 1 - rnd(rng) % 2;
	}
}

static void
cg_free(struct cg *g)
{
	free(g->callee);
	free(g->ncallee);
}

/*
 * nsamp walks down g from its first function (now and then from
 * another: roots of their own), each step to a random callee, stopping
 * at random or at maxdepth.  One in cancel has a twin whose cpu value
 * is its negative (values 0, counts not).
 */
static struct profile *
walks(const struct cg *g, size_t nsamp, size_t maxdepth, size_t stop,
    unsigned cancel, uint64_t *rng)
{
	struct profile	*p = profile_new();
	struct arena	*a = p->arena;
	const struct pf_location **st;
	size_t		 i, j, d, f;
	char		*name;

	p->nsample_types = 2;
	p->sample_types = arena_calloc(a, 2, sizeof(*p->sample_types));
	p->sample_types[0] = (struct pf_valuetype){ "samples", "count" };
	p->sample_types[1] = (struct pf_valuetype){ "cpu", "nanoseconds" };
	p->period_type = p->sample_types[1];
	p->period = 10000000;
	p->functions = arena_calloc(a, g->nfn, sizeof(*p->functions));
	p->locations = arena_calloc(a, g->nfn, sizeof(*p->locations));
	for (i = 0; i < g->nfn; i++) {
		name = arena_calloc(a, 24, 1);
		snprintf(name, 24, "f%zu", i);
		p->functions[i].id = i + 1;
		p->functions[i].name = p->functions[i].system_name = name;
		p->functions[i].filename = "";
		p->locations[i].id = i + 1;
		p->locations[i].nlines = 1;
		p->locations[i].lines = arena_calloc(a, 1,
		    sizeof(struct pf_line));
		p->locations[i].lines[0].function = &p->functions[i];
	}
	p->nfunctions = p->nlocations = g->nfn;
	p->samples = arena_calloc(a, 2 * nsamp, sizeof(*p->samples));
	st = calloc(maxdepth, sizeof(*st));
	for (i = 0; i < nsamp; i++) {
		struct pf_sample *s = &p->samples[p->nsamples++];

		f = rnd(rng) % 8 == 0 ? rnd(rng) % g->nfn : 0;
		for (d = 0; d < maxdepth; d++) {
			st[d] = &p->locations[f];
			if (g->ncallee[f] == 0 || rnd(rng) % stop == 0) {
				d++;
				break;
			}
			f = g->callee[f][rnd(rng) % g->ncallee[f]];
		}
		s->nlocs = d;
		s->locs = arena_calloc(a, d, sizeof(*s->locs));
		for (j = 0; j < d; j++)
			s->locs[j] = st[d - 1 - j];	/* leaf first */
		s->values = arena_calloc(a, 2, sizeof(*s->values));
		s->values[0] = 1 + (int64_t)(rnd(rng) % 3);
		s->values[1] = s->values[0] * 10000000;
		if (cancel > 0 && rnd(rng) % cancel == 0) {
			struct pf_sample *t = &p->samples[p->nsamples++];

			*t = *s;
			t->values = arena_calloc(a, 2, sizeof(*t->values));
			t->values[0] = s->values[0];
			t->values[1] = -s->values[1];
		}
	}
	free(st);
	return p;
}

/* Folded stacks, root first, with a count each, into a profile. */
static struct profile *
stacks(const char *const *st, const int64_t *c, size_t n)
{
	return t_build(st, c, n);
}

/*
 * Every row's region (every step-th) from the index against
 * delta_region()'s; the number of rows that differ.  The index answers
 * the first lazy rows by delta_region() itself, then builds the tree.
 */
static size_t
compare(struct delta *d, size_t step, size_t lazy, struct region_stats *rs)
{
	struct region_index *ri = region_new(d, lazy);
	size_t		 n = d->nrows, x, r, lo, hi, bad = 0;
	unsigned char	*want = calloc(n + 1, 1), *got = calloc(n + 1, 1);
	unsigned char	*has = calloc(n + 1, 1);
	size_t		*stack = calloc(n + 1, sizeof(*stack));

	for (x = 0; x < n; x += step) {
		int	 diff = 0, span;

		memset(want, 0, n + 1);
		memset(got, 0, n + 1);
		delta_region(d, x, want, stack);
		/*
		 * Every other row is asked of region_has() first, which
		 * takes the walk that tells its two regions apart only for
		 * a row that needs it; the others are filled first.
		 */
		if (x / step % 2)
			for (r = 0; r < n; r++)
				has[r] = (unsigned char)region_has(ri, x, r);
		region_fill(ri, x, got);
		span = region_span(ri, x, &lo, &hi);
		if (x / step % 2 == 0)
			for (r = 0; r < n; r++)
				has[r] = (unsigned char)region_has(ri, x, r);
		for (r = 0; r < n; r++) {
			diff |= want[r] != got[r];
			diff |= has[r] != want[r];
			diff |= span && want[r] && (region_place(ri, r) < lo ||
			    region_place(ri, r) >= hi);
		}
		if (diff && bad++ < 3)
			printf("# row %zu (%s): the regions differ\n", x,
			    d->rows[x].name);
	}
	region_stats(ri, rs);
	region_free(ri);
	free(want);
	free(got);
	free(has);
	free(stack);
	return bad;
}

/* Two sides walked over related graphs, compared row by row. */
static void
random_pair(size_t nfn, size_t nsamp, size_t depth, size_t stop,
    unsigned back, unsigned skip, unsigned leaf, unsigned cancel,
    uint64_t seed, size_t step, struct region_stats *sum)
{
	struct cg	 g1, g2;
	struct profile	*b, *n;
	struct agg	*ab, *an;
	struct delta_opts o;
	struct delta	 d;
	struct region_stats rs;
	uint64_t	 rng = seed, r2;
	size_t		 bad;

	cg_make(&g1, nfn, &rng, back, skip, leaf);
	r2 = rng;
	cg_make(&g2, nfn, &r2, back, skip, leaf);
	b = walks(&g1, nsamp, depth, stop, cancel, &rng);
	n = walks(&g2, nsamp, depth, stop, cancel, &rng);
	ab = t_aggregate(b, 0);
	an = t_aggregate(n, 0);
	t_delta_opts(&o);
	CHECK(delta_compute(ab, an, NULL, 0, NULL, 0, &o, &d) == 0);
	bad = compare(&d, step, seed % 2 ? 0 : 5, &rs);
	if (bad != 0)
		printf("# seed %llu, %zu functions: %zu rows differ\n",
		    (unsigned long long)seed, nfn, bad);
	CHECK_INT(bad, 0);
	sum->tree += rs.tree;
	sum->grown += rs.grown;
	sum->slow += rs.slow;
	sum->walks += rs.walks;
	delta_release(&d);
	agg_free(ab);
	agg_free(an);
	profile_free(b);
	profile_free(n);
	cg_free(&g1);
	cg_free(&g2);
}

/*
 * Small hand-made graphs: a recursion whose outermost frame comes back
 * deeper (no root reaches it: delta_region()'s own), a cycle below a
 * function, a callee of both sides with callers of one side each.
 */
static void
test_shapes(void)
{
	static const char *const bs[] = {
		"f;g;f;h", "main;a;b;a;c", "main;a;b;d", "main;x;shared",
		"main;y;shared;z",
	};
	static const int64_t bc[] = { 5, 7, 3, 4, 6 };
	static const char *const ns[] = {
		"f;g;f;h", "main;a;b;a;c", "main;a;c", "main;y;shared",
		"main;x;z",
	};
	static const int64_t nc[] = { 2, 9, 3, 5, 6 };
	struct profile	*b = stacks(bs, bc, 5), *n = stacks(ns, nc, 5);
	struct agg	*ab = t_aggregate(b, 0), *an = t_aggregate(n, 0);
	struct delta_opts o;
	struct delta	 d;
	struct region_stats rs;

	t_delta_opts(&o);
	CHECK(delta_compute(ab, an, NULL, 0, NULL, 0, &o, &d) == 0);
	CHECK_INT(compare(&d, 1, 0, &rs), 0);
	CHECK(rs.slow > 0);
	delta_release(&d);
	agg_free(ab);
	agg_free(an);
	profile_free(b);
	profile_free(n);
}

static void
test_random(void)
{
	struct region_stats sum;
	uint64_t	 seed;

	memset(&sum, 0, sizeof(sum));
	/* Small graphs, every row, with and without cancelled values. */
	for (seed = 1; seed <= 60; seed++)
		random_pair(8 + seed % 50, 40 + seed % 80, 30, 4 + seed % 6,
		    (unsigned)(seed % 4) * 5, 30, 10, seed % 3 == 0 ? 5 : 0,
		    seed, 1, &sum);
	/*
	 * Past DELTA_REGION_WALK: 6,000 functions, stacks thousands of
	 * frames deep, recursion below the rows near the root; without
	 * calls that skip a frame, each row of the chain dominates the
	 * rest of it, cycles and all.
	 */
	random_pair(6000, 60, 6000, 3000, 1, 0, 0, 0, 7, 37, &sum);
	random_pair(6000, 60, 6000, 3000, 1, 30, 0, 7, 11, 41, &sum);
	random_pair(6000, 60, 6000, 3000, 3, 1, 1, 0, 13, 43, &sum);
	printf("# %zu tree, %zu grown, %zu slow, %zu walks\n", sum.tree,
	    sum.grown, sum.slow, sum.walks);
	/* Each way of finding a region was taken. */
	CHECK(sum.tree > 0);
	CHECK(sum.grown > 0);
	CHECK(sum.slow > 0);
	CHECK(sum.walks > 0);
}

/*
 * x on a cycle (x -> w -> x) and reaching more than DELTA_REGION_WALK
 * rows (callees of its own), with a cycle a <-> b that only x calls into:
 * x dominates a and b, but neither joins the region grown from x, which
 * is delta_region()'s own.  Asked of a first, before anything else
 * about x, region_has() must find so; a row outside x's subtree needs
 * nothing found.
 */
static void
test_cycle_wide(void)
{
	enum { WIDE = DELTA_REGION_WALK + 10, NST = WIDE + 2 };
	const char	**st = calloc(NST, sizeof(*st));
	int64_t		*bc = calloc(NST, sizeof(*bc));
	int64_t		*nc = calloc(NST, sizeof(*nc));
	char		*ch = malloc(16 * (size_t)WIDE);
	struct t_pair	 t;
	struct delta	*d = &t.d;
	struct region_index *ri;
	struct region_stats rs;
	unsigned char	*want;
	size_t		*stack, i, x = SIZE_MAX, ra = SIZE_MAX, rb = SIZE_MAX;
	size_t		 rw = SIZE_MAX, rm = SIZE_MAX, bad = 0;

	st[0] = "main;x;w;x;wl";
	st[1] = "main;x;a;b;a;al";
	bc[0] = nc[0] = 3;
	bc[1] = 4;
	nc[1] = 6;
	for (i = 0; i < WIDE; i++) {
		snprintf(ch + 16 * i, 16, "main;x;c%zu", i);
		st[2 + i] = ch + 16 * i;
		bc[2 + i] = nc[2 + i] = 1;
	}
	t_pair_new(&t, st, bc, nc, NST);
	for (i = 0; i < d->nrows; i++) {
		const char *nm = d->rows[i].name;

		x = strcmp(nm, "x") == 0 ? i : x;
		ra = strcmp(nm, "a") == 0 ? i : ra;
		rb = strcmp(nm, "b") == 0 ? i : rb;
		rw = strcmp(nm, "w") == 0 ? i : rw;
		rm = strcmp(nm, "main") == 0 ? i : rm;
	}
	CHECK(x != SIZE_MAX && ra != SIZE_MAX && rb != SIZE_MAX &&
	    rw != SIZE_MAX && rm != SIZE_MAX);
	if (x == SIZE_MAX || ra == SIZE_MAX || rb == SIZE_MAX ||
	    rw == SIZE_MAX || rm == SIZE_MAX)
		goto out;
	want = calloc(d->nrows + 1, 1);
	stack = calloc(d->nrows + 1, sizeof(*stack));
	delta_region(d, x, want, stack);
	CHECK(!want[ra] && !want[rb] && want[rw] && !want[rm]);
	ri = region_new(d, 0);
	/* Outside x's subtree: no walk yet. */
	CHECK_INT(region_has(ri, x, rm), 0);
	region_stats(ri, &rs);
	CHECK_INT(rs.walks, 0);
	/* Inside it: the walk, then delta_region()'s answer. */
	CHECK_INT(region_has(ri, x, ra), 0);
	CHECK_INT(region_has(ri, x, rb), 0);
	CHECK_INT(region_has(ri, x, rw), 1);
	for (i = 0; i < d->nrows; i++)
		bad += region_has(ri, x, i) != want[i];
	CHECK_INT(bad, 0);
	/* x dominates more rows than a walk takes: it needed none. */
	region_stats(ri, &rs);
	CHECK_INT(rs.walks, 0);
	CHECK(rs.slow >= 1);
	region_free(ri);
	free(want);
	free(stack);
out:
	t_pair_free(&t);
	free(ch);
	free(st);
	free(bc);
	free(nc);
}

/*
 * A change that comes into hot through the 99 callees of c0, while d
 * calls hot too: c0 carries it, through more calls into hot than
 * under.c reads one by one (it reads those from c0's span of the
 * tree).  The finding is hot's, and its path goes through c0.
 */
static void
test_many_callers(void)
{
	enum { NC = 99, NST = NC + 3 };
	const char	**st = calloc(NST, sizeof(*st));
	int64_t		*bc = calloc(NST, sizeof(*bc));
	int64_t		*nc = calloc(NST, sizeof(*nc));
	char		*buf = malloc(32 * (size_t)NC);
	struct t_pair	 t;
	struct delta	*d = &t.d;
	size_t		 i, k;
	int		 through = 0;

	for (i = 0; i < NC; i++) {
		snprintf(buf + 32 * i, 32, "main;c0;c%zu;hot", i + 1);
		st[i] = buf + 32 * i;
		bc[i] = 10;
		nc[i] = 16;
	}
	st[NC] = "main;c0;hot";
	st[NC + 1] = "main;d;hot";
	st[NC + 2] = "main;other";
	bc[NC] = nc[NC] = 10;
	bc[NC + 1] = 200;
	nc[NC + 1] = 400;
	bc[NC + 2] = nc[NC + 2] = 2000;
	t_pair_new(&t, st, bc, nc, NST);
	CHECK_INT(d->nfindings, 1);
	if (d->nfindings >= 1) {
		const struct delta_finding *f = &d->findings[0];

		CHECK_INT(f->verdict, VERDICT_REGRESSED);
		CHECK(f->npath > 0 && strcmp(d->rows[f->path[f->npath -
		    1]].name, "hot") == 0);
		for (k = 0; k < f->npath; k++)
			through |= strcmp(d->rows[f->path[k]].name, "c0") == 0;
		CHECK(through);
	}
	t_pair_free(&t);
	free(buf);
	free(st);
	free(bc);
	free(nc);
}

/*
 * One sample of a chain f0 -> f1 -> ... of depth frames, count times,
 * and one of "other" alone, other times; names from a profile of
 * nfn functions f0...
 */
static struct profile *
chain(size_t nfn, size_t depth, int64_t count, int64_t other)
{
	struct cg	 g;
	struct profile	*p;
	uint64_t	 rng = 1;
	size_t		 i;

	g.nfn = nfn;
	g.callee = calloc(nfn, sizeof(*g.callee));
	g.ncallee = calloc(nfn, sizeof(*g.ncallee));
	p = walks(&g, 2, 1, 1, 0, &rng);
	cg_free(&g);
	p->samples[0].nlocs = depth;
	p->samples[0].locs = arena_calloc(p->arena, depth, sizeof(void *));
	for (i = 0; i < depth; i++)
		p->samples[0].locs[i] = &p->locations[depth - 1 - i];
	p->samples[0].values[0] = count;
	p->samples[0].values[1] = count * 10000000;
	p->samples[1].nlocs = 1;
	p->samples[1].locs[0] = &p->locations[nfn - 1];
	p->samples[1].values[0] = other;
	p->samples[1].values[1] = other * 10000000;
	return p;
}

/*
 * Issue 30: 30,000 frames in the base and 60,000 in the new profile,
 * one function a frame.  Each row's region is every row below it,
 * found with no walk; the diff has one finding, the chain's.
 */
static void
test_deep(void)
{
	enum { BASE = 30000, NEW = 60000 };
	struct profile	*b = chain(NEW + 1, BASE, 100, 100);
	struct profile	*n = chain(NEW + 1, NEW, 300, 100);
	struct agg	*ab = t_aggregate(b, 0), *an = t_aggregate(n, 0);
	struct delta_opts o;
	struct delta	 d;
	struct region_index *ri;
	struct region_stats rs;
	size_t		 i, top = SIZE_MAX, bottom = SIZE_MAX, bad = 0;

	t_delta_opts(&o);
	CHECK(delta_compute(ab, an, NULL, 0, NULL, 0, &o, &d) == 0);
	CHECK_INT(d.nrows, NEW + 1);
	ri = region_new(&d, 0);
	for (i = 0; i < d.nrows; i++) {
		if (strcmp(d.rows[i].name, "f0") == 0)
			top = i;
		if (strcmp(d.rows[i].name, "f59999") == 0)
			bottom = i;
	}
	CHECK(top != SIZE_MAX && bottom != SIZE_MAX);
	for (i = 0; top != SIZE_MAX && bottom != SIZE_MAX && i < d.nrows;
	    i++)
		bad += region_has(ri, top, i) != (strcmp(d.rows[i].name,
		    "f60000") != 0) || region_has(ri, bottom, i) !=
		    (i == bottom);
	CHECK_INT(bad, 0);
	region_stats(ri, &rs);
	CHECK_INT(rs.walks, 0);
	CHECK_INT(rs.slow, 0);
	region_free(ri);
	/* One finding, the chain's regression, its path from f0. */
	CHECK_INT(d.nfindings, 1);
	if (d.nfindings == 1) {
		CHECK_INT(d.findings[0].verdict, VERDICT_REGRESSED);
		CHECK(d.findings[0].npath > 1 && strcmp(d.rows[
		    d.findings[0].path[0]].name, "f0") == 0);
	}
	delta_release(&d);
	agg_free(ab);
	agg_free(an);
	profile_free(b);
	profile_free(n);
}

int
main(void)
{
	test_shapes();
	test_random();
	test_cycle_wide();
	test_many_callers();
	test_deep();
	return tap_done();
}

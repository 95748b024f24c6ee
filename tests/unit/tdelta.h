/*
 * What the tests of delta.c and flame.c share: a profile aggregated on
 * its cpu sample type with the counts facts.c finds, and the option
 * defaults of profdiff diff, and a delta of two sides built from one
 * set of stacks.  Include after tap.h and tprofile.h.
 */
#ifndef TDELTA_H
#define TDELTA_H

#include <string.h>

#include "core/agg.h"
#include "core/delta.h"
#include "support/diag.h"
#include "core/facts.h"

/* Aggregate sample type 1 (cpu), with the call tree when tree is set. */
static inline struct agg *
t_aggregate(const struct profile *p, int tree)
{
	struct agg_opts	 o;
	struct agg_src	 src;
	struct agg	*a;
	struct diag	 d;
	const char	*why;

	memset(&o, 0, sizeof(o));
	o.tree = tree;
	a = agg_new(&o);
	facts_count_source(p, 1, &src, &why);
	diag_init(&d, "t");
	CHECK(agg_add(a, p, &src, &d) == 0);
	return a;
}

/*
 * Three runs a side of "main;a" and "main;b": a takes 50% of base and
 * 70% of new, give or take 2 points a run.  Each side merged into one
 * agg, and each run in an agg of its own (with the call tree when tree
 * is set); t_replicates_free() frees them all.
 */
struct t_replicates {
	struct profile	*p[6];
	struct agg	*each[6];	/* base runs, then new runs */
	struct agg	*base, *new;
};

static inline void
t_replicates(struct t_replicates *r, int tree)
{
	static const char *const st[] = { "main;a", "main;b" };
	static const int64_t c[6][2] = { { 500, 500 }, { 520, 480 },
	    { 480, 520 }, { 700, 300 }, { 690, 310 }, { 710, 290 } };
	struct agg_opts	 ao;
	struct agg_src	 src;
	struct diag	 dg;
	const char	*why;
	size_t		 i;

	memset(&ao, 0, sizeof(ao));
	ao.tree = tree;
	r->base = agg_new(&ao);
	r->new = agg_new(&ao);
	for (i = 0; i < 6; i++) {
		r->p[i] = t_build(st, c[i], 2);
		facts_count_source(r->p[i], 1, &src, &why);
		r->each[i] = t_aggregate(r->p[i], tree);
		diag_init(&dg, "t");
		agg_add(i < 3 ? r->base : r->new, r->p[i], &src, &dg);
	}
}

static inline void
t_replicates_free(struct t_replicates *r)
{
	size_t i;

	agg_free(r->base);
	agg_free(r->new);
	for (i = 0; i < 6; i++) {
		agg_free(r->each[i]);
		profile_free(r->p[i]);
	}
}

/* The defaults of profdiff diff. */
static inline void
t_delta_opts(struct delta_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->min_effect_pp = 1;
	o->min_effect_rel = 10;
	o->has_counts = 1;
	o->max_callers = 3;
}

/*
 * A delta of the same stacks st with counts bc (base) and nc (new), at
 * profdiff diff's defaults, and what it holds; t_pair_free() frees it.
 */
struct t_pair {
	struct profile	*b, *n;
	struct agg	*ab, *an;
	struct delta	 d;
};

static inline void
t_pair_new(struct t_pair *t, const char *const *st, const int64_t *bc,
    const int64_t *nc, size_t nst)
{
	struct delta_opts o;

	t->b = t_build(st, bc, nst);
	t->n = t_build(st, nc, nst);
	t->ab = t_aggregate(t->b, 0);
	t->an = t_aggregate(t->n, 0);
	t_delta_opts(&o);
	CHECK(delta_compute(t->ab, t->an, NULL, 0, NULL, 0, &o, &t->d) == 0);
}

static inline void
t_pair_free(struct t_pair *t)
{
	delta_release(&t->d);
	agg_free(t->ab);
	agg_free(t->an);
	profile_free(t->b);
	profile_free(t->n);
}

#endif

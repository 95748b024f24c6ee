/*
 * Tests of views.c: --list's lines folded through agg.c's hook (cum
 * once per sample under recursion, flat to the leaf line, inlined
 * frames, --noinlines, drop_frames, zero values skipped, the counts
 * kept profile by profile) and joined into lists, and --peek's callers
 * and callees, on profiles built by hand.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "support/arena.h"
#include "core/delta.h"
#include "support/diag.h"
#include "model/profile.h"
#include "core/views.h"
#include "tap.h"
#include "tprofile.h"

/*
 * F calls itself (F:20 -> F:10), calls G from F:20, and has H inlined
 * at F:30.  Sample values: [F:10, F:20] 3, [G:5, F:20] 2, [H:7 in
 * F:30] h, [F:10, F:10] 1, and [F:10] 0, which folding skips.
 */
static struct profile *
build(int64_t h)
{
	struct profile		*p = t_new(1, "samples", "count");
	struct pf_function	*f, *g, *hh;
	struct pf_location	*l1, *l2, *l3, *l4;
	int64_t			 v;

	f = t_fn(p, "F", "f.go");
	g = t_fn(p, "G", "g.go");
	hh = t_fn(p, "H", "h.go");
	l1 = t_loc(p, NULL, 0, 1, f, 10);
	l2 = t_loc(p, NULL, 0, 1, f, 20);
	l3 = t_loc(p, NULL, 0, 1, g, 5);
	l4 = t_loc(p, NULL, 0, 2, hh, 7, f, 30);
	v = 3;
	t_sample(p, &v, 2, l1, l2);
	v = 2;
	t_sample(p, &v, 2, l3, l2);
	t_sample(p, &h, 1, l4);
	v = 1;
	t_sample(p, &v, 2, l1, l1);
	v = 0;
	t_sample(p, &v, 1, l1);
	return p;
}

/* Fold p into a and, through the hook, into vl. */
static void
fold(struct agg *a, struct views_lines *vl, const struct profile *p)
{
	struct agg_src	 src;
	struct agg_run	*r;
	struct diag	 d;
	size_t		 i;

	memset(&src, 0, sizeof(src));
	src.value_index = 0;
	src.count_index = 0;
	diag_init(&d, NULL);
	r = agg_begin(a, p, &src, &d);
	CHECK(r != NULL);
	views_lines_begin(vl, p);
	for (i = 0; i < p->nsamples; i++)
		CHECK_INT(agg_sample_hook(r, &p->samples[i], 1, &d,
		    views_lines_sample, vl), 0);
	agg_end(r);
	views_lines_end(vl);
}

static const struct view_line *
line(const struct view_list *vw, int64_t ln)
{
	size_t i;

	for (i = 0; i < vw->nlines; i++)
		if (vw->lines[i].line == ln)
			return &vw->lines[i];
	return NULL;
}

/*
 * Base: build(4), new: build(hnew), each folded nb times, with the
 * options given; then the views of list and peek.
 */
struct run {
	struct agg		*base, *new;
	struct views_lines	*bl, *nl;
	struct views_spec	*spec;
	struct delta		 d;
	struct views		 v;
	struct profile		*pb, *pn;
	struct delta_opts	 o;
	struct views_runs	 vr;
};

static void
run(struct run *t, int noinlines, const char *drop, int64_t hnew, size_t nb,
    const char *list, const char *peek)
{
	struct agg_opts		 ao;
	struct delta_opts	*o = &t->o;
	struct diag		 d;
	size_t			 i;

	memset(t, 0, sizeof(*t));
	memset(&ao, 0, sizeof(ao));
	ao.noinlines = noinlines;
	diag_init(&d, NULL);
	CHECK_INT(views_spec_new(list, peek, &t->spec, &d), 0);
	t->base = agg_new(&ao);
	t->new = agg_new(&ao);
	t->bl = views_lines_new(t->spec, noinlines, nb);
	t->nl = views_lines_new(t->spec, noinlines, nb);
	t->pb = build(4);
	t->pn = build(hnew);
	t->pb->drop_frames = t->pn->drop_frames = drop;
	for (i = 0; i < nb; i++) {
		fold(t->base, t->bl, t->pb);
		fold(t->new, t->nl, t->pn);
	}
	o->norm = DELTA_NORM_NONE;
	o->alpha = 0.05;
	o->min_effect_pp = 1;
	o->min_effect_rel = 10;
	o->has_counts = 1;
	o->max_callers = 3;
	CHECK_INT(delta_compute(t->base, t->new, NULL, 0, NULL, 0, o, &t->d),
	    0);
	CHECK_INT(views_compute(&t->v, t->spec, t->bl, t->nl, &t->vr, &t->d,
	    o), 0);
}

static void
run_free(struct run *t)
{
	views_release(&t->v);
	delta_release(&t->d);
	views_lines_free(t->bl);
	views_lines_free(t->nl);
	views_spec_free(t->spec);
	agg_free(t->base);
	agg_free(t->new);
	profile_free(t->pb);
	profile_free(t->pn);
}

static void
test_lines(void)
{
	const struct view_list	*vw;
	const struct view_line	*l;
	struct run		 t;

	run(&t, 0, NULL, 4, 1, "^F$", NULL);
	CHECK_INT(t.v.nlists, 1);
	vw = &t.v.lists[0];
	CHECK_STR(vw->name, "F");
	CHECK_STR(vw->file, "f.go");
	CHECK_INT(vw->base_flat, 4);
	CHECK_INT(vw->base_cum, 10);	/* each sample once */
	CHECK_INT(vw->nlines, 3);
	CHECK((l = line(vw, 10)) != NULL);
	CHECK_INT(l->base_flat, 4);
	CHECK_INT(l->base_cum, 4);	/* [F:10, F:10] once */
	CHECK((l = line(vw, 20)) != NULL);
	CHECK_INT(l->base_flat, 0);
	CHECK_INT(l->base_cum, 5);
	CHECK((l = line(vw, 30)) != NULL);
	CHECK_INT(l->base_flat, 0);	/* H, inlined, is the leaf */
	CHECK_INT(l->base_cum, 4);
	CHECK_INT(l->new_cum, 4);
	CHECK(t.v.tested);
	CHECK(l->verdict == VERDICT_UNCHANGED ||
	    l->verdict == VERDICT_INSUFFICIENT);
	/* The row of F agrees with the lines' function. */
	CHECK(vw->row >= 0);
	CHECK_INT(t.d.rows[vw->row].base_cum, 10);
	CHECK_INT(t.d.rows[vw->row].base_flat, 4);
	run_free(&t);

	/* --noinlines: F:30 is the leaf frame of H's location. */
	run(&t, 1, NULL, 4, 1, "^F$", NULL);
	CHECK((l = line(&t.v.lists[0], 30)) != NULL);
	CHECK_INT(l->base_flat, 4);
	CHECK_INT(t.v.lists[0].base_flat, 8);
	run_free(&t);

	/* drop_frames cuts G and what is below it: F:20 becomes a leaf. */
	run(&t, 0, "^G$", 4, 1, "F|G", NULL);
	CHECK_INT(t.v.nlists, 1);
	CHECK((l = line(&t.v.lists[0], 20)) != NULL);
	CHECK_INT(l->base_flat, 2);
	run_free(&t);

	/* Nothing matches: no lists, and nothing collected. */
	run(&t, 0, NULL, 4, 1, "^nosuch$", NULL);
	CHECK_INT(t.v.nlists, 0);
	run_free(&t);
}

static void
test_runs(void)
{
	const struct view_line	*l;
	struct run		 t;

	/* Two profiles a side: the counts are kept profile by profile. */
	run(&t, 0, NULL, 4, 2, "^F$", NULL);
	CHECK((l = line(&t.v.lists[0], 20)) != NULL);
	CHECK_INT(l->base_cum, 10);
	CHECK(l->bruns != NULL && l->nruns != NULL);
	if (l->bruns != NULL) {
		CHECK_INT(l->bruns[1], 5);	/* profile 0, cum */
		CHECK_INT(l->bruns[3], 5);	/* profile 1, cum */
		CHECK_INT(l->bruns[0] + l->bruns[2], l->base_flat_count);
	}
	run_free(&t);
}

static void
test_peek(void)
{
	const struct view_peek	*pk;
	struct run		 t;

	/* New: H's samples 4 -> 40; G's stay. */
	run(&t, 0, NULL, 40, 1, "^F$", "^F$");
	/* The line that grew is the one line flagged. */
	CHECK_INT(line(&t.v.lists[0], 30)->verdict, VERDICT_REGRESSED);
	CHECK(line(&t.v.lists[0], 20)->verdict != VERDICT_REGRESSED);
	/* Without sample counts the lines are not tested. */
	views_release(&t.v);
	t.o.has_counts = 0;
	CHECK_INT(views_compute(&t.v, t.spec, t.bl, t.nl, &t.vr, &t.d, &t.o),
	    0);
	CHECK(!t.v.tested);
	CHECK_INT(line(&t.v.lists[0], 30)->new_cum, 40);
	CHECK_INT(t.v.npeeks, 1);
	pk = &t.v.peeks[0];
	CHECK_STR(t.d.rows[pk->row].name, "F");
	CHECK_INT(pk->ncallers, 0);	/* its call of itself is no edge */
	CHECK_INT(pk->ncallees, 2);
	if (pk->ncallees == 2) {
		CHECK_STR(pk->callees[0].name, "H");	/* most change */
		CHECK_INT(pk->callees[0].base, 4);
		CHECK_INT(pk->callees[0].new, 40);
		CHECK_STR(pk->callees[1].name, "G");
		CHECK_INT(pk->callees[1].base, 2);
	}
	run_free(&t);

	run(&t, 0, NULL, 40, 1, NULL, "^H$");
	CHECK_INT(t.v.npeeks, 1);
	CHECK_INT(t.v.peeks[0].ncallers, 1);
	CHECK_STR(t.v.peeks[0].callers[0].name, "F");
	CHECK_INT(t.v.peeks[0].ncallees, 0);
	run_free(&t);
}

static void
test_spec(void)
{
	struct views_spec	*s;
	struct diag		 d;

	diag_init(&d, NULL);
	CHECK_INT(views_spec_new(NULL, NULL, &s, &d), 0);
	CHECK(s == NULL);
	CHECK(!views_spec_lists(s));
	CHECK_INT(views_spec_new("a(", NULL, &s, &d), -1);
	CHECK(strstr(d.msg, "--list") != NULL);
	CHECK_INT(views_spec_new(NULL, "x**", &s, &d), -1);
	CHECK(strstr(d.msg, "--peek") != NULL);
	CHECK_INT(views_spec_new(NULL, "x", &s, &d), 0);
	CHECK(s != NULL && !views_spec_lists(s));
	views_spec_free(s);
}

int
main(void)
{
	test_lines();
	test_runs();
	test_peek();
	test_spec();
	return tap_done();
}

/*
 * series.c on series whose answer is known by construction (counts set
 * by hand, no sampling): a leaf that triples from point 4 on is one
 * change, at 4, its caller's cum is carried and the functions it
 * crowded out are grouped under it; a change that comes back is one
 * transient; counts beyond 32 bits give the same levels as small ones;
 * --by-time's order moves the change with its points; and the gate
 * says whether the newest segment regressed.
 */
#include <sys/resource.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "support/arena.h"
#include "support/diag.h"
#include "core/facts.h"
#include "model/profile.h"
#include "core/series.h"
#include "tap.h"
#include "tprofile.h"
#include "tdelta.h"

static const char *const stacks[] = { "main;f;leaf", "main;g", "main;h" };

/* Add a point whose leaf, g and h have these counts. */
static void
add_point(struct series *s, int64_t leaf, int64_t g, int64_t h,
    int64_t time)
{
	int64_t		 c[3] = { leaf, g, h };
	struct profile	*p = t_build(stacks, c, 3);
	struct agg	*a = t_aggregate(p, 0);
	struct diag	 d;

	diag_init(&d, "point.pb");
	CHECK(series_add(s, a, NULL, 0, "point", "point.pb", time,
	    1000000000, &d) == 0);
	agg_free(a);
	profile_free(p);
}

static const char *
name(const struct series *s, uint32_t fid)
{
	return s->names[fid];
}

static int
has(const struct series *s, const uint32_t *v, size_t n, const char *nm)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(name(s, v[i]), nm) == 0)
			return 1;
	return 0;
}

static void
opts(struct series_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->min_effect_pp = 1;
	o->min_effect_rel = 10;
}

/* From point 4 on, leaf 10% -> 30%, g and h 45% -> 35% each. */
static void
test_step(int64_t scale, int reversed)
{
	struct series		 s;
	struct series_opts	 o;
	struct series_result	 r;
	const struct series_change *c;
	struct diag		 d;
	double			 lv[8], lo[8], hi[8];
	int			 t, tt;

	diag_init(&d, "series");
	series_init(&s);
	for (tt = 0; tt < 8; tt++) {
		t = reversed ? 7 - tt : tt;
		if (t < 4)
			add_point(&s, 100 * scale, 450 * scale, 450 * scale,
			    1000 + t);
		else
			add_point(&s, 300 * scale, 350 * scale, 350 * scale,
			    1000 + t);
	}
	if (reversed)
		series_sort_time(&s);
	opts(&o);
	CHECK(series_compute(&s, &o, &r, &d) == 0);
	CHECK_INT(r.nchanges, 1);
	if (r.nchanges == 1) {
		c = &r.changes[0];
		CHECK_STR(name(&s, c->fid), "leaf");
		CHECK_INT(c->verdict, SERIES_REGRESSED);
		CHECK_INT(c->cum, 0);
		CHECK_INT(c->at, 4);
		CHECK(fabs(c->before - 0.1) < 1e-12);
		CHECK(fabs(c->after - 0.3) < 1e-12);
		CHECK(c->before_lo < 0.1 && c->before_hi > 0.1);
		CHECK(c->after_lo < 0.3 && c->after_hi > 0.3);
		CHECK(c->q < 0.05);
		CHECK(has(&s, c->carriers, c->ncarriers, "f"));
		CHECK(has(&s, c->crowded, c->ncrowded, "g"));
		CHECK(has(&s, c->crowded, c->ncrowded, "h"));
		CHECK_INT(c->npath, 3);
		if (c->npath == 3) {
			CHECK_STR(c->path[0], "main");
			CHECK_STR(c->path[2], "leaf");
		}
		/* Each point's level, as the charts draw it. */
		series_levels(&s, &r, c, lv, lo, hi);
		for (t = 0; t < 8; t++) {
			CHECK(fabs(lv[t] - (t < 4 ? 0.1 : 0.3)) < 1e-12);
			CHECK(lo[t] < lv[t] && hi[t] > lv[t]);
		}
	}
	CHECK_INT(r.nsplits, 7);
	CHECK_INT(series_newest_regressed(&s, &r), 1);
	series_result_release(&r);
	series_release(&s);
}

/*
 * Leaf 10% at points 0-2 and 6-8, 30% at 3-5: one transient, and the
 * transients of g and h the other way crowded by it.
 */
static void
test_transient(void)
{
	struct series		 s;
	struct series_opts	 o;
	struct series_result	 r;
	struct diag		 d;
	int			 t;

	diag_init(&d, "series");
	series_init(&s);
	for (t = 0; t < 9; t++) {
		if (t >= 3 && t < 6)
			add_point(&s, 300, 350, 350, 0);
		else
			add_point(&s, 100, 450, 450, 0);
	}
	opts(&o);
	CHECK(series_compute(&s, &o, &r, &d) == 0);
	CHECK_INT(r.nchanges, 1);
	if (r.nchanges == 1) {
		CHECK_STR(name(&s, r.changes[0].fid), "leaf");
		CHECK_INT(r.changes[0].verdict, SERIES_TRANSIENT);
		CHECK_INT(r.changes[0].at, 3);
		CHECK_INT(r.changes[0].until, 6);
		CHECK_INT(r.changes[0].ncrowded, 2);
	}
	CHECK_INT(series_newest_regressed(&s, &r), 0);
	series_result_release(&r);
	series_release(&s);
}

/* The same shares at every point: nothing. */
static void
test_flat(void)
{
	struct series		 s;
	struct series_opts	 o;
	struct series_result	 r;
	struct diag		 d;
	int			 t;

	diag_init(&d, "series");
	series_init(&s);
	for (t = 0; t < 8; t++)
		add_point(&s, 100, 450, 450, 0);
	opts(&o);
	CHECK(series_compute(&s, &o, &r, &d) == 0);
	CHECK_INT(r.nchanges, 0);
	CHECK_INT(r.rejected, 0);
	CHECK_INT(series_newest_regressed(&s, &r), 0);
	series_result_release(&r);
	series_release(&s);
}

/* The peak resident set so far, in kilobytes. */
static long
peak_kb(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

/*
 * Issue 30: a change kept its level at every point (24 bytes a point),
 * so that memory grew with the points times the changes: 8,000 small
 * points with a change at most of them took 626 MB, and grouping the
 * changes compared each with every other.  Here the leaf goes from 10%
 * to 30% and back every 4 points of 4,000: some 2,000 changes before
 * they are grouped, which took 380 MB before.  The levels are now
 * worked out when a chart asks (series_levels()), and a change costs
 * the same however many points there are.
 */
static void
test_many_changes(void)
{
	struct series		 s;
	struct series_opts	 o;
	struct series_result	 r;
	struct diag		 d;
	int64_t			 lo[3] = { 1000, 4500, 4500 };
	int64_t			 hi[3] = { 3000, 3500, 3500 };
	struct profile		*p[2];
	struct agg		*a[2];
	long			 before;
	int			 t, bad = 0;

	p[0] = t_build(stacks, lo, 3);
	p[1] = t_build(stacks, hi, 3);
	a[0] = t_aggregate(p[0], 0);
	a[1] = t_aggregate(p[1], 0);
	diag_init(&d, "series");
	series_init(&s);
	for (t = 0; t < 4000; t++)
		bad |= series_add(&s, a[t / 4 % 2], NULL, 0, "point",
		    "point.pb", 0, 1000000000, &d);
	CHECK_INT(bad, 0);
	for (t = 0; t < 2; t++) {
		agg_free(a[t]);
		profile_free(p[t]);
	}
	opts(&o);
	before = peak_kb();
	CHECK(series_compute(&s, &o, &r, &d) == 0);
	CHECK(r.nchanges >= 100);
	/* The entries and the changes: a few megabytes. */
	CHECK(peak_kb() - before < 64 * 1024);
	if (peak_kb() - before >= 64 * 1024)
		printf("# %zu changes: %ld kB more\n", r.nchanges,
		    peak_kb() - before);
	series_result_release(&r);
	series_release(&s);
}

/*
 * Add a point of one stack, main;leaf, with count samples whose cpu
 * values add up to value, from the file path; the rc of series_add().
 */
static int
add_raw(struct series *s, const char *path, int64_t count, int64_t value,
    struct diag *d)
{
	struct profile		*p = t_new(2, "samples", "count", "cpu",
				    "nanoseconds");
	const struct pf_function *m = t_fn(p, "main", ""), *l = t_fn(p,
				    "leaf", "");
	const struct pf_location *lm = t_loc(p, NULL, 0, 1, m, 0);
	const struct pf_location *ll = t_loc(p, NULL, 0, 1, l, 0);
	int64_t			 v[2] = { count, value };
	struct agg		*a;
	int			 rc;

	t_sample(p, v, 2, ll, lm);
	a = t_aggregate(p, 0);
	diag_init(d, path);
	rc = series_add(s, a, NULL, 0, path, path, 0, 1000000000, d);
	agg_free(a);
	profile_free(p);
	return rc;
}

/*
 * Issue 30: the sums over the points were taken before any check, and
 * overflowed (undefined behaviour) on counts or values near 2^63.  Each
 * is now refused as the point is added, naming its file: a count the
 * statistics cannot take, a call whose values overflow over the points;
 * and with shares, points whose samples add up past 2^52, the point
 * that takes them there.
 */
static void
test_out_of_range(void)
{
	struct series		 s;
	struct series_opts	 o;
	struct series_result	 r;
	struct diag		 d;

	series_init(&s);
	CHECK(add_raw(&s, "a.txt", 10, 10, &d) == 0);
	CHECK(add_raw(&s, "huge.txt", INT64_C(1) << 53, 1, &d) == -1);
	CHECK_STR(d.path, "huge.txt");
	CHECK_INT(d.code, DIAG_USAGE);
	CHECK(strstr(d.msg, "out of range") != NULL);
	series_release(&s);

	series_init(&s);
	CHECK(add_raw(&s, "a.txt", 1, INT64_C(5) << 60, &d) == 0);
	CHECK(add_raw(&s, "b.txt", 1, INT64_C(5) << 60, &d) == -1);
	CHECK_STR(d.path, "b.txt");
	CHECK_INT(d.code, DIAG_LIMIT);
	CHECK(strstr(d.msg, "main -> leaf") != NULL);
	CHECK(strstr(d.msg, "overflow") != NULL);
	series_release(&s);

	series_init(&s);
	CHECK(add_raw(&s, "a.txt", INT64_C(1) << 51, 1, &d) == 0);
	CHECK(add_raw(&s, "b.txt", INT64_C(1) << 51, 1, &d) == 0);
	CHECK(add_raw(&s, "c.txt", INT64_C(1) << 51, 1, &d) == 0);
	opts(&o);
	diag_init(&d, "series");
	CHECK(series_compute(&s, &o, &r, &d) == -1);
	CHECK_STR(d.path, "c.txt");
	CHECK(strstr(d.msg, "2^52") != NULL);
	series_result_release(&r);
	/* As rates, the points are tested one by one: in range. */
	o.rates = 1;
	diag_init(&d, "series");
	CHECK(series_compute(&s, &o, &r, &d) == 0);
	series_result_release(&r);
	series_release(&s);
}

int
main(void)
{
	test_step(1, 0);
	test_step(1, 1);
	/* g and h at 4.5e9 samples a point: past 32 bits. */
	test_step(10000000, 0);
	test_transient();
	test_flat();
	test_out_of_range();
	test_many_changes();
	return tap_done();
}

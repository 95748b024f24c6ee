/*
 * Tests of flame.c (the two calling-context trees merged by name path,
 * with the table's test and verdict per frame) on trees whose answer is
 * known, and of the flame writers' escaping.  Profiles are built by hand
 * from folded stacks, with no protobuf.
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
#include "core/facts.h"
#include "core/flame.h"
#include "model/profile.h"
#include "report/report_flame.h"
#include "tap.h"
#include "tprofile.h"
#include "tdelta.h"

/* The frame at a ";"-separated path from the root, or NULL. */
static const struct flame_frame *
frame(const struct flame *fl, const char *path)
{
	char		 buf[256], *tok, *save = NULL;
	size_t		 cur = 0, k;

	strlcpy(buf, path, sizeof(buf));
	for (tok = strtok_r(buf, ";", &save); tok != NULL;
	    tok = strtok_r(NULL, ";", &save)) {
		const struct flame_frame *f = &fl->frames[cur];

		for (k = 0; k < f->nkids; k++)
			if (strcmp(fl->frames[fl->kids[f->kid0 + k]].name,
			    tok) == 0)
				break;
		if (k == f->nkids)
			return NULL;
		cur = fl->kids[f->kid0 + k];
	}
	return &fl->frames[cur];
}

struct pair {
	struct profile	*pb, *pn;
	struct agg	*b, *n;
	struct flame	 fl;
};

static int
pair_make(struct pair *p, const char *const *bs, const int64_t *bc,
    size_t nb, const char *const *ns, const int64_t *nc, size_t nn)
{
	struct delta_opts o;

	t_delta_opts(&o);
	p->pb = t_build(bs, bc, nb);
	p->pn = t_build(ns, nc, nn);
	p->b = t_aggregate(p->pb, 1);
	p->n = t_aggregate(p->pn, 1);
	return flame_compute(p->b, p->n, &p->b, 1, &p->n, 1, &o, NULL,
	    FLAME_MIN_SHARE, &p->fl);
}

static void
pair_free(struct pair *p)
{
	flame_release(&p->fl);
	agg_free(p->b);
	agg_free(p->n);
	profile_free(p->pb);
	profile_free(p->pn);
}

/*
 * A parent with no time of its own whose two children each grow by 3
 * points: neither child alone need be a finding, but the parent's
 * cumulative share grew by 6 points, and it must say so (colouring by
 * leaf, or by flat time, would leave it white).
 */
static void
test_parent_of_growth(void)
{
	static const char *const bs[] = { "main;p;a", "main;p;b", "main;q" };
	static const int64_t bc[] = { 1000, 1000, 8000 };
	static const int64_t nc[] = { 1300, 1300, 7400 };
	struct pair		 p;
	const struct flame_frame *f, *a;

	CHECK(pair_make(&p, bs, bc, 3, bs, nc, 3) == 0);
	f = frame(&p.fl, "main;p");
	a = frame(&p.fl, "main;p;a");
	CHECK(f != NULL && a != NULL);
	if (f == NULL || a == NULL) {
		pair_free(&p);
		return;
	}
	CHECK_INT(f->base_flat, 0);
	CHECK_INT(f->new_flat, 0);
	CHECK_INT(f->base_count, 2000);
	CHECK_INT(f->new_count, 2600);
	CHECK_NEAR(f->delta, 0.06, 1e-12);
	CHECK(f->tested);
	CHECK_INT(f->verdict, VERDICT_REGRESSED);
	CHECK_NEAR(a->delta, 0.03, 1e-12);
	CHECK_INT(a->verdict, VERDICT_REGRESSED);
	/*
	 * The sibling that gave the time up lost 6 points of 80: under the
	 * default 10% relative --min-effect, so no finding, as in the table.
	 */
	CHECK_INT(frame(&p.fl, "main;q")->verdict, VERDICT_UNCHANGED);
	/* main holds everything on both sides: it cannot change. */
	CHECK_NEAR(frame(&p.fl, "main")->delta, 0, 1e-12);
	CHECK_INT(frame(&p.fl, "main")->verdict, VERDICT_INSUFFICIENT);
	/* The root is the whole profile, untested. */
	CHECK_INT(p.fl.frames[0].base_cum, 10000 * 10000000LL);
	CHECK_INT(p.fl.frames[0].new_count, 10000);
	CHECK(!p.fl.frames[0].tested);
	CHECK_INT(p.fl.ntested, 5);	/* main, p, a, b, q */
	pair_free(&p);
}

/* A frame only in base is kept, with new share 0, and is a finding. */
static void
test_only_in_base(void)
{
	static const char *const bs[] = { "main;gone;leaf", "main;x" };
	static const int64_t bc[] = { 300, 700 };
	static const char *const ns[] = { "main;x" };
	static const int64_t nc[] = { 1000 };
	struct pair		 p;
	const struct flame_frame *f;

	CHECK(pair_make(&p, bs, bc, 2, ns, nc, 1) == 0);
	f = frame(&p.fl, "main;gone");
	CHECK(f != NULL);
	if (f != NULL) {
		CHECK_INT(f->status, STATUS_GONE);
		CHECK_NEAR(f->base_share, 0.3, 1e-12);
		CHECK_NEAR(f->new_share, 0, 1e-12);
		CHECK(f->visible);
		CHECK_INT(f->verdict, VERDICT_IMPROVED);
	}
	f = frame(&p.fl, "main;gone;leaf");
	CHECK(f != NULL && f->status == STATUS_GONE && f->visible);
	f = frame(&p.fl, "main;x");
	CHECK(f != NULL && f->status == STATUS_BOTH &&
	    f->verdict == VERDICT_REGRESSED);
	pair_free(&p);
}

/* Sampling noise is no finding; and few samples are said to be few. */
static void
test_noise(void)
{
	static const char *const bs[] = { "main;a", "main;b" };
	static const int64_t bc[] = { 500, 500 }, nc[] = { 520, 480 };
	static const int64_t fb[] = { 1, 1 }, fn[] = { 1, 1 };
	struct pair		 p;

	CHECK(pair_make(&p, bs, bc, 2, bs, nc, 2) == 0);
	CHECK(frame(&p.fl, "main;a")->tested);
	CHECK_INT(frame(&p.fl, "main;a")->verdict, VERDICT_UNCHANGED);
	CHECK_INT(frame(&p.fl, "main;b")->verdict, VERDICT_UNCHANGED);
	pair_free(&p);

	CHECK(pair_make(&p, bs, fb, 2, bs, fn, 2) == 0);
	CHECK_INT(frame(&p.fl, "main;a")->verdict, VERDICT_INSUFFICIENT);
	pair_free(&p);
}

/*
 * Frames merge by the whole path: x under a and x under b are two
 * frames; children are in byte order of their names; frames under the
 * minimum share of both sides are neither visible nor tested.
 */
static void
test_paths(void)
{
	static const char *const bs[] = { "main;b;x", "main;a;x", "main;a",
	    "main;tiny" };
	static const int64_t bc[] = { 4000, 5999, 1, 0 };
	static const int64_t nc[] = { 5000, 5000, 0, 0 };
	static const char *const ns[] = { "main;b;x", "main;a;x", "main;a",
	    "main;tiny" };
	static const int64_t tc[] = { 4000, 5999, 1, 1 };
	struct pair		 p;
	const struct flame_frame *m, *ax, *bx;

	CHECK(pair_make(&p, bs, tc, 4, ns, nc, 3) == 0);
	m = frame(&p.fl, "main");
	ax = frame(&p.fl, "main;a;x");
	bx = frame(&p.fl, "main;b;x");
	CHECK(m != NULL && ax != NULL && bx != NULL && ax != bx);
	if (m != NULL && m->nkids == 2) {
		CHECK_STR(p.fl.frames[p.fl.kids[m->kid0]].name, "a");
		CHECK_STR(p.fl.frames[p.fl.kids[m->kid0 + 1]].name, "b");
	} else
		CHECK(!"main has two children");
	CHECK_INT(frame(&p.fl, "main;a")->base_flat, 1 * 10000000);
	CHECK_INT(frame(&p.fl, "main;a")->base_cum, 6000 * 10000000LL);
	/* tiny is 1 of 10000 in base and absent from new: not made. */
	CHECK(frame(&p.fl, "main;tiny") == NULL);
	CHECK_INT(m->base_cum - m->base_flat -
	    frame(&p.fl, "main;a")->base_cum -
	    frame(&p.fl, "main;b")->base_cum, 1 * 10000000);
	pair_free(&p);

	/* With no minimum every frame is made, and cum adds up. */
	p.pb = t_build(bs, tc, 4);
	p.pn = t_build(ns, nc, 3);
	p.b = t_aggregate(p.pb, 1);
	p.n = t_aggregate(p.pn, 1);
	CHECK(flame_compute(p.b, p.n, NULL, 0, NULL, 0, NULL, NULL, 0,
	    &p.fl) == 0);
	CHECK(frame(&p.fl, "main;tiny") != NULL);
	CHECK_INT(p.fl.ntested, 0);
	for (size_t i = 1; i < p.fl.nframes; i++) {
		const struct flame_frame *f = &p.fl.frames[i];
		int64_t s = f->new_flat;

		for (size_t k = 0; k < f->nkids; k++)
			s += p.fl.frames[p.fl.kids[f->kid0 + k]].new_cum;
		if (s != f->new_cum)
			CHECK(!"cum == flat + children's cum");
	}
	pair_free(&p);
	(void)bc;
}

/* Three profiles a side: tested between replicates, per frame. */
static void
test_replicates(void)
{
	struct t_replicates r;
	struct delta_opts o;
	struct flame	 fl;

	t_replicates(&r, 1);
	t_delta_opts(&o);
	CHECK(flame_compute(r.base, r.new, r.each, 3, r.each + 3, 3, &o,
	    NULL, FLAME_MIN_SHARE, &fl) == 0);
	CHECK(fl.replicates);
	CHECK(frame(&fl, "main;a")->st.method == STATS_FISHER ||
	    frame(&fl, "main;a")->st.method == STATS_QUASI);
	CHECK_INT(frame(&fl, "main;a")->verdict, VERDICT_REGRESSED);
	CHECK_INT(frame(&fl, "main;b")->verdict, VERDICT_IMPROVED);
	flame_release(&fl);
	t_replicates_free(&r);
}

/* The table's row of a function, or NULL. */
static const struct delta_row *
table_row(const struct delta *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nrows; i++)
		if (strcmp(d->rows[i].name, name) == 0)
			return &d->rows[i];
	return NULL;
}

/*
 * Rates (issue 30, item 3): a's share grows from 30% to 67% while its
 * rate falls from 300 to 200 samples a second, the other function's
 * falling more.  The table compares rates and calls a improved; its one
 * frame, which holds all of its samples, must say the same, of the same
 * quantity, tested against the same exposures, where shares would have
 * called it grown.
 */
static void
test_rates(void)
{
	static const char *const st[] = { "main;a", "main;b" };
	static const int64_t bc[] = { 3000, 7000 };
	static const int64_t nc[] = { 2000, 1000 };
	struct pair		 p;
	struct delta_opts	 o;
	struct delta		 d;
	struct flame		 fl;
	const struct delta_row	*row;
	const struct flame_frame *f;

	CHECK(pair_make(&p, st, bc, 2, st, nc, 2) == 0);
	CHECK_INT(frame(&p.fl, "main;a")->verdict, VERDICT_REGRESSED);
	t_delta_opts(&o);
	o.norm = DELTA_NORM_DURATION;
	o.base_expo = o.new_expo = 10;
	CHECK(delta_compute(p.b, p.n, &p.b, 1, &p.n, 1, &o, &d) == 0);
	o.nulls = &d.judge;
	CHECK(flame_compute(p.b, p.n, &p.b, 1, &p.n, 1, &o, &d,
	    FLAME_MIN_SHARE, &fl) == 0);
	CHECK(fl.exposure);
	CHECK_INT(fl.norm, DELTA_NORM_DURATION);
	row = table_row(&d, "a");
	f = frame(&fl, "main;a");
	CHECK(row != NULL && f != NULL);
	if (row != NULL && f != NULL) {
		CHECK_INT(row->verdict, VERDICT_IMPROVED);
		CHECK(f->delta > 0);
		CHECK_NEAR(f->base_cum_n, row->base_cum_n, 1e-6);
		CHECK_NEAR(f->new_cum_n, row->new_cum_n, 1e-6);
		CHECK_NEAR(f->delta_n, row->delta, 1e-6);
		CHECK_INT(f->verdict, VERDICT_IMPROVED);
		/* The same test as the row's cum: the same counts, p and q. */
		CHECK_NEAR(f->st.p, row->cum.st.p, 1e-12 + 1e-9 * row->cum.st.p);
	}
	CHECK_INT(frame(&fl, "main;b")->verdict, VERDICT_IMPROVED);
	/* The root is the whole profile: 1000/s -> 300/s. */
	CHECK_NEAR(fl.frames[0].base_cum_n, 1000 * 1e7, 1e-3);
	CHECK_NEAR(fl.frames[0].new_cum_n, 300 * 1e7, 1e-3);
	flame_release(&fl);
	delta_release(&d);
	pair_free(&p);
}

/*
 * Rates between replicates: each run's part of its side's total by its
 * own exposure, as the table's rows are tested.  Three 10-second runs
 * against three of 5 seconds: a's rate goes from 50 to 140 a second
 * (its share from 50% to 70%), b's from 50 to 60.
 */
static void
test_rates_replicates(void)
{
	static const double run[] = { 10, 10, 10, 5, 5, 5 };
	struct t_replicates	 r;
	struct delta_opts	 o;
	struct delta		 d;
	struct flame		 fl;
	const char		*names[] = { "a", "b" };
	char			 path[16];
	size_t			 i;

	t_replicates(&r, 1);
	t_delta_opts(&o);
	o.norm = DELTA_NORM_DURATION;
	o.base_expo = 30;
	o.new_expo = 15;
	o.run_expo = run;
	CHECK(delta_compute(r.base, r.new, r.each, 3, r.each + 3, 3, &o,
	    &d) == 0);
	CHECK(flame_compute(r.base, r.new, r.each, 3, r.each + 3, 3, &o, &d,
	    FLAME_MIN_SHARE, &fl) == 0);
	CHECK(fl.replicates && fl.exposure);
	CHECK_INT(frame(&fl, "main;a")->verdict, VERDICT_REGRESSED);
	for (i = 0; i < 2; i++) {
		const struct delta_row *row = table_row(&d, names[i]);
		const struct flame_frame *f;

		snprintf(path, sizeof(path), "main;%s", names[i]);
		f = frame(&fl, path);
		CHECK(row != NULL && f != NULL);
		if (row == NULL || f == NULL)
			continue;
		CHECK_NEAR(f->delta_n, row->delta, 1e-6);
		CHECK_INT(f->verdict, row->verdict);
		CHECK_NEAR(f->st.p, row->cum.st.p, 1e-12 + 1e-9 *
		    row->cum.st.p);
	}
	flame_release(&fl);
	delta_release(&d);
	t_replicates_free(&r);
}

/* One profile: values only, nothing tested. */
static void
test_single(void)
{
	static const char *const st[] = { "main;a", "main;b" };
	static const int64_t c[] = { 30, 70 };
	struct profile	*p = t_build(st, c, 2);
	struct agg	*a = t_aggregate(p, 1);
	struct flame	 fl;

	CHECK(flame_compute(NULL, a, NULL, 0, NULL, 0, NULL, NULL,
	    FLAME_MIN_SHARE, &fl) == 0);
	CHECK(fl.single);
	CHECK_INT(fl.ntested, 0);
	CHECK_NEAR(frame(&fl, "main;b")->new_share, 0.7, 1e-12);
	CHECK_INT(frame(&fl, "main;b")->verdict, VERDICT_INSUFFICIENT);
	flame_release(&fl);
	agg_free(a);
	profile_free(p);
}

/* Names cannot break a folded line or the SVG's XML. */
static void
test_escaping(void)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp = open_memstream(&buf, &len);

	report_put_folded(fp, "a;b\nc d");
	fputc('|', fp);
	report_put_xml(fp, "<&\"'>\x01\xff\xef\xbf\xbe\xc3\xa9", SIZE_MAX);
	fputc('|', fp);
	report_put_xml(fp, "abcdef", 3);
	fclose(fp);
	CHECK_STR(buf, "a\\x3bb\\x0ac d|&lt;&amp;&quot;&apos;&gt;\\x01"
	    "\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9|abc");
	free(buf);
}

/*
 * Computed text is escaped as names are: "p <1e-300" in a frame's
 * <title> once made the SVG no XML (issue 30).  Its own newlines stay.
 */
static void
test_escaping_formatted(void)
{
	char	*buf = NULL, p[16];
	size_t	 len = 0;
	FILE	*fp = open_memstream(&buf, &len);

	report_put_p(p, sizeof(p), 1e-320);
	report_put_xmlf(fp, "\np %s, q %s: %s", p, "0.5 & more", "\"'");
	fclose(fp);
	CHECK_STR(buf, "\np &lt;1e-300, q 0.5 &amp; more: &quot;&apos;");
	free(buf);
}

/* Long paths keep their ends; the cut is one character, U+2026. */
static void
test_elide(void)
{
	char	*s, e25[64] = "", want[64] = "";
	int	 i;

	s = report_elide("short/path.pb.gz", 40);
	CHECK_STR(s, "short/path.pb.gz");
	free(s);
	/* 9 characters, the ellipsis, 20: the file name is at the end. */
	s = report_elide("/a/very/long/folder/and/more/of/it/profile.pb.gz",
	    30);
	CHECK_STR(s, "/a/very/l\xe2\x80\xa6/of/it/profile.pb.gz");
	free(s);
	/* Never fewer than REPORT_ELIDE_MIN (24) characters. */
	s = report_elide("0123456789012345678901234567890123456789", 3);
	CHECK_STR(s, "0123456\xe2\x80\xa6" "4567890123456789");
	free(s);
	/* Characters, not bytes: a two-byte e-acute counts once. */
	for (i = 0; i < 25; i++)
		strcat(e25, "\xc3\xa9");
	for (i = 0; i < 23; i++)
		strcat(want, i == 7 ? "\xe2\x80\xa6" : "\xc3\xa9");
	strcat(want, "\xc3\xa9");
	s = report_elide(e25, 24);
	CHECK_STR(s, want);
	free(s);
}

int
main(void)
{
	test_parent_of_growth();
	test_only_in_base();
	test_noise();
	test_paths();
	test_replicates();
	test_rates();
	test_rates_replicates();
	test_single();
	test_escaping();
	test_escaping_formatted();
	test_elide();
	return tap_done();
}

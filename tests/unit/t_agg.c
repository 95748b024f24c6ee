/*
 * Tests for agg.c on profiles built by hand.  The expected names and
 * numbers follow go tool pprof -top; the cases that are less obvious
 * (mapping merges, drop_frames, path cleaning) were checked against
 * pprof on the same profiles written out as protobuf.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "support/arena.h"
#include "support/diag.h"
#include "model/profile.h"
#include "tap.h"
#include "tprofile.h"

static struct agg *
t_agg(const struct profile *p, enum agg_gran g, int noinlines, int vi,
    int ci, int64_t div)
{
	struct agg_opts	 o = { .gran = g, .noinlines = noinlines };
	struct agg_src	 src = { .value_index = vi,
	    .count_index = ci, .count_divisor = div, .keep = NULL };
	struct diag	 d;
	struct agg	*a;

	diag_init(&d, "test");
	a = agg_new(&o);
	if (agg_add(a, p, &src, &d) == -1) {
		printf("# agg_add: %s\n", d.msg);
		agg_free(a);
		return NULL;
	}
	return a;
}

/* The node by name, or a static all-zero node when it does not exist. */
static const struct agg_node *
node(const struct agg *a, const char *name)
{
	static const struct agg_node none = { "(none)", { -1, -1 },
	    { -1, -1 } };
	long i;

	if (a == NULL || (i = agg_find(a, name)) < 0)
		return &none;
	return agg_node(a, (size_t)i);
}

/* The edge caller -> callee by names, or NULL. */
static const struct agg_edge *
edge(const struct agg *a, const char *from, const char *to)
{
	long	 i, j;
	size_t	 k;

	if (a == NULL || (i = agg_find(a, from)) < 0 ||
	    (j = agg_find(a, to)) < 0)
		return NULL;
	for (k = 0; k < agg_nedges(a); k++) {
		const struct agg_edge *e = agg_edge(a, k);

		if (e->caller == (size_t)i && e->callee == (size_t)j)
			return e;
	}
	return NULL;
}

static int64_t
edge_w(const struct agg *a, const char *from, const char *to)
{
	const struct agg_edge *e = edge(a, from, to);

	return e == NULL ? -1 : e->w;
}

/* main -> a -> b with b the leaf, and main -> a. */
static void
test_plain(void)
{
	struct profile		*p;
	struct pf_function	*fm, *fa, *fb;
	struct pf_location	*lm, *la, *lb;
	struct agg		*a;

	p = t_new(1, "cpu", "nanoseconds");
	fm = t_fn(p, "main", "main.go");
	fa = t_fn(p, "a", "a.go");
	fb = t_fn(p, "b", "b.go");
	lm = t_loc(p, NULL, 0x10, 1, fm, 5);
	la = t_loc(p, NULL, 0x20, 1, fa, 6);
	lb = t_loc(p, NULL, 0x30, 1, fb, 7);
	t_sample(p, (int64_t[]){ 10 }, 3, lb, la, lm);
	t_sample(p, (int64_t[]){ 5 }, 2, la, lm);
	t_sample(p, (int64_t[]){ 1 }, 3, lb, la, lm);

	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	CHECK(a != NULL);
	CHECK_INT(agg_nnodes(a), 3);
	CHECK_INT(node(a, "b")->flat[AGG_VALUE], 11);
	CHECK_INT(node(a, "a")->flat[AGG_VALUE], 5);
	CHECK_INT(node(a, "main")->flat[AGG_VALUE], 0);
	CHECK_INT(node(a, "main")->cum[AGG_VALUE], 16);
	CHECK_INT(node(a, "a")->cum[AGG_VALUE], 16);
	CHECK_INT(node(a, "b")->cum[AGG_VALUE], 11);
	CHECK_INT(edge_w(a, "main", "a"), 16);
	CHECK_INT(edge_w(a, "a", "b"), 11);
	CHECK(edge(a, "b", "a") == NULL);
	CHECK_INT(agg_nedges(a), 2);
	CHECK_INT(agg_total(a, AGG_VALUE), 16);
	CHECK_INT(agg_abs_total(a, AGG_VALUE), 16);
	CHECK_INT(agg_nsamples(a), 3);
	CHECK_INT(agg_nprofiles(a), 1);
	/* No counts asked for: the count column stays zero. */
	CHECK_INT(node(a, "main")->cum[AGG_COUNT], 0);
	CHECK_INT(agg_total(a, AGG_COUNT), 0);
	/* First-seen order: the root of the first sample comes first. */
	CHECK_STR(agg_node(a, 0)->name, "main");
	CHECK(agg_node(a, 3) == NULL);
	CHECK_INT(agg_find(a, "nope"), -1);
	agg_free(a);
	profile_free(p);
}

/*
 * Recursion: a node is counted once per sample in cum, a self-call is
 * no edge, and an edge repeated on one stack is counted once.
 */
static void
test_recursion(void)
{
	struct profile		*p;
	struct pf_function	*fm, *fa, *fb;
	struct pf_location	*lm, *la, *lb;
	struct agg		*a;

	p = t_new(1, "samples", "count");
	fm = t_fn(p, "main", "");
	fa = t_fn(p, "a", "");
	fb = t_fn(p, "b", "");
	lm = t_loc(p, NULL, 0x10, 1, fm, 0);
	la = t_loc(p, NULL, 0x20, 1, fa, 0);
	lb = t_loc(p, NULL, 0x30, 1, fb, 0);
	/* main -> a -> a -> a */
	t_sample(p, (int64_t[]){ 1 }, 4, la, la, la, lm);
	/* main -> a -> b -> a -> b */
	t_sample(p, (int64_t[]){ 2 }, 5, lb, la, lb, la, lm);

	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	CHECK_INT(node(a, "a")->cum[AGG_VALUE], 3);
	CHECK_INT(node(a, "a")->flat[AGG_VALUE], 1);
	CHECK_INT(node(a, "b")->cum[AGG_VALUE], 2);
	CHECK_INT(node(a, "b")->flat[AGG_VALUE], 2);
	CHECK_INT(node(a, "main")->cum[AGG_VALUE], 3);
	CHECK(edge(a, "a", "a") == NULL);
	CHECK_INT(edge_w(a, "main", "a"), 3);
	CHECK_INT(edge_w(a, "a", "b"), 2);
	CHECK_INT(edge_w(a, "b", "a"), 2);
	CHECK_INT(agg_nedges(a), 3);
	agg_free(a);
	profile_free(p);
}

/*
 * Inlined frames: flat goes to the innermost line of the leaf location;
 * -noinlines gives everything to the out-of-line function.
 */
static void
test_inline(void)
{
	struct profile		*p;
	struct pf_function	*fm, *fo, *fi, *fj;
	struct pf_location	*lm, *l3, *l2;
	struct agg		*a;

	p = t_new(1, "cpu", "nanoseconds");
	fm = t_fn(p, "main", "m.go");
	fo = t_fn(p, "outer", "o.go");
	fi = t_fn(p, "inner", "i.go");
	fj = t_fn(p, "innermost", "j.go");
	lm = t_loc(p, NULL, 0x100, 1, fm, 1);
	/* innermost inlined into inner inlined into outer */
	l3 = t_loc(p, NULL, 0x200, 3, fj, 30, fi, 20, fo, 10);
	l2 = t_loc(p, NULL, 0x300, 2, fi, 21, fo, 11);
	t_sample(p, (int64_t[]){ 100 }, 2, l3, lm);
	t_sample(p, (int64_t[]){ 7 }, 2, l2, lm);

	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	CHECK_INT(node(a, "innermost")->flat[AGG_VALUE], 100);
	CHECK_INT(node(a, "inner")->flat[AGG_VALUE], 7);
	CHECK_INT(node(a, "inner")->cum[AGG_VALUE], 107);
	CHECK_INT(node(a, "outer")->flat[AGG_VALUE], 0);
	CHECK_INT(node(a, "outer")->cum[AGG_VALUE], 107);
	CHECK_INT(edge_w(a, "outer", "inner"), 107);
	CHECK_INT(edge_w(a, "inner", "innermost"), 100);
	CHECK_INT(edge_w(a, "main", "outer"), 107);
	agg_free(a);

	a = t_agg(p, AGG_FUNCTIONS, 1, 0, -1, 0);
	CHECK_INT(agg_nnodes(a), 2);
	CHECK_INT(node(a, "outer")->flat[AGG_VALUE], 107);
	CHECK_INT(node(a, "outer")->cum[AGG_VALUE], 107);
	CHECK_INT(agg_find(a, "inner"), -1);
	CHECK_INT(agg_find(a, "innermost"), -1);
	agg_free(a);

	/* At -lines each inlined line is a node of its own. */
	a = t_agg(p, AGG_LINES, 0, 0, -1, 0);
	CHECK_INT(node(a, "innermost j.go:30")->flat[AGG_VALUE], 100);
	CHECK_INT(node(a, "outer o.go:10")->cum[AGG_VALUE], 100);
	CHECK_INT(node(a, "outer o.go:11")->cum[AGG_VALUE], 7);
	agg_free(a);
	a = t_agg(p, AGG_LINES, 1, 0, -1, 0);
	CHECK_INT(node(a, "outer o.go:10")->flat[AGG_VALUE], 100);
	CHECK_INT(node(a, "outer o.go:11")->flat[AGG_VALUE], 7);
	CHECK_INT(agg_nnodes(a), 3);
	agg_free(a);
	profile_free(p);
}

/* The printed name of one frame at each granularity. */
static void
test_names(void)
{
	static const struct {
		enum agg_gran	 g;
		const char	*want;
	} cases[] = {
		{ AGG_FUNCTIONS,	"pkg.(*T).Run" },
		{ AGG_FILEFUNCTIONS,	"pkg.(*T).Run /src/pkg/run.go" },
		{ AGG_FILES,		"/src/pkg/run.go" },
		{ AGG_LINES,		"pkg.(*T).Run /src/pkg/run.go:42" },
		{ AGG_ADDRESSES,
		    "0000000000401abc pkg.(*T).Run /src/pkg/run.go:42" },
	};
	struct profile		*p;
	struct pf_mapping	*m;
	struct pf_function	*f;
	struct pf_location	*l;
	struct agg		*a;
	size_t			 i;

	p = t_new(1, "cpu", "nanoseconds");
	m = t_map(p, 0x400000, 0x500000, "/usr/bin/app", "");
	/* The file name is cleaned as Go's filepath.Clean does. */
	f = t_fn(p, "pkg.(*T).Run", "/src//pkg/./sub/../run.go");
	l = t_loc(p, m, 0x401abc, 1, f, 42);
	t_sample(p, (int64_t[]){ 3 }, 1, l);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		a = t_agg(p, cases[i].g, 0, 0, -1, 0);
		CHECK_INT(agg_nnodes(a), 1);
		CHECK_STR(agg_node(a, 0)->name, cases[i].want);
		agg_free(a);
	}
	profile_free(p);

	/* Line 0, no file, "/proc/self/cwd/" trimmed, relative paths. */
	p = t_new(1, "cpu", "nanoseconds");
	l = t_loc(p, NULL, 0x10, 1, t_fn(p, "f0", "x.c"), 0);
	t_sample(p, (int64_t[]){ 1 }, 1, l);
	l = t_loc(p, NULL, 0x20, 1, t_fn(p, "nofile", ""), 9);
	t_sample(p, (int64_t[]){ 1 }, 1, l);
	l = t_loc(p, NULL, 0x30, 1,
	    t_fn(p, "cwd", "/proc/self/cwd/./src/main.c"), 3);
	t_sample(p, (int64_t[]){ 1 }, 1, l);
	l = t_loc(p, NULL, 0x40, 1, t_fn(p, "rel", "./a/./b/../../../c/"), 4);
	t_sample(p, (int64_t[]){ 1 }, 1, l);
	l = t_loc(p, NULL, 0x50, 1, t_fn(p, "cwdonly", "/proc/self/cwd/"), 5);
	t_sample(p, (int64_t[]){ 1 }, 1, l);
	a = t_agg(p, AGG_LINES, 0, 0, -1, 0);
	CHECK(agg_find(a, "f0 x.c") >= 0);
	CHECK(agg_find(a, "nofile :9") >= 0);
	CHECK(agg_find(a, "cwd src/main.c:3") >= 0);
	CHECK(agg_find(a, "rel ../c:4") >= 0);
	CHECK(agg_find(a, "cwdonly :5") >= 0);
	agg_free(a);
	a = t_agg(p, AGG_FILES, 0, 0, -1, 0);
	CHECK(agg_find(a, "x.c") >= 0);
	CHECK(agg_find(a, "src/main.c") >= 0);
	/* Nameless and fileless at -files: nothing left but <unknown>. */
	CHECK_INT(node(a, "<unknown>")->flat[AGG_VALUE], 2);
	agg_free(a);
	profile_free(p);
}

/*
 * Locations without lines or without a function, with and without a
 * mapping: pprof prints the address (at -addresses) and the mapping's
 * base name in brackets, or <unknown>.
 */
static void
test_unsymbolized(void)
{
	struct profile		*p;
	struct pf_mapping	*m, *fake;
	struct pf_location	*l1, *l2, *l3, *l4, *l5;
	struct pf_function	*anon;
	struct agg		*a;

	p = t_new(1, "cpu", "nanoseconds");
	m = t_map(p, 0x7f0000000000, 0x7f0000100000, "/lib/x86_64/libc.so.6",
	    "");
	fake = t_map(p, 0x1000, 0x2000, "", "");
	l1 = t_loc(p, m, 0x7f0000001234, 0);
	l2 = t_loc(p, NULL, 0x5555, 0);
	l3 = t_loc(p, fake, 0x1010, 0);
	l4 = t_loc(p, m, 0x7f0000004321, 1, NULL, 12);
	anon = t_fn(p, "", "/src/anon.c");
	l5 = t_loc(p, m, 0x7f0000000100, 1, anon, 7);
	t_sample(p, (int64_t[]){ 1 }, 2, l1, l5);
	t_sample(p, (int64_t[]){ 2 }, 2, l2, l5);
	t_sample(p, (int64_t[]){ 4 }, 2, l3, l5);
	t_sample(p, (int64_t[]){ 8 }, 2, l4, l5);

	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	/* l1, l4 and l5 (a nameless function) all print as the binary. */
	CHECK_INT(node(a, "[libc.so.6]")->flat[AGG_VALUE], 9);
	CHECK_INT(node(a, "[libc.so.6]")->cum[AGG_VALUE], 15);
	CHECK_INT(node(a, "<unknown>")->flat[AGG_VALUE], 6);
	CHECK_INT(agg_nnodes(a), 2);
	agg_free(a);

	a = t_agg(p, AGG_ADDRESSES, 0, 0, -1, 0);
	CHECK_INT(node(a, "00007f0000001234 [libc.so.6]")->flat[AGG_VALUE], 1);
	CHECK_INT(node(a, "0000000000005555 <unknown>")->flat[AGG_VALUE], 2);
	CHECK_INT(node(a, "0000000000001010 <unknown>")->flat[AGG_VALUE], 4);
	/* A line without a function shows neither file nor line number. */
	CHECK_INT(node(a, "00007f0000004321 [libc.so.6]")->flat[AGG_VALUE], 8);
	/* A nameless function shows its file, so no binary name. */
	CHECK_INT(node(a, "00007f0000000100 /src/anon.c:7")->cum[AGG_VALUE],
	    15);
	agg_free(a);

	a = t_agg(p, AGG_FILEFUNCTIONS, 0, 0, -1, 0);
	CHECK_INT(node(a, "/src/anon.c")->cum[AGG_VALUE], 15);
	agg_free(a);
	profile_free(p);
}

/* Several sample types: value_index, count_index, count_divisor. */
static void
test_sample_types(void)
{
	struct profile		*p;
	struct pf_location	*lm, *la;
	struct agg		*a;

	p = t_new(3, "samples", "count", "cpu", "nanoseconds", "other",
	    "count");
	lm = t_loc(p, NULL, 0x10, 1, t_fn(p, "main", ""), 0);
	la = t_loc(p, NULL, 0x20, 1, t_fn(p, "a", ""), 0);
	t_sample(p, (int64_t[]){ 3, 30000000, 0 }, 2, la, lm);
	t_sample(p, (int64_t[]){ 1, 10000000, 5 }, 1, lm);
	/* Zero for the chosen type: skipped, the count with it. */
	t_sample(p, (int64_t[]){ 2, 0, 6 }, 2, la, lm);

	a = t_agg(p, AGG_FUNCTIONS, 0, 1, 0, 0);
	CHECK_INT(node(a, "main")->cum[AGG_VALUE], 40000000);
	CHECK_INT(node(a, "main")->cum[AGG_COUNT], 4);
	CHECK_INT(node(a, "main")->flat[AGG_COUNT], 1);
	CHECK_INT(node(a, "a")->flat[AGG_COUNT], 3);
	CHECK_INT(edge_w(a, "main", "a"), 30000000);	/* values only */
	CHECK_INT(agg_total(a, AGG_COUNT), 4);
	CHECK_INT(agg_nsamples(a), 2);
	agg_free(a);

	/* Counts from the value and a sampling period. */
	a = t_agg(p, AGG_FUNCTIONS, 0, 1, -1, 10000000);
	CHECK_INT(node(a, "main")->cum[AGG_COUNT], 4);
	CHECK_INT(node(a, "a")->flat[AGG_COUNT], 3);
	agg_free(a);

	/* Type 2 is zero in the first sample: "a" never gets a value. */
	a = t_agg(p, AGG_FUNCTIONS, 0, 2, 0, 0);
	CHECK_INT(node(a, "main")->cum[AGG_VALUE], 11);
	CHECK_INT(node(a, "main")->cum[AGG_COUNT], 3);
	CHECK_INT(node(a, "a")->cum[AGG_VALUE], 6);
	agg_free(a);

	a = t_agg(p, AGG_FUNCTIONS, 0, 0, 0, 0);
	CHECK_INT(node(a, "main")->cum[AGG_VALUE], 6);
	CHECK_INT(node(a, "main")->cum[AGG_COUNT], 6);
	agg_free(a);
	profile_free(p);
}

/* Negative values add as they are; pprof's total is of magnitudes. */
static void
test_negative(void)
{
	struct profile		*p;
	struct pf_location	*lm, *la, *lb;
	struct agg		*a;

	p = t_new(1, "inuse_space", "bytes");
	lm = t_loc(p, NULL, 0x10, 1, t_fn(p, "main", ""), 0);
	la = t_loc(p, NULL, 0x20, 1, t_fn(p, "a", ""), 0);
	lb = t_loc(p, NULL, 0x30, 1, t_fn(p, "b", ""), 0);
	t_sample(p, (int64_t[]){ 100 }, 2, la, lm);
	t_sample(p, (int64_t[]){ -30 }, 2, la, lm);
	t_sample(p, (int64_t[]){ -50 }, 2, lb, lm);
	t_sample(p, (int64_t[]){ 50 }, 2, lb, lm);
	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	CHECK_INT(node(a, "a")->flat[AGG_VALUE], 70);
	CHECK_INT(node(a, "main")->cum[AGG_VALUE], 70);
	/* b cancels out: it exists, pprof would not print it. */
	CHECK_INT(node(a, "b")->cum[AGG_VALUE], 0);
	CHECK_INT(agg_total(a, AGG_VALUE), 70);
	CHECK_INT(agg_abs_total(a, AGG_VALUE), 230);
	agg_free(a);
	profile_free(p);
}

/* Two profiles into one agg: the sums of both. */
static void
test_merge(void)
{
	struct profile		*p1, *p2;
	struct pf_location	*lm, *la;
	struct agg_opts		 o = { .gran = AGG_FUNCTIONS };
	struct agg_src		 src = { .value_index = 0,
	    .count_index = -1, .count_divisor = 0, .keep = NULL };
	struct diag		 d;
	struct agg		*a;

	p1 = t_new(1, "cpu", "nanoseconds");
	lm = t_loc(p1, NULL, 0x10, 1, t_fn(p1, "main", ""), 0);
	la = t_loc(p1, NULL, 0x20, 1, t_fn(p1, "a", ""), 0);
	t_sample(p1, (int64_t[]){ 5 }, 2, la, lm);
	p2 = t_new(1, "cpu", "nanoseconds");
	la = t_loc(p2, NULL, 0x99, 1, t_fn(p2, "a", "other.go"), 0);
	lm = t_loc(p2, NULL, 0x98, 1, t_fn(p2, "main", ""), 0);
	t_sample(p2, (int64_t[]){ 7 }, 2, la, lm);
	t_sample(p2, (int64_t[]){ 1 }, 1, lm);

	diag_init(&d, "test");
	a = agg_new(&o);
	CHECK_INT(agg_add(a, p1, &src, &d), 0);
	profile_free(p1);	/* names were copied */
	CHECK_INT(agg_add(a, p2, &src, &d), 0);
	profile_free(p2);
	CHECK_INT(agg_nprofiles(a), 2);
	CHECK_INT(agg_nnodes(a), 2);
	CHECK_INT(node(a, "a")->flat[AGG_VALUE], 12);
	CHECK_INT(node(a, "main")->cum[AGG_VALUE], 13);
	CHECK_INT(node(a, "main")->flat[AGG_VALUE], 1);
	CHECK_INT(edge_w(a, "main", "a"), 12);
	CHECK_INT(agg_total(a, AGG_VALUE), 13);
	CHECK_INT(agg_nsamples(a), 3);
	agg_free(a);
}

/* Sums that would overflow fail with DIAG_LIMIT and leave the agg as is. */
static void
test_overflow(void)
{
	struct profile		*p, *q;
	struct pf_location	*lm;
	struct agg_opts		 o = { .gran = AGG_FUNCTIONS };
	struct agg_src		 src = { .value_index = 0,
	    .count_index = -1, .count_divisor = 0, .keep = NULL };
	struct diag		 d;
	struct agg		*a;

	p = t_new(1, "cpu", "nanoseconds");
	lm = t_loc(p, NULL, 0x10, 1, t_fn(p, "main", ""), 0);
	t_sample(p, (int64_t[]){ INT64_MAX - 1 }, 1, lm);
	q = t_new(1, "cpu", "nanoseconds");
	lm = t_loc(q, NULL, 0x10, 1, t_fn(q, "other", ""), 0);
	t_sample(q, (int64_t[]){ 1 }, 1, lm);
	t_sample(q, (int64_t[]){ 1 }, 1, lm);

	diag_init(&d, "test");
	a = agg_new(&o);
	CHECK_INT(agg_add(a, p, &src, &d), 0);
	CHECK_INT(agg_add(a, q, &src, &d), -1);
	CHECK_INT(d.code, DIAG_LIMIT);
	CHECK(strstr(d.msg, "overflow") != NULL);
	/* Nothing of q went in. */
	CHECK_INT(agg_nnodes(a), 1);
	CHECK_INT(agg_total(a, AGG_VALUE), INT64_MAX - 1);
	CHECK_INT(agg_nsamples(a), 1);
	CHECK_INT(agg_nprofiles(a), 1);
	agg_free(a);
	profile_free(q);
	profile_free(p);

	/* The most negative value has no magnitude. */
	p = t_new(1, "cpu", "nanoseconds");
	lm = t_loc(p, NULL, 0x10, 1, t_fn(p, "main", ""), 0);
	t_sample(p, (int64_t[]){ INT64_MIN }, 1, lm);
	a = agg_new(&o);
	diag_init(&d, "test");
	CHECK_INT(agg_add(a, p, &src, &d), -1);
	CHECK_INT(d.code, DIAG_LIMIT);
	CHECK_INT(agg_nnodes(a), 0);
	agg_free(a);
	profile_free(p);

	/* Large values that cancel in sum but not in magnitude. */
	p = t_new(1, "cpu", "nanoseconds");
	lm = t_loc(p, NULL, 0x10, 1, t_fn(p, "main", ""), 0);
	t_sample(p, (int64_t[]){ INT64_MAX }, 1, lm);
	t_sample(p, (int64_t[]){ -INT64_MAX }, 1, lm);
	a = agg_new(&o);
	CHECK_INT(agg_add(a, p, &src, &d), -1);
	CHECK_INT(d.code, DIAG_LIMIT);
	agg_free(a);
	profile_free(p);
}

/* Requests the profile cannot satisfy. */
static void
test_bad_request(void)
{
	struct profile		*p;
	struct agg_opts		 o = { .gran = AGG_FUNCTIONS };
	struct agg_src		 src;
	struct diag		 d;
	struct agg		*a;

	p = t_new(2, "samples", "count", "cpu", "nanoseconds");
	a = agg_new(&o);
	diag_init(&d, "test");
	src = (struct agg_src){ .value_index = 2,
	    .count_index = -1, .count_divisor = 0, .keep = NULL };
	CHECK_INT(agg_add(a, p, &src, &d), -1);
	CHECK_INT(d.code, DIAG_USAGE);
	src = (struct agg_src){ .value_index = -1,
	    .count_index = -1, .count_divisor = 0, .keep = NULL };
	CHECK_INT(agg_add(a, p, &src, &d), -1);
	src = (struct agg_src){ .value_index = 1,
	    .count_index = 5, .count_divisor = 0, .keep = NULL };
	CHECK_INT(agg_add(a, p, &src, &d), -1);
	src = (struct agg_src){ .value_index = 1,
	    .count_index = -1, .count_divisor = -3, .keep = NULL };
	CHECK_INT(agg_add(a, p, &src, &d), -1);
	src = (struct agg_src){ .value_index = 1,
	    .count_index = 0, .count_divisor = 0, .keep = NULL };
	CHECK_INT(agg_add(a, p, &src, &d), 0);
	CHECK_INT(agg_nprofiles(a), 1);
	CHECK_INT(agg_nsamples(a), 0);
	agg_free(a);
	agg_free(NULL);
	profile_free(p);
}

/*
 * drop_frames and keep_frames, as pprof applies them on load: frames
 * from the first matching one down to the leaf go, unless the match is
 * at the root of the stack.
 */
static void
test_drop_frames(void)
{
	struct profile		*p;
	struct pf_function	*fm, *fmal, *fu, *fk, *fi, *fnew;
	struct pf_location	*lm, *lmal, *lu, *lk, *lpart, *lnew;
	struct agg		*a;

	p = t_new(1, "samples", "count");
	p->drop_frames = "malloc|free_.*|operator new";
	p->keep_frames = "free_keep";
	fm = t_fn(p, "main", "");
	fmal = t_fn(p, "malloc", "");
	fu = t_fn(p, "user", "");
	fk = t_fn(p, "free_keep", "");
	fi = t_fn(p, "helper", "");
	fnew = t_fn(p, "operator new(unsigned long)", "");
	lm = t_loc(p, NULL, 0x10, 1, fm, 0);
	lmal = t_loc(p, NULL, 0x20, 1, fmal, 0);
	lu = t_loc(p, NULL, 0x30, 1, fu, 0);
	lk = t_loc(p, NULL, 0x40, 1, fk, 0);
	/* helper inlined into malloc inlined into user */
	lpart = t_loc(p, NULL, 0x50, 3, fi, 0, fmal, 0, fu, 0);
	lnew = t_loc(p, NULL, 0x60, 1, fnew, 0);
	t_sample(p, (int64_t[]){ 1 }, 3, lmal, lu, lm);
	t_sample(p, (int64_t[]){ 2 }, 3, lk, lu, lm);
	t_sample(p, (int64_t[]){ 4 }, 2, lpart, lm);
	t_sample(p, (int64_t[]){ 8 }, 2, lu, lmal);	/* malloc at the root */
	t_sample(p, (int64_t[]){ 16 }, 2, lnew, lm);

	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	CHECK_INT(node(a, "user")->flat[AGG_VALUE], 13);
	CHECK_INT(node(a, "free_keep")->flat[AGG_VALUE], 2);
	CHECK_INT(node(a, "malloc")->cum[AGG_VALUE], 8);
	CHECK_INT(node(a, "malloc")->flat[AGG_VALUE], 0);
	CHECK_INT(agg_find(a, "helper"), -1);
	/* The argument list is cut before matching, as pprof does. */
	CHECK_INT(node(a, "main")->flat[AGG_VALUE], 16);
	CHECK_INT(agg_find(a, "operator new(unsigned long)"), -1);
	CHECK_INT(agg_total(a, AGG_VALUE), 31);
	agg_free(a);

	/* A pattern that does not compile is ignored, as pprof ignores it. */
	p->drop_frames = "mal(loc";
	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	CHECK_INT(node(a, "malloc")->flat[AGG_VALUE], 1);
	agg_free(a);
	profile_free(p);
}

/*
 * pprof's profile.Merge folds mappings with the same key (rounded size,
 * offset, build id or file) and moves their addresses.
 */
static void
test_mapping_merge(void)
{
	struct profile		*p;
	struct pf_mapping	*m1, *m2, *m3;
	struct pf_location	*l1, *l2, *l3;
	struct agg		*a;

	p = t_new(1, "samples", "count");
	m1 = t_map(p, 0x400000, 0x500000, "/usr/bin/app", "abc");
	m2 = t_map(p, 0x7f0000000000, 0x7f0000100000, "/lib/libc.so.6", "");
	m3 = t_map(p, 0x900000, 0xa00000, "/opt/app", "abc");
	l1 = t_loc(p, m1, 0x401000, 0);
	l2 = t_loc(p, m3, 0x901000, 0);
	l3 = t_loc(p, m2, 0x7f0000000010, 0);
	t_sample(p, (int64_t[]){ 1 }, 1, l1);
	t_sample(p, (int64_t[]){ 2 }, 1, l2);
	t_sample(p, (int64_t[]){ 4 }, 1, l3);
	a = t_agg(p, AGG_ADDRESSES, 0, 0, -1, 0);
	CHECK_INT(node(a, "0000000000401000 [app]")->flat[AGG_VALUE], 3);
	CHECK_INT(node(a, "00007f0000000010 [libc.so.6]")->flat[AGG_VALUE], 4);
	CHECK_INT(agg_nnodes(a), 2);
	agg_free(a);
	profile_free(p);
}

/*
 * Across profiles too, as go tool pprof merges the profiles it is
 * given: the same binary loaded elsewhere (ASLR) lands on the addresses
 * of the first profile, here even though it is not the second's first
 * mapping.
 */
static void
test_mapping_merge_profiles(void)
{
	struct profile		*p1, *p2;
	struct pf_mapping	*m, *other;
	struct pf_location	*l;
	struct agg_opts		 o = { .gran = AGG_ADDRESSES };
	struct agg_src		 src = { .value_index = 0,
	    .count_index = -1, .count_divisor = 0, .keep = NULL };
	struct diag		 d;
	struct agg		*a;

	p1 = t_new(1, "samples", "count");
	m = t_map(p1, 0x400000, 0x500000, "/usr/bin/app", "");
	l = t_loc(p1, m, 0x402000, 0);
	t_sample(p1, (int64_t[]){ 1 }, 1, l);
	p2 = t_new(1, "samples", "count");
	other = t_map(p2, 0x800000, 0x800100, "/x/other", "");
	m = t_map(p2, 0x10400000, 0x10500000, "/usr/bin/app", "");
	l = t_loc(p2, m, 0x10402000, 0);
	t_sample(p2, (int64_t[]){ 2 }, 1, l);
	l = t_loc(p2, other, 0x800010, 0);
	t_sample(p2, (int64_t[]){ 4 }, 1, l);

	diag_init(&d, "test");
	a = agg_new(&o);
	CHECK_INT(agg_add(a, p1, &src, &d), 0);
	CHECK_INT(agg_add(a, p2, &src, &d), 0);
	CHECK_INT(node(a, "0000000000402000 [app]")->flat[AGG_VALUE], 3);
	CHECK_INT(node(a, "0000000000800010 [other]")->flat[AGG_VALUE], 4);
	CHECK_INT(agg_nnodes(a), 2);
	agg_free(a);
	profile_free(p1);
	profile_free(p2);
}

/* A sample with no stack counts in the totals and in no node. */
static void
test_empty_stack(void)
{
	struct profile		*p;
	struct pf_location	*l;
	struct agg		*a;

	p = t_new(1, "samples", "count");
	l = t_loc(p, NULL, 0x10, 1, t_fn(p, "main", ""), 0);
	t_sample(p, (int64_t[]){ 3 }, 0);
	t_sample(p, (int64_t[]){ 5 }, 1, l);
	t_sample(p, (int64_t[]){ 7 }, 0);
	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	CHECK_INT(agg_total(a, AGG_VALUE), 15);
	CHECK_INT(agg_nsamples(a), 3);
	CHECK_INT(agg_nnodes(a), 1);
	CHECK_INT(node(a, "main")->cum[AGG_VALUE], 5);
	agg_free(a);
	profile_free(p);
}

/* Enough distinct frames to grow every table several times. */
/*
 * A profile of samples/count with room for more than tprofile.h's T_MAX:
 * nfn functions, nloc locations and nsamp samples.
 */
static struct profile *
t_sized(size_t nfn, size_t nloc, size_t nsamp)
{
	struct profile *p;

	p = profile_new();
	p->sample_types = arena_calloc(p->arena, 1, sizeof(*p->sample_types));
	p->sample_types[0] = (struct pf_valuetype){ "samples", "count" };
	p->nsample_types = 1;
	p->functions = arena_calloc(p->arena, nfn, sizeof(*p->functions));
	p->locations = arena_calloc(p->arena, nloc, sizeof(*p->locations));
	p->samples = arena_calloc(p->arena, nsamp, sizeof(*p->samples));
	return p;
}

static void
test_many(void)
{
	struct profile		*p;
	struct pf_function	*f;
	struct pf_location	*l;
	struct agg		*a;
	char			*name;
	size_t			 i, j, nfn = 5000, nsamp = 20000, depth = 50;
	int64_t			 cum0;

	p = t_sized(nfn, nfn, nsamp);
	for (i = 0; i < nfn; i++) {
		f = &p->functions[i];
		name = arena_calloc(p->arena, 16, 1);
		snprintf(name, 16, "f%zu", i);
		f->id = i + 1;
		f->name = f->system_name = name;
		f->filename = "";
		l = &p->locations[i];
		l->id = i + 1;
		l->address = 0x1000 + i;
		l->nlines = 1;
		l->lines = arena_calloc(p->arena, 1, sizeof(*l->lines));
		l->lines[0].function = f;
	}
	p->nfunctions = p->nlocations = nfn;
	for (i = 0; i < nsamp; i++) {
		struct pf_sample *s = &p->samples[i];

		s->values = arena_calloc(p->arena, 1, sizeof(*s->values));
		s->values[0] = 1;
		s->nlocs = depth;
		s->locs = arena_calloc(p->arena, depth, sizeof(*s->locs));
		/* Root f0, then a walk that revisits functions. */
		for (j = 0; j < depth; j++)
			s->locs[depth - 1 - j] = &p->locations[j == 0 ? 0 :
			    (i * 7 + j * 13) % nfn];
	}
	p->nsamples = nsamp;
	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	CHECK_INT(agg_nnodes(a), nfn);
	CHECK_INT(node(a, "f0")->cum[AGG_VALUE], nsamp);
	cum0 = 0;
	for (i = 0; i < agg_nnodes(a); i++) {
		const struct agg_node *n = agg_node(a, i);

		cum0 += n->flat[AGG_VALUE];
		if (agg_find(a, n->name) != (long)i)
			break;
	}
	CHECK_INT(i, nfn);
	CHECK_INT(cum0, nsamp);
	agg_free(a);
	profile_free(p);
}

/*
 * agg_index_edges(): every edge once among the edges out of its caller
 * and once among those into its callee, each node's in ascending order.
 * Returns the number of faults.
 */
static size_t
index_faults(const struct agg *a)
{
	const uint32_t	*id;
	size_t		 i, k, n, seen[2] = { 0, 0 }, bad = 0;
	int		 in;
	char		*hit;

	hit = calloc(agg_nedges(a) + 1, 2);
	for (i = 0; i < agg_nnodes(a); i++)
		for (in = 0; in < 2; in++) {
			id = in ? agg_edges_in(a, i, &n) :
			    agg_edges_out(a, i, &n);
			for (k = 0; k < n; k++, seen[in]++) {
				if (id[k] >= agg_nedges(a)) {
					bad++;
					continue;
				}
				bad += (in ? agg_edge(a, id[k])->callee :
				    agg_edge(a, id[k])->caller) != i;
				bad += k > 0 && id[k] <= id[k - 1];
				bad += hit[2 * id[k] + (size_t)in]++ != 0;
			}
		}
	bad += seen[0] != agg_nedges(a);
	bad += seen[1] != agg_nedges(a);
	free(hit);
	return bad;
}

/*
 * Random deep stacks over nfn functions, many of nloc locations inlining
 * several of them.  Over six functions most frames come back to a node,
 * so this is where the test for an edge already counted in a stack does
 * its work; over 150, the edge table doubles six times while the edges
 * between a location's inlined frames are cached in the view, which
 * must follow them to their new slots.  The nodes and edges must be
 * those of the definition, worked out here frame by frame: a stack adds
 * its weight once to each distinct node, and once to each distinct
 * caller -> callee pair of consecutive frames (a frame calling its own
 * node is no edge).
 */
static void
test_edges_brute(size_t nfn, size_t nloc, uint64_t rng)
{
	enum { NSAMP = 3000, DEPTH = 40 };
	struct profile		*p;
	struct pf_location	*l;
	struct agg		*a;
	int64_t			*cum, *flat, *ew;
	char			*seen, *eseen, *name;
	size_t			 frames[3 * DEPTH];
	size_t			 i, j, k, nf, f, g, nedges = 0, bad = 0;

	cum = calloc(nfn, sizeof(*cum));
	flat = calloc(nfn, sizeof(*flat));
	ew = calloc(nfn * nfn, sizeof(*ew));
	seen = calloc(nfn, 1);
	eseen = calloc(nfn * nfn, 1);
	p = t_sized(nfn, nloc, NSAMP);
	for (i = 0; i < nfn; i++) {
		name = arena_calloc(p->arena, 24, 1);
		snprintf(name, 24, "f%zu", i);
		p->functions[i].id = i + 1;
		p->functions[i].name = p->functions[i].system_name = name;
		p->functions[i].filename = "";
	}
	p->nfunctions = nfn;
	/* Location i: 1 + i % 3 lines of any functions, innermost first. */
	for (i = 0; i < nloc; i++) {
		l = &p->locations[i];
		l->id = i + 1;
		l->address = 0x100 * (i + 1);
		l->nlines = 1 + i % 3;
		l->lines = arena_calloc(p->arena, l->nlines, sizeof(*l->lines));
		for (k = 0; k < l->nlines; k++) {
			rng = rng * 6364136223846793005ULL +
			    1442695040888963407ULL;
			l->lines[k].function = &p->functions[(rng >> 33) % nfn];
		}
	}
	p->nlocations = nloc;
	for (i = 0; i < NSAMP; i++) {
		struct pf_sample *s = &p->samples[i];

		s->values = arena_calloc(p->arena, 1, sizeof(*s->values));
		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		s->values[0] = 1 + (int64_t)(rng >> 60);
		s->nlocs = 1 + (rng >> 33) % DEPTH;
		s->locs = arena_calloc(p->arena, s->nlocs, sizeof(*s->locs));
		for (j = 0; j < s->nlocs; j++) {
			rng = rng * 6364136223846793005ULL +
			    1442695040888963407ULL;
			s->locs[j] = &p->locations[(rng >> 33) % nloc];
		}
		/* Its frames from the root, each location outermost first. */
		nf = 0;
		for (j = s->nlocs; j > 0; j--)
			for (k = s->locs[j - 1]->nlines; k > 0; k--)
				frames[nf++] = (size_t)(s->locs[j - 1]->lines[k -
				    1].function - p->functions);
		memset(seen, 0, nfn);
		memset(eseen, 0, nfn * nfn);
		for (k = 0; k < nf; k++) {
			if (!seen[frames[k]])
				cum[frames[k]] += s->values[0];
			seen[frames[k]] = 1;
			if (k > 0 && frames[k - 1] != frames[k] &&
			    !eseen[frames[k - 1] * nfn + frames[k]]) {
				ew[frames[k - 1] * nfn + frames[k]] +=
				    s->values[0];
				eseen[frames[k - 1] * nfn + frames[k]] = 1;
			}
		}
		flat[frames[nf - 1]] += s->values[0];
	}
	p->nsamples = NSAMP;
	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	CHECK(a != NULL);
	for (f = 0; a != NULL && f < nfn; f++) {
		const char *fn = p->functions[f].name;

		if (cum[f] == 0)	/* in no location */
			CHECK(agg_find(a, fn) == -1);
		else {
			CHECK_INT(node(a, fn)->cum[AGG_VALUE], cum[f]);
			CHECK_INT(node(a, fn)->flat[AGG_VALUE], flat[f]);
		}
		for (g = 0; g < nfn; g++)
			nedges += ew[f * nfn + g] != 0;
	}
	/* Each edge made once, with the weight worked out above. */
	for (i = 0; a != NULL && i < agg_nedges(a); i++) {
		const struct agg_edge *e = agg_edge(a, i);

		f = strtoul(agg_node(a, e->caller)->name + 1, NULL, 10);
		g = strtoul(agg_node(a, e->callee)->name + 1, NULL, 10);
		if (e->w != ew[f * nfn + g])
			bad++;
		ew[f * nfn + g] = -1;	/* a second copy would not match */
	}
	CHECK_INT(bad, 0);
	CHECK_INT(a != NULL ? agg_nedges(a) : 0, nedges);
	if (a != NULL) {
		struct agg_src	 src = { .value_index = 0,
		    .count_index = -1, .count_divisor = 0, .keep = NULL };
		struct agg	*dup;
		struct diag	 d;

		agg_edges_out(a, 0, &k);
		CHECK_INT(k, 0);	/* no index yet */
		agg_index_edges(a);
		CHECK_INT(index_faults(a), 0);
		dup = agg_dup(a);
		agg_edges_in(dup, 0, &k);
		CHECK_INT(k, 0);	/* a copy has no index */
		/* Folding again drops the index; indexing again mends it. */
		diag_init(&d, "test");
		CHECK(agg_add(a, p, &src, &d) == 0);
		for (i = 0, k = 0; i < agg_nnodes(a); i++)
			k += agg_edges_out(a, i, &f) != NULL;
		CHECK_INT(k, 0);
		agg_index_edges(a);
		CHECK_INT(index_faults(a), 0);
		agg_free(dup);
	}
	agg_free(a);
	profile_free(p);
	free(cum);
	free(flat);
	free(ew);
	free(seen);
	free(eseen);
}

struct tedge {
	size_t	 caller, callee;	/* function indices */
	int64_t	 w;
	size_t	 first;			/* the first sample it is in */
};

static int
tedge_cmp(const void *a, const void *b)
{
	const struct tedge *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return 0;
}

/*
 * Enough distinct edges for the edge table to double up to eight
 * times, each time moving its edges where it lies: every edge must
 * still be found (or a second copy of it would be made), with its
 * weight, and the edges must stay in the order they were made: an edge
 * first met in an earlier sample comes first.  Stacks of distinct
 * functions, so that each caller -> callee pair of a stack is one edge.
 */
static void
test_edges_grow(uint64_t rng, size_t NSAMP)
{
	enum { NFN = 3000, DEPTH = 12 };
	struct profile	*p;
	struct agg	*a;
	struct tedge	*want, *got, *w;
	struct agg_src	 src = { .value_index = 0,
	    .count_index = -1, .count_divisor = 0, .keep = NULL };
	struct diag	 d;
	char		*name;
	size_t		 i, j, k, nw = 0, nwant = 0, bad = 0, fn[DEPTH];
	size_t		 first = 0;

	p = t_sized(NFN, NFN, NSAMP);
	want = calloc((size_t)NSAMP * DEPTH, sizeof(*want));
	for (i = 0; i < NFN; i++) {
		name = arena_calloc(p->arena, 8, 1);
		snprintf(name, 8, "f%zu", i);
		p->functions[i].id = p->locations[i].id = i + 1;
		p->functions[i].name = p->functions[i].system_name = name;
		p->functions[i].filename = "";
		p->locations[i].nlines = 1;
		p->locations[i].lines = arena_calloc(p->arena, 1,
		    sizeof(*p->locations[i].lines));
		p->locations[i].lines[0].function = &p->functions[i];
	}
	p->nfunctions = p->nlocations = NFN;
	for (i = 0; i < NSAMP; i++) {
		struct pf_sample *s = &p->samples[i];

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		s->nlocs = 2 + (rng >> 33) % (DEPTH - 1);
		s->values = arena_calloc(p->arena, 1, sizeof(*s->values));
		s->values[0] = 1 + (int64_t)(rng >> 61);
		s->locs = arena_calloc(p->arena, s->nlocs, sizeof(*s->locs));
		for (j = 0; j < s->nlocs; j++) {
			do {	/* a function not yet in the stack */
				rng = rng * 6364136223846793005ULL +
				    1442695040888963407ULL;
				fn[j] = (rng >> 33) % NFN;
				for (k = 0; k < j && fn[k] != fn[j]; k++)
					continue;
			} while (k < j);
			s->locs[j] = &p->locations[fn[j]];
			/* leaf first: the frame after calls this one */
			if (j > 0)
				want[nw++] = (struct tedge){ fn[j], fn[j - 1],
				    s->values[0], i };
		}
	}
	p->nsamples = NSAMP;
	qsort(want, nw, sizeof(*want), tedge_cmp);
	for (i = 0; i < nw; i++) {
		if (nwant > 0 && tedge_cmp(&want[nwant - 1], &want[i]) == 0) {
			want[nwant - 1].w += want[i].w;
			if (want[i].first < want[nwant - 1].first)
				want[nwant - 1].first = want[i].first;
		} else
			want[nwant++] = want[i];
	}
	/*
	 * Twice over: the second time every edge is looked up after the
	 * last doubling, and one the table lost would be made again.
	 */
	a = t_agg(p, AGG_FUNCTIONS, 0, 0, -1, 0);
	diag_init(&d, "test");
	CHECK(a != NULL && agg_add(a, p, &src, &d) == 0);
	CHECK_INT(a != NULL ? agg_nedges(a) : 0, nwant);
	got = calloc(nwant + 1, sizeof(*got));
	for (i = 0; a != NULL && i < agg_nedges(a) && i < nwant; i++) {
		const struct agg_edge *e = agg_edge(a, i);

		got[i].caller = strtoul(agg_node(a, e->caller)->name + 1,
		    NULL, 10);
		got[i].callee = strtoul(agg_node(a, e->callee)->name + 1,
		    NULL, 10);
		got[i].w = e->w / 2;
		w = bsearch(&got[i], want, nwant, sizeof(*want), tedge_cmp);
		if (w == NULL || w->first < first)
			bad++;
		else
			first = w->first;
	}
	qsort(got, i, sizeof(*got), tedge_cmp);
	for (j = 0; j < i; j++)
		if (tedge_cmp(&got[j], &want[j]) != 0 || got[j].w != want[j].w)
			bad++;
	CHECK_INT(bad, 0);
	free(want);
	free(got);
	agg_free(a);
	profile_free(p);
}

/* Samples the keep mask leaves out count in the totals, in no node. */
static void
test_keep(void)
{
	static const unsigned char keep[] = { 1, 0, 1, 1 };
	struct profile		*p;
	struct pf_location	*lm, *la, *lb;
	struct agg_opts		 o = { .gran = AGG_FUNCTIONS };
	struct agg_src		 src = { .value_index = 0,
	    .count_index = -1, .count_divisor = 0, .keep = keep };
	struct diag		 d;
	struct agg		*a;

	p = t_new(1, "samples", "count");
	lm = t_loc(p, NULL, 0x10, 1, t_fn(p, "main", ""), 0);
	la = t_loc(p, NULL, 0x20, 1, t_fn(p, "a", ""), 0);
	lb = t_loc(p, NULL, 0x30, 1, t_fn(p, "b", ""), 0);
	t_sample(p, (int64_t[]){ 1 }, 2, la, lm);
	t_sample(p, (int64_t[]){ 2 }, 2, lb, lm);
	t_sample(p, (int64_t[]){ 4 }, 3, la, lb, lm);
	t_sample(p, (int64_t[]){ 0 }, 2, lb, lm);
	diag_init(&d, "test");
	a = agg_new(&o);
	CHECK_INT(agg_add(a, p, &src, &d), 0);
	CHECK_INT(node(a, "a")->flat[AGG_VALUE], 5);
	CHECK_INT(node(a, "main")->cum[AGG_VALUE], 5);
	CHECK_INT(node(a, "b")->cum[AGG_VALUE], 4);
	CHECK_INT(node(a, "b")->flat[AGG_VALUE], 0);
	CHECK_INT(agg_total(a, AGG_VALUE), 7);
	CHECK_INT(agg_nsamples(a), 3);
	agg_free(a);
	profile_free(p);
}

/* The tree node for a path of names from a root, or NULL. */
static const struct agg_tnode *
tpath(const struct agg *a, int n, ...)
{
	const struct agg_tnode	*t = NULL;
	size_t			 parent = AGG_ROOT, i;
	va_list			 ap;
	const char		*name;

	va_start(ap, n);
	while (n-- > 0) {
		name = va_arg(ap, const char *);
		for (i = 0, t = NULL; i < agg_ntree(a); i++)
			if (agg_tree(a, i)->parent == parent &&
			    strcmp(agg_node(a, agg_tree(a, i)->node)->name,
			    name) == 0) {
				t = agg_tree(a, i);
				break;
			}
		if (t == NULL)
			break;
		parent = i;
	}
	va_end(ap);
	return t;
}

/*
 * The calling-context tree keeps paths apart that the graph joins: b
 * called from main and from a is one node but two tree nodes, and a
 * recursion nests.
 */
static void
test_tree(void)
{
	struct profile		*p;
	struct pf_location	*lm, *la, *lb;
	struct agg_opts		 o = { .gran = AGG_FUNCTIONS, .tree = 1 };
	struct agg_src		 src = { .value_index = 0,
	    .count_index = 0, .count_divisor = 0, .keep = NULL };
	struct diag		 d;
	struct agg		*a, *c;
	size_t			 i;

	p = t_new(1, "samples", "count");
	lm = t_loc(p, NULL, 0x10, 1, t_fn(p, "main", ""), 0);
	la = t_loc(p, NULL, 0x20, 1, t_fn(p, "a", ""), 0);
	lb = t_loc(p, NULL, 0x30, 1, t_fn(p, "b", ""), 0);
	t_sample(p, (int64_t[]){ 1 }, 2, lb, lm);
	t_sample(p, (int64_t[]){ 2 }, 3, lb, la, lm);
	t_sample(p, (int64_t[]){ 4 }, 2, la, lm);
	t_sample(p, (int64_t[]){ 8 }, 3, la, la, lm);
	diag_init(&d, "test");
	a = agg_new(&o);
	CHECK_INT(agg_add(a, p, &src, &d), 0);
	CHECK_INT(agg_ntree(a), 5);
	CHECK_INT(tpath(a, 1, "main")->cum[AGG_VALUE], 15);
	CHECK_INT(tpath(a, 1, "main")->flat[AGG_VALUE], 0);
	CHECK_INT(tpath(a, 2, "main", "b")->cum[AGG_VALUE], 1);
	CHECK_INT(tpath(a, 2, "main", "b")->flat[AGG_VALUE], 1);
	CHECK_INT(tpath(a, 2, "main", "a")->cum[AGG_VALUE], 14);
	CHECK_INT(tpath(a, 2, "main", "a")->flat[AGG_VALUE], 4);
	CHECK_INT(tpath(a, 3, "main", "a", "b")->flat[AGG_VALUE], 2);
	CHECK_INT(tpath(a, 3, "main", "a", "a")->cum[AGG_VALUE], 8);
	CHECK_INT(tpath(a, 3, "main", "a", "a")->flat[AGG_COUNT], 8);
	/* The graph counts the recursion once. */
	CHECK_INT(node(a, "a")->cum[AGG_VALUE], 14);
	/* Parents come first; a copy has the same tree. */
	for (i = 0; i < agg_ntree(a); i++)
		CHECK(agg_tree(a, i)->parent == AGG_ROOT ||
		    agg_tree(a, i)->parent < i);
	c = agg_dup(a);
	CHECK_INT(agg_add(c, p, &src, &d), 0);
	CHECK_INT(agg_ntree(c), 5);
	CHECK_INT(tpath(c, 2, "main", "a")->cum[AGG_VALUE], 28);
	CHECK_INT(tpath(a, 2, "main", "a")->cum[AGG_VALUE], 14);
	agg_free(c);
	agg_free(a);
	/* No tree unless asked for. */
	o.tree = 0;
	a = agg_new(&o);
	CHECK_INT(agg_add(a, p, &src, &d), 0);
	CHECK_INT(agg_ntree(a), 0);
	CHECK(agg_tree(a, 0) == NULL);
	agg_free(a);
	profile_free(p);
}

/*
 * --by-label: a node per value; a sample with two values of the key
 * counts in both, once each; samples without it go to "KEY unset";
 * numeric values print in their unit.
 */
static void
test_by_label(void)
{
	struct profile		*p;
	struct pf_location	*lm;
	struct pf_sample	*s;
	struct agg_opts		 o = { .gran = AGG_FUNCTIONS,
				    .label_key = "ep" };
	struct agg_src		 src = { .value_index = 0,
	    .count_index = -1, .count_divisor = 0, .keep = NULL };
	struct diag		 d;
	struct agg		*a;

	p = t_new(1, "samples", "count");
	lm = t_loc(p, NULL, 0x10, 1, t_fn(p, "main", ""), 0);
	t_sample(p, (int64_t[]){ 1 }, 1, lm);
	t_sample(p, (int64_t[]){ 2 }, 1, lm);
	t_sample(p, (int64_t[]){ 4 }, 1, lm);
	t_sample(p, (int64_t[]){ 8 }, 1, lm);
	s = &p->samples[0];
	s->labels = arena_calloc(p->arena, 2, sizeof(*s->labels));
	s->labels[0] = (struct pf_label){ "ep", "/a", 0, "" };
	s->labels[1] = (struct pf_label){ "other", "x", 0, "" };
	s->nlabels = 2;
	s = &p->samples[1];
	s->labels = arena_calloc(p->arena, 3, sizeof(*s->labels));
	s->labels[0] = (struct pf_label){ "ep", "/a", 0, "" };
	s->labels[1] = (struct pf_label){ "ep", "/b", 0, "" };
	s->labels[2] = (struct pf_label){ "ep", "/a", 0, "" };
	s->nlabels = 3;
	s = &p->samples[2];
	s->labels = arena_calloc(p->arena, 1, sizeof(*s->labels));
	s->labels[0] = (struct pf_label){ "ep", NULL, 2048, "bytes" };
	s->nlabels = 1;
	diag_init(&d, "test");
	a = agg_new(&o);
	CHECK_INT(agg_add(a, p, &src, &d), 0);
	CHECK_INT(agg_nnodes(a), 4);
	CHECK_INT(node(a, "ep=/a")->cum[AGG_VALUE], 3);
	CHECK_INT(node(a, "ep=/a")->flat[AGG_VALUE], 3);
	CHECK_INT(node(a, "ep=/b")->cum[AGG_VALUE], 2);
	CHECK_INT(node(a, "ep=2kB")->cum[AGG_VALUE], 4);
	CHECK_INT(node(a, "ep unset")->cum[AGG_VALUE], 8);
	CHECK_INT(agg_nedges(a), 0);
	CHECK_INT(agg_total(a, AGG_VALUE), 15);
	agg_free(a);
	profile_free(p);
}

static void
test_gran_names(void)
{
	CHECK_INT(agg_gran_parse("functions"), AGG_FUNCTIONS);
	CHECK_INT(agg_gran_parse("filefunctions"), AGG_FILEFUNCTIONS);
	CHECK_INT(agg_gran_parse("files"), AGG_FILES);
	CHECK_INT(agg_gran_parse("lines"), AGG_LINES);
	CHECK_INT(agg_gran_parse("addresses"), AGG_ADDRESSES);
	CHECK_INT(agg_gran_parse("function"), -1);
	CHECK_INT(agg_gran_parse(""), -1);
	CHECK_STR(agg_gran_name(AGG_LINES), "lines");
	CHECK(agg_gran_name((enum agg_gran)99) == NULL);
}

/*
 * What a second profile added to an agg (agg_mark, agg_since) is what
 * that profile folded alone gives, node by node, recursion and all.
 */
static void
test_since(void)
{
	static const char *const s1[] = { "main;a", "main;a;b" },
	    *const s2[] = { "main;a;c;a", "main;c" };
	static const int64_t c1[] = { 3, 5 }, c2[] = { 7, 2 };
	struct profile		*p1, *p2;
	struct agg_opts		 o = { .gran = AGG_FUNCTIONS };
	struct agg_src		 src = { .value_index = 0,
	    .count_index = 0, .count_divisor = 0, .keep = NULL };
	struct agg_mark		*m;
	struct diag		 d;
	struct agg		*a, *alone, *since;
	const char		*names[] = { "main", "a", "b", "c" };
	size_t			 i;
	int			 c;

	p1 = t_build(s1, c1, 2);
	p2 = t_build(s2, c2, 2);
	diag_init(&d, "test");
	a = agg_new(&o);
	alone = agg_new(&o);
	CHECK_INT(agg_add(a, p1, &src, &d), 0);
	m = agg_mark(a);
	CHECK_INT(agg_add(a, p2, &src, &d), 0);
	CHECK_INT(agg_add(alone, p2, &src, &d), 0);
	since = agg_since(a, m);
	agg_mark_free(m);
	for (i = 0; i < 4; i++) {
		long x = agg_find(since, names[i]), y = agg_find(alone,
		    names[i]);

		CHECK_INT(x >= 0, y >= 0);
		if (x < 0 || y < 0)
			continue;
		for (c = 0; c < AGG_NCOLS; c++) {
			CHECK_INT(agg_node(since, (size_t)x)->flat[c],
			    agg_node(alone, (size_t)y)->flat[c]);
			CHECK_INT(agg_node(since, (size_t)x)->cum[c],
			    agg_node(alone, (size_t)y)->cum[c]);
		}
	}
	CHECK_INT(agg_nnodes(since), 3);	/* b is not in p2 */
	CHECK_INT(agg_total(since, AGG_VALUE), 9);
	CHECK_INT(agg_total(since, AGG_COUNT), agg_total(alone, AGG_COUNT));
	CHECK_INT(agg_nsamples(since), 2);
	CHECK_INT(agg_nedges(since), 0);
	agg_free(since);
	agg_free(alone);
	agg_free(a);
	profile_free(p1);
	profile_free(p2);
}

int
main(void)
{
	size_t i;

	test_plain();
	test_recursion();
	test_inline();
	test_names();
	test_unsymbolized();
	test_sample_types();
	test_negative();
	test_merge();
	test_overflow();
	test_bad_request();
	test_drop_frames();
	test_mapping_merge();
	test_mapping_merge_profiles();
	test_empty_stack();
	test_many();
	test_edges_brute(6, 12, 12345);
	test_edges_brute(150, 2000, 54321);
	for (i = 0; i < 40; i++)
		test_edges_grow(i, 500 + 400 * i);
	test_keep();
	test_since();
	test_tree();
	test_by_label();
	test_gran_names();
	return tap_done();
}

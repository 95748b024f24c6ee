/*
 * Tests of the sample counts recovered from scaled estimates (agg.h,
 * enum agg_unsample; facts.c, facts_count_source() and count_note())
 * and of the second moments the agg keeps with agg_opts.moments.
 * Profiles are built by hand, scaled as Go's runtime/pprof and V8 scale
 * them (scaleHeapSample() truncates, SamplingHeapProfiler::ScaleSample()
 * rounds the count); the real Go profiles of tests/data/corpus are read
 * as well, and each recovered count must map back to the file's count
 * under Go's own scaling.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "support/arena.h"
#include "support/diag.h"
#include "core/facts.h"
#include "input/input.h"
#include "model/profile.h"
#include "stats/stats.h"
#include "tap.h"
#include "tprofile.h"

#define RATE	524288		/* Go's default MemProfileRate */

/* A small deterministic generator (xorshift64*), for the grids. */
static uint64_t rng = 88172645463325252ULL;

static double
unif(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717ULL) >> 11) /
	    9007199254740992.0;
}

/* What Go writes for n sampled objects of s bytes in all. */
static void
go_scale(int64_t n, int64_t s, int64_t rate, int64_t *count, int64_t *bytes)
{
	double	 avg = (double)s / (double)n;
	double	 k = 1 / (1 - exp(-avg / (double)rate));

	*count = (int64_t)((double)n * k);
	*bytes = (int64_t)((double)s * k);
}

/* Go's scaling inverted over a grid of counts and sizes, and two rates. */
static void
test_go_inverse(void)
{
	static const int64_t rates[] = { 4096, RATE, 8 * 1024 * 1024 };
	int64_t		 n, s, c, b, got;
	size_t		 r;
	long		 tried = 0, wrong = 0;
	int		 t;

	for (r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		for (n = 1; n <= 3000; n += n < 100 ? 1 : 37)
			for (t = 0; t < 60; t++) {
				/* average sizes from 8 bytes to 64 MB */
				s = (int64_t)((double)n * exp(log(8) + unif() *
				    (log(64e6) - log(8))));
				go_scale(n, s, rates[r], &c, &b);
				if (c == 0)
					continue;
				tried++;
				got = agg_unsample(AGG_UNSAMPLE_TRUNC, c, b,
				    rates[r]);
				if (got != n && wrong++ < 5)
					printf("# n %lld s %lld: %lld\n",
					    (long long)n, (long long)s,
					    (long long)got);
			}
	CHECK(tried > 30000);
	CHECK_INT(wrong, 0);

	/* a difference of two profiles: negative pairs, mixed signs */
	go_scale(7, 7 * 300, RATE, &c, &b);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_TRUNC, c, b, RATE), 7);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_TRUNC, -c, -b, RATE), -7);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_TRUNC, c, -b, RATE), c);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_TRUNC, c, 0, RATE), c);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_TRUNC, 0, b, RATE), 0);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_TRUNC, INT64_MIN, b, RATE),
	    INT64_MIN);
	/* rate 1: Go did not scale */
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_TRUNC, c, b, 1), c);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_NONE, c, b, RATE), c);
	/* never below 1, never above the count */
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_TRUNC, 1, 1, RATE), 1);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_TRUNC, 3, INT64_MAX, RATE), 3);
}

/* V8 rounds the count of one allocation size; the bytes are size * it. */
static void
test_v8_inverse(void)
{
	int64_t		 n, size, c, got;
	long		 tried = 0, wrong = 0;
	double		 k;
	int		 t;

	for (n = 1; n <= 3000; n += n < 100 ? 1 : 53)
		for (t = 0; t < 40; t++) {
			size = (int64_t)exp(log(8) + unif() * (log(4e6) -
			    log(8)));
			k = 1 / (1 - exp(-(double)size / RATE));
			c = (int64_t)((double)n * k + 0.5);
			tried++;
			got = agg_unsample(AGG_UNSAMPLE_ROUND, c, size * c,
			    RATE);
			if (got != n && wrong++ < 5)
				printf("# n %lld size %lld: %lld\n",
				    (long long)n, (long long)size,
				    (long long)got);
		}
	CHECK(tried > 5000);
	CHECK_INT(wrong, 0);
}

/* Contentions times a period, as pprof converts legacy profiles. */
static void
test_div(void)
{
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_DIV, 35 * 100, 0, 100), 35);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_DIV, 37, 0, 5), 7);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_DIV, 38, 0, 5), 8);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_DIV, -38, 0, 5), -8);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_DIV, 5, 0, 10), 1);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_DIV, 4, 0, 10), 0);
	CHECK_INT(agg_unsample(AGG_UNSAMPLE_DIV, INT64_MAX, 0, INT64_MAX), 1);
}

/* A Go heap profile's header: four sample types, 1 sample per 512 KiB. */
static struct profile *
heap_profile(void)
{
	struct profile	*p = t_new(4, "alloc_objects", "count", "alloc_space",
	    "bytes", "inuse_objects", "count", "inuse_space", "bytes");

	p->period_type.type = "space";
	p->period_type.unit = "bytes";
	p->period = RATE;
	return p;
}

static void
test_source(void)
{
	struct profile	*p = heap_profile();
	struct agg_src	 src;
	struct facts	 f;
	const char	*why;
	int		 vi;

	for (vi = 0; vi < 4; vi++) {
		facts_count_source(p, vi, &src, &why);
		CHECK_INT(src.unsample, AGG_UNSAMPLE_TRUNC);
		CHECK_INT(src.count_index, -1);
		CHECK_INT(src.un_count, vi < 2 ? 0 : 2);
		CHECK_INT(src.un_bytes, vi < 2 ? 1 : 3);
		CHECK_INT(src.un_rate, RATE);
		CHECK_STR(why, "samples recovered from objects and bytes");
	}
	CHECK(facts_compute(p, 1, &f) == 0);
	CHECK(f.counts_recovered && !f.counts_scaled);
	CHECK_STR(f.count_type, "alloc_objects");
	CHECK_STR(f.count_note, "sample counts recovered from alloc_objects "
	    "and alloc_space at 1 sample per 512 KiB, undoing Go's scaling");
	CHECK(facts_compute(p, 3, &f) == 0);
	CHECK_STR(f.count_note, "sample counts recovered from inuse_objects "
	    "and inuse_space at 1 sample per 512 KiB, undoing Go's scaling");

	/* MemProfileRate 1: nothing was scaled, nothing to say */
	p->period = 1;
	facts_count_source(p, 1, &src, &why);
	CHECK_INT(src.unsample, AGG_UNSAMPLE_NONE);
	CHECK_INT(src.count_index, 0);
	CHECK(facts_compute(p, 1, &f) == 0);
	CHECK(!f.counts_recovered && !f.counts_scaled);
	CHECK_STR(f.count_note, "");
	profile_free(p);

	/* V8 (Node.js): objects and space, no prefix; rounded */
	p = t_new(2, "objects", "count", "space", "bytes");
	p->period_type.type = "space";
	p->period_type.unit = "bytes";
	p->period = 4 * 1024 * 1024;
	facts_count_source(p, 1, &src, &why);
	CHECK_INT(src.unsample, AGG_UNSAMPLE_ROUND);
	CHECK_INT(src.un_count, 0);
	CHECK_INT(src.un_bytes, 1);
	CHECK(facts_compute(p, 1, &f) == 0);
	CHECK_STR(f.count_note, "sample counts recovered from objects and "
	    "space at 1 sample per 4 MiB, undoing V8's scaling; but V8's heap "
	    "profile holds what was alive when it was taken, uncollected "
	    "garbage among it, which varies between processes by more than "
	    "these counts show");
	/* A live snapshot: the test is approximate with one a side. */
	CHECK(f.counts_recovered && f.counts_scaled);

	/* @datadog/pprof: inuse_objects/inuse_space, period inuse_space */
	p->sample_types[0].type = "inuse_objects";
	p->sample_types[1].type = "inuse_space";
	p->period_type.type = "inuse_space";
	facts_count_source(p, 1, &src, &why);
	CHECK_INT(src.unsample, AGG_UNSAMPLE_ROUND);
	p->sample_types[0].type = "objects";
	p->sample_types[1].type = "space";
	p->period_type.type = "space";

	/* a pair that is no Go or V8 pair: estimates, not recovered */
	p->sample_types[1].type = "size";
	facts_count_source(p, 1, &src, &why);
	CHECK_INT(src.unsample, AGG_UNSAMPLE_NONE);
	CHECK_INT(src.count_index, 0);
	CHECK(facts_compute(p, 1, &f) == 0);
	CHECK(f.counts_scaled && !f.counts_recovered);
	CHECK(strstr(f.count_note, "the objects counts are estimates") ==
	    f.count_note);
	CHECK(strstr(f.count_note, "the test is approximate") != NULL);
	/* "xobjects" is not "objects" behind a prefix */
	p->sample_types[0].type = "xobjects";
	p->sample_types[1].type = "xspace";
	facts_count_source(p, 1, &src, &why);
	CHECK_INT(src.unsample, AGG_UNSAMPLE_NONE);
	profile_free(p);

	/* contentions * period (pprof's legacy contention profiles) */
	p = t_new(2, "contentions", "count", "delay", "nanoseconds");
	p->period_type.type = "contentions";
	p->period_type.unit = "count";
	p->period = 100;
	facts_count_source(p, 1, &src, &why);
	CHECK_INT(src.unsample, AGG_UNSAMPLE_DIV);
	CHECK_INT(src.un_count, 0);
	CHECK_INT(src.un_rate, 100);
	CHECK(facts_compute(p, 1, &f) == 0);
	CHECK_STR(f.count_note, "sample counts recovered as contentions / "
	    "100, the sampling period");
	/* Go's mutex and block profiles: period 1, nothing in the file */
	p->period = 1;
	facts_count_source(p, 1, &src, &why);
	CHECK_INT(src.unsample, AGG_UNSAMPLE_NONE);
	CHECK_INT(src.count_index, 0);
	CHECK(facts_compute(p, 0, &f) == 0);
	CHECK(f.counts_scaled && !f.counts_recovered);
	CHECK(strstr(f.count_note, "the contentions counts may be estimates")
	    == f.count_note);
	CHECK(strstr(f.count_note, "the file records neither") != NULL);
	profile_free(p);

	/* a CPU profile says nothing */
	{
		static const char *const st[] = { "a;b" };
		static const int64_t c[] = { 3 };

		p = t_build(st, c, 1);
		CHECK(facts_compute(p, 1, &f) == 0);
		CHECK_STR(f.count_note, "");
		CHECK(!f.counts_scaled && !f.counts_recovered);
		profile_free(p);
	}
}

/*
 * Value / period is checked on the samples: one under the period is no
 * whole number of periods (a JFR conversion's 10ms samples at a period
 * of 1s), and then the count is unknown; one over it is kept.  A chosen
 * type of zeros names the types that have values.
 */
static void
test_subperiod_empty(void)
{
	struct profile	*p = t_new(1, "cpu", "nanoseconds");
	struct pf_function *fa = t_fn(p, "main.a", "a.go");
	struct pf_location *la = t_loc(p, NULL, 0x10, 1, fa, 1);
	struct facts	 f;
	int64_t		 v[3];

	p->period_type.type = "cpu";
	p->period_type.unit = "nanoseconds";
	p->period = 1000000000;
	v[0] = 1500000000;
	t_sample(p, v, 1, la);
	CHECK(facts_compute(p, 0, &f) == 0);
	CHECK_INT(f.samples, 1);
	CHECK_INT(f.subperiod, 0);
	CHECK_STR(f.count_source, "value / period");
	v[0] = 10000000;
	t_sample(p, v, 1, la);
	t_sample(p, v, 1, la);
	CHECK(facts_compute(p, 0, &f) == 0);
	CHECK_INT(f.subperiod, 2);
	CHECK_INT(f.samples, -1);
	CHECK(f.count_source == NULL);
	CHECK(!f.empty);
	profile_free(p);

	/* .NET: the last type, pprof's default, is all zero */
	p = t_new(3, "cpu", "nanoseconds", "alloc_size", "bytes",
	    "lock_time", "nanoseconds");
	fa = t_fn(p, "main.a", "a.go");
	la = t_loc(p, NULL, 0x10, 1, fa, 1);
	v[0] = 5;
	v[1] = 0;
	v[2] = 0;
	t_sample(p, v, 1, la);
	v[1] = 7;
	t_sample(p, v, 1, la);
	CHECK(facts_compute(p, 2, &f) == 0);
	CHECK(f.empty);
	CHECK_STR(f.others, "cpu and alloc_size");
	CHECK(facts_compute(p, 1, &f) == 0);
	CHECK(!f.empty);
	CHECK_STR(f.others, "");
	profile_free(p);
}

/*
 * Known sampled counts, scaled as Go scales them, folded: the nodes and
 * the facts hold the counts sampled, and the agg's check refuses
 * recovery from sample types the profile does not have.
 */
static void
test_fold(void)
{
	static const int64_t n[] = { 3, 1, 10, 250 };
	static const int64_t sz[] = { 64, 1 << 20, 4096, 24 };
	struct profile	*p = heap_profile();
	struct pf_function *fa = t_fn(p, "main.a", "a.go");
	struct pf_function *fb = t_fn(p, "main.b", "b.go");
	struct pf_location *la = t_loc(p, NULL, 0x10, 1, fa, 1);
	struct pf_location *lb = t_loc(p, NULL, 0x20, 1, fb, 2);
	struct agg_opts	 o = { .gran = AGG_FUNCTIONS };
	struct agg_src	 src;
	struct facts	 f;
	struct diag	 d;
	struct agg	*a;
	const char	*why;
	int64_t		 v[4], want = 0;
	size_t		 i;
	long		 ia, ib;

	for (i = 0; i < 4; i++) {
		go_scale(n[i], n[i] * sz[i], RATE, &v[0], &v[1]);
		go_scale(n[i], n[i] * sz[i], RATE, &v[2], &v[3]);
		if (i % 2 == 0)
			t_sample(p, v, 2, la, lb);	/* a called by b */
		else
			t_sample(p, v, 1, lb);
		want += n[i];
	}
	CHECK(facts_compute(p, 1, &f) == 0);
	CHECK_INT(f.samples, want);
	facts_count_source(p, 1, &src, &why);
	diag_init(&d, "test");
	a = agg_new(&o);
	CHECK(agg_add(a, p, &src, &d) == 0);
	CHECK_INT(agg_total(a, AGG_COUNT), want);
	ia = agg_find(a, "main.a");
	ib = agg_find(a, "main.b");
	CHECK(ia >= 0 && ib >= 0);
	if (ia >= 0 && ib >= 0) {
		CHECK_INT(agg_node(a, ia)->flat[AGG_COUNT], n[0] + n[2]);
		CHECK_INT(agg_node(a, ib)->flat[AGG_COUNT], n[1] + n[3]);
		CHECK_INT(agg_node(a, ib)->cum[AGG_COUNT], want);
	}
	agg_free(a);

	src.un_bytes = 4;
	a = agg_new(&o);
	CHECK(agg_add(a, p, &src, &d) == -1);
	CHECK(strstr(d.msg, "count recovery") != NULL);
	agg_free(a);
	profile_free(p);
}

/*
 * The real Go heap profiles of the corpus: every recovered count is a
 * whole number of samples, 1 to the file's count, that Go's scaling at
 * the file's average size maps back to the file's count exactly.
 */
static void
test_real(void)
{
	static const char *const files[] = {
		"tests/data/corpus/go-heap-before.pb",
		"tests/data/corpus/go-heap-after.pb",
		"tests/data/corpus/go-heap-series-t0.pb.gz",
		"tests/data/corpus/go-heap-series-t9.pb.gz",
		"tests/data/corpus/edge-go-heap-nomappings.pb.gz",
	};
	struct profile	*p;
	struct agg_src	 src;
	struct facts	 f;
	struct diag	 d;
	const char	*why;
	size_t		 k, i;
	int		 vi;

	for (k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		diag_init(&d, files[k]);
		p = pprof_load(files[k], NULL, &d);
		CHECK(p != NULL);
		if (p == NULL) {
			printf("# %s: %s\n", files[k], d.msg);
			continue;
		}
		for (vi = 0; vi < 4; vi += 3) {
			int64_t	 c, b, n, back, scaled = 0, sum = 0;
			long	 bad = 0;

			facts_count_source(p, vi, &src, &why);
			CHECK_INT(src.unsample, AGG_UNSAMPLE_TRUNC);
			for (i = 0; i < p->nsamples; i++) {
				c = p->samples[i].values[src.un_count];
				b = p->samples[i].values[src.un_bytes];
				n = agg_sample_count(&src,
				    p->samples[i].values);
				scaled += c;
				sum += n;
				if (c == 0)
					continue;
				go_scale(n, (int64_t)((double)n * b / c),
				    RATE, &back, &b);
				if (n < 1 || n > c || back != c)
					bad++;
			}
			CHECK_INT(bad, 0);
			CHECK(facts_compute(p, vi, &f) == 0);
			CHECK_INT(f.samples, sum);
			CHECK(sum > 0 && sum <= scaled);
			printf("# %s %s: %lld scaled, %lld sampled\n",
			    files[k], p->sample_types[vi].type,
			    (long long)scaled, (long long)sum);
		}
		profile_free(p);
	}

	/* Go's block profile: nothing recovered, and it says so */
	diag_init(&d, "go-block-before.pb");
	p = pprof_load("tests/data/corpus/go-block-before.pb", NULL, &d);
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK(facts_compute(p, 1, &f) == 0);
		CHECK(f.counts_scaled && !f.counts_recovered);
		CHECK(strstr(f.count_note, "approximate") != NULL);
		profile_free(p);
	}
}

/* Moments of one node, flat or cum, by name. */
static struct agg_moments
mom(const struct agg *a, const char *name, int cum)
{
	struct agg_moments	 fm, cm, none = { -1, -1, -1, -1 };
	long			 i = agg_find(a, name);

	if (i < 0 || agg_moments(a, (size_t)i, &fm, &cm) == -1)
		return none;
	return cum ? cm : fm;
}

/*
 * Second moments on a CPU profile: a sample of k samples of 10ms is k
 * events of 10ms each, so vv = k * 1e14, vc = the value, cc = k; cum
 * counts a sample once on a recursive stack.
 */
static void
test_moments(void)
{
	static const char *const st[] = { "a;b;c", "a;b", "a;c;a" };
	static const int64_t cn[] = { 2, 1, 3 };
	struct profile	*p = t_build(st, cn, 3), *q;
	struct agg_opts	 o = { .gran = AGG_FUNCTIONS, .moments = 1 };
	struct agg_opts	 off = { .gran = AGG_FUNCTIONS };
	struct agg_moments m, fm;
	struct agg_mark	*mk;
	struct agg_src	 src;
	struct diag	 d;
	struct agg	*a, *b, *c;
	const char	*why;

	facts_count_source(p, 1, &src, &why);
	diag_init(&d, "test");
	a = agg_new(&o);
	CHECK(agg_add(a, p, &src, &d) == 0);
	CHECK_NEAR(mom(a, "a", 1).vv, 6e14, 1);
	CHECK_NEAR(mom(a, "a", 0).vv, 3e14, 1);
	CHECK_NEAR(mom(a, "b", 0).vv, 1e14, 1);
	CHECK_NEAR(mom(a, "b", 1).vv, 3e14, 1);
	CHECK_NEAR(mom(a, "c", 0).vv, 2e14, 1);
	CHECK_NEAR(mom(a, "c", 1).vv, 5e14, 1);
	CHECK_NEAR(mom(a, "c", 1).vc, 5e7, 1e-6);
	CHECK_NEAR(mom(a, "c", 1).cc, 5, 1e-9);
	CHECK_NEAR(mom(a, "c", 1).c, 5, 1e-9);
	CHECK_NEAR(mom(a, "a", 0).c, 3, 1e-9);
	CHECK(agg_total_moments(a, &m) == 0);
	CHECK_NEAR(m.vv, 6e14, 1);
	CHECK_NEAR(m.cc, 6, 1e-9);
	CHECK(agg_moments(a, agg_nnodes(a), &fm, &m) == -1);

	/* a copy, and what a second profile added */
	b = agg_dup(a);
	CHECK_NEAR(mom(b, "c", 1).vv, 5e14, 1);
	mk = agg_mark(a);
	q = t_build(st, cn, 2);
	CHECK(agg_add(a, q, &src, &d) == 0);
	CHECK_NEAR(mom(a, "a", 1).vv, 9e14, 1);
	CHECK_NEAR(mom(b, "a", 1).vv, 6e14, 1);
	c = agg_since(a, mk);
	CHECK_NEAR(mom(c, "a", 1).vv, 3e14, 1);
	CHECK_NEAR(mom(c, "c", 0).vv, 2e14, 1);
	CHECK(agg_total_moments(c, &m) == 0);
	CHECK_NEAR(m.vv, 3e14, 1);
	CHECK_NEAR(m.c, 3, 1e-9);
	agg_mark_free(mk);
	agg_free(a);
	agg_free(b);
	agg_free(c);

	/*
	 * Events that are not alike (spread 1, exponential waits): a
	 * sample's vv is the expected sum of its events' squares given
	 * their sum, v^2 (1 + 1) / (n + 1); one event is its own square.
	 */
	src.spread = 1;
	a = agg_new(&o);
	CHECK(agg_add(a, p, &src, &d) == 0);
	CHECK_NEAR(mom(a, "b", 0).vv, 1e14, 1);		/* n = 1 */
	CHECK_NEAR(mom(a, "c", 0).vv, 4e14 * 2 / 3, 1);	/* n = 2 */
	CHECK_NEAR(mom(a, "a", 1).vv, 4e14 * 2 / 3 + 1e14 + 9e14 * 2 / 4, 1);
	CHECK_NEAR(mom(a, "a", 1).vc, 6e7, 1e-6);	/* as when alike */
	CHECK_NEAR(mom(a, "a", 1).cc, 6, 1e-9);
	agg_free(a);
	src.spread = 0;

	/* off by default */
	a = agg_new(&off);
	CHECK(agg_add(a, p, &src, &d) == 0);
	CHECK(agg_moments(a, 0, &fm, &m) == -1);
	CHECK(agg_total_moments(a, &m) == -1);
	agg_free(a);

	/* a sample a filter drops counts in the totals only */
	{
		struct agg_run	*r;

		a = agg_new(&o);
		r = agg_begin(a, p, &src, &d);
		CHECK(r != NULL);
		CHECK(agg_sample(r, &p->samples[0], 0, &d) == 0);
		CHECK(agg_sample(r, &p->samples[1], 1, &d) == 0);
		agg_end(r);
		CHECK(agg_total_moments(a, &m) == 0);
		CHECK_NEAR(m.vv, 3e14, 1);
		CHECK_NEAR(mom(a, "a", 1).vv, 1e14, 1);
		CHECK(agg_find(a, "c") < 0);
		agg_free(a);
	}
	profile_free(q);
	profile_free(p);
}

/*
 * Moments of a heap profile whose counts are recovered: a sample of n
 * sampled objects is n events, each a 1/n of its bytes and objects.
 * And by label: a label's node takes the sample's in flat and cum.
 */
static void
test_moments_heap(void)
{
	struct profile	*p = heap_profile();
	struct pf_function *fa = t_fn(p, "main.a", "a.go");
	struct pf_location *la = t_loc(p, NULL, 0x10, 1, fa, 1);
	struct agg_opts	 o = { .gran = AGG_FUNCTIONS, .moments = 1 };
	struct agg_moments m;
	struct agg_src	 src;
	struct diag	 d;
	struct agg	*a;
	const char	*why;
	int64_t		 v[4];
	double		 b, c;

	go_scale(4, 4 * 1000, RATE, &v[0], &v[1]);
	v[2] = v[0];
	v[3] = v[1];
	t_sample(p, v, 1, la);
	t_labels(p, &p->samples[0], 1, "bytes", (const char *)NULL,
	    (int64_t)1000, "bytes");
	facts_count_source(p, 1, &src, &why);
	diag_init(&d, "test");
	a = agg_new(&o);
	CHECK(agg_add(a, p, &src, &d) == 0);
	CHECK_INT(agg_total(a, AGG_COUNT), 4);
	b = (double)v[1];
	c = (double)v[0];
	m = mom(a, "main.a", 0);
	CHECK_NEAR(m.vv / (b * b / 4), 1, 1e-12);
	CHECK_NEAR(m.vc / (b * c / 4), 1, 1e-12);
	CHECK_NEAR(m.cc / (c * c / 4), 1, 1e-12);
	CHECK_NEAR(m.c, c, 0);
	{
		/* bytes per object, as item 6 of issue 18 reads it */
		struct stats_vsum vs = {
		    (double)agg_node(a, 0)->flat[AGG_VALUE], m.c, m.vv, m.vc,
		    m.cc };
		struct stats_vci ci;

		CHECK(stats_vratio(&vs, 0.05, &ci) == 0);
		CHECK_NEAR(ci.est, b / c, 1e-12);
		CHECK(ci.lo <= ci.est && ci.est <= ci.hi);
	}
	agg_free(a);

	o.label_key = "bytes";
	a = agg_new(&o);
	CHECK(agg_add(a, p, &src, &d) == 0);
	CHECK(agg_nnodes(a) == 1);
	CHECK_NEAR(mom(a, agg_node(a, 0)->name, 0).vv / (b * b / 4), 1,
	    1e-12);
	CHECK_NEAR(mom(a, agg_node(a, 0)->name, 1).vv / (b * b / 4), 1,
	    1e-12);
	agg_free(a);
	profile_free(p);
}

int
main(void)
{
	test_go_inverse();
	test_v8_inverse();
	test_div();
	test_source();
	test_subperiod_empty();
	test_fold();
	test_real();
	test_moments();
	test_moments_heap();
	return tap_done();
}

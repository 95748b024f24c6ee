/*
 * The sample filters on a hand-built profile whose answer is known: which
 * samples each option keeps, how --hide and --show rewrite the stacks,
 * the label filters with regular expressions and numeric ranges, and
 * --relative removing what is dropped.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "core/filter.h"
#include "model/profile.h"
#include "tap.h"
#include "tprofile.h"

/*
 * Five samples, leaf first:
 *	0  v=10  sort.Slice <- handler <- main            ep=/a
 *	1  v=20  runtime.mallocgc <- [helper inlined in handler] <- main
 *	                                                  ep=/b bytes=2048
 *	2  v=30  main                                     code="200"
 *	3  v=40  (no frames)
 *	4  v=5   runtime.mallocgc                         bytes=100
 */
static struct profile *
fixture(void)
{
	struct profile		*p;
	struct pf_function	*fmain, *fhandler, *fsort, *fmalloc, *fhelper;
	struct pf_location	*lmain, *lhandler, *lsort, *lmalloc, *linl;

	p = t_new(1, "samples", "count");
	fmain = t_fn(p, "main", "/src/app/main.go");
	fhandler = t_fn(p, "handler", "/src/app/handler.go");
	fsort = t_fn(p, "sort.Slice", "/usr/lib/go/src/sort/slice.go");
	fmalloc = t_fn(p, "runtime.mallocgc", "/usr/lib/go/src/runtime/malloc.go");
	fhelper = t_fn(p, "helper", "/src/app/handler.go");
	lmain = t_loc(p, NULL, 0x10, 1, fmain, 3);
	lhandler = t_loc(p, NULL, 0x20, 1, fhandler, 7);
	lsort = t_loc(p, NULL, 0x30, 1, fsort, 11);
	lmalloc = t_loc(p, NULL, 0x40, 1, fmalloc, 13);
	linl = t_loc(p, NULL, 0x50, 2, fhelper, 17, fhandler, 19);
	t_sample(p, (int64_t[]){ 10 }, 3, lsort, lhandler, lmain);
	t_sample(p, (int64_t[]){ 20 }, 3, lmalloc, linl, lmain);
	t_sample(p, (int64_t[]){ 30 }, 1, lmain);
	t_sample(p, (int64_t[]){ 40 }, 0);
	t_sample(p, (int64_t[]){ 5 }, 1, lmalloc);
	t_labels(p, &p->samples[0], 1, "ep", "/a", (int64_t)0, "");
	t_labels(p, &p->samples[1], 2, "ep", "/b", (int64_t)0, "",
	    "bytes", (const char *)NULL, (int64_t)2048, "bytes");
	t_labels(p, &p->samples[2], 1, "code", "200", (int64_t)0, "");
	t_labels(p, &p->samples[4], 1, "bytes", (const char *)NULL,
	    (int64_t)100, "");
	return p;
}

/*
 * Apply a spec to a fresh fixture; the mask as a string of '0' and '1'
 * ("-" when every sample is kept and no mask was made), and the profile
 * if the caller wants to look at it.
 */
static const char *
run(const struct filter_spec *sp, struct profile **pp,
    struct filter_stats *st)
{
	static char	 out[16];
	static struct diag d;
	struct filter	*f;
	struct profile	*p;
	unsigned char	*keep;
	size_t		 i;

	diag_init(&d, "test");
	memset(st, 0, sizeof(*st));
	if (filter_new(sp, &f, &d) == -1)
		return d.msg;
	p = fixture();
	filter_apply(f, p, &keep, st);
	if (keep == NULL)
		strlcpy(out, "-", sizeof(out));
	else {
		for (i = 0; i < p->nsamples && i + 1 < sizeof(out); i++)
			out[i] = keep[i] ? '1' : '0';
		out[i] = '\0';
	}
	free(keep);
	filter_free(f);
	if (pp != NULL)
		*pp = p;
	else
		profile_free(p);
	return out;
}

static const char *
mask(const struct filter_spec *sp)
{
	struct filter_stats st;

	return run(sp, NULL, &st);
}

static void
test_none(void)
{
	struct filter_spec	 sp;
	struct filter		*f = (struct filter *)&sp;
	struct diag		 d;

	memset(&sp, 0, sizeof(sp));
	diag_init(&d, "test");
	CHECK_INT(filter_new(&sp, &f, &d), 0);
	CHECK(f == NULL);
	CHECK_STR(mask(&sp), "-");
}

static void
test_focus_ignore(void)
{
	struct filter_spec	 sp;
	struct filter_stats	 st;

	memset(&sp, 0, sizeof(sp));
	sp.focus = "sort";
	CHECK_STR(run(&sp, NULL, &st), "10000");
	CHECK_INT(st.samples, 5);
	CHECK_INT(st.kept, 1);
	CHECK_INT(st.focus_hits, 1);
	/* The file name counts too. */
	sp.focus = "handler\\.go$";
	CHECK_STR(mask(&sp), "11000");
	/* An inlined frame counts. */
	sp.focus = "^helper$";
	CHECK_STR(mask(&sp), "01000");
	/* A sample with no frames has none focused: dropped, as in pprof. */
	sp.focus = NULL;
	sp.ignore = "^runtime\\.";
	CHECK_STR(mask(&sp), "10100");
	sp.focus = "main";
	sp.ignore = "sort";
	CHECK_STR(mask(&sp), "01100");
	sp.focus = "nothing matches this";
	sp.ignore = NULL;
	CHECK_STR(run(&sp, NULL, &st), "00000");
	CHECK_INT(st.focus_hits, 0);
}

static void
test_hide_show(void)
{
	struct filter_spec	 sp;
	struct filter_stats	 st;
	struct profile		*p;

	memset(&sp, 0, sizeof(sp));
	/* Hiding an inlined frame leaves its caller in the location. */
	sp.hide = "^helper$";
	CHECK_STR(run(&sp, &p, &st), "11101");
	CHECK_INT(st.hide_hits, 1);
	CHECK_INT(p->samples[1].nlocs, 3);
	CHECK_INT(p->samples[1].locs[1]->nlines, 1);
	CHECK_STR(p->samples[1].locs[1]->lines[0].function->name, "handler");
	profile_free(p);
	/* Hiding main empties sample 2, which is dropped. */
	sp.hide = "^main$";
	CHECK_STR(run(&sp, &p, &st), "11001");
	CHECK_INT(p->samples[0].nlocs, 2);
	CHECK_STR(p->samples[0].locs[1]->lines[0].function->name, "handler");
	profile_free(p);
	/* --show keeps only matching frames, inlined ones included. */
	sp.hide = NULL;
	sp.show = "^(main|handler)$";
	CHECK_STR(run(&sp, &p, &st), "11100");
	CHECK_INT(p->samples[0].nlocs, 2);
	CHECK_STR(p->samples[0].locs[0]->lines[0].function->name, "handler");
	CHECK_INT(p->samples[1].nlocs, 2);
	CHECK_INT(p->samples[1].locs[0]->nlines, 1);
	CHECK_STR(p->samples[1].locs[0]->lines[0].function->name, "handler");
	profile_free(p);
	/* focus sees the frames before --hide removes them. */
	sp.show = NULL;
	sp.focus = "sort";
	sp.hide = "sort";
	CHECK_STR(run(&sp, &p, &st), "10000");
	CHECK_INT(p->samples[0].nlocs, 2);
	profile_free(p);
}

static void
test_tags(void)
{
	struct filter_spec	 sp;
	struct filter_stats	 st;
	char			*tags[2], *ign[1];

	memset(&sp, 0, sizeof(sp));
	sp.tags = tags;
	sp.ntags = 1;
	tags[0] = "ep=/a";
	CHECK_STR(run(&sp, NULL, &st), "10000");
	CHECK_INT(st.tag_hits, 1);
	/* Comma-separated expressions: any may match. */
	tags[0] = "ep=^/a$,^/b$";
	CHECK_STR(mask(&sp), "11000");
	tags[0] = "ep=";
	CHECK_STR(mask(&sp), "11000");
	/* Every --tag must match. */
	tags[1] = "bytes=1kb:4kb";
	sp.ntags = 2;
	CHECK_STR(mask(&sp), "01000");
	tags[0] = "ep=/a";
	CHECK_STR(mask(&sp), "00000");
	sp.ntags = 1;
	/* Numeric ranges, converted to the bound's unit. */
	tags[0] = "bytes=2kb";
	CHECK_STR(mask(&sp), "01000");
	tags[0] = "bytes=2049b:";
	CHECK_STR(mask(&sp), "00000");
	tags[0] = "bytes=:2kb";
	CHECK_STR(mask(&sp), "01001");
	tags[0] = "bytes=1kb:1mb";
	CHECK_STR(mask(&sp), "01000");
	/* No unit: the raw value, whatever the label's unit. */
	tags[0] = "bytes=:100";
	CHECK_STR(mask(&sp), "00001");
	/* A time range never matches a byte count. */
	tags[0] = "bytes=1ms:";
	CHECK_STR(mask(&sp), "00000");
	/* A number matches a string label of the same text. */
	tags[0] = "code=200";
	CHECK_STR(mask(&sp), "00100");
	tags[0] = "code=2";
	CHECK_STR(mask(&sp), "00000");
	/* --tag-ignore drops what any of them matches. */
	sp.ntags = 0;
	sp.tag_ignores = ign;
	sp.ntag_ignores = 1;
	ign[0] = "ep=/b";
	CHECK_STR(run(&sp, NULL, &st), "10101");
	CHECK_INT(st.tag_ignore_hits, 1);
	ign[0] = "bytes=:1kb";
	CHECK_STR(mask(&sp), "11100");
}

static void
test_relative(void)
{
	struct filter_spec	 sp;
	struct filter_stats	 st;
	struct profile		*p;

	memset(&sp, 0, sizeof(sp));
	sp.relative = 1;
	sp.focus = "main";
	CHECK_STR(run(&sp, &p, &st), "-");
	CHECK_INT(p->nsamples, 3);
	CHECK_INT(p->samples[0].values[0], 10);
	CHECK_INT(p->samples[2].values[0], 30);
	CHECK_INT(st.kept, 3);
	profile_free(p);
	/* Alone, it drops only the samples with no frames. */
	sp.focus = NULL;
	CHECK_STR(run(&sp, &p, &st), "-");
	CHECK_INT(p->nsamples, 4);
	profile_free(p);
}

static void
test_errors(void)
{
	struct filter_spec	 sp;
	char			*tags[1];

	memset(&sp, 0, sizeof(sp));
	sp.focus = "(";
	CHECK(strncmp(mask(&sp), "bad regular expression for --focus '(': ",
	    40) == 0);
	sp.focus = NULL;
	sp.hide = "a[";
	CHECK(strncmp(mask(&sp), "bad regular expression for --hide 'a[': ",
	    40) == 0);
	sp.hide = NULL;
	sp.tags = tags;
	sp.ntags = 1;
	tags[0] = "noequals";
	CHECK_STR(mask(&sp), "--tag 'noequals': expected KEY=VALUE");
	tags[0] = "=x";
	CHECK_STR(mask(&sp), "--tag '=x': expected KEY=VALUE");
	tags[0] = "k=a,(";
	CHECK(strncmp(mask(&sp), "bad regular expression for --tag '(': ",
	    38) == 0);
	sp.ntags = 0;
	sp.tag_ignores = tags;
	sp.ntag_ignores = 1;
	tags[0] = "x";
	CHECK_STR(mask(&sp), "--tag-ignore 'x': expected KEY=VALUE");
	/*
	 * Stacked repetitions make glibc's regcomp grow exponentially
	 * (found by the options fuzzer), back-references make matching
	 * exponential: both are refused.  Escaped and bracketed operators
	 * are plain characters.
	 */
	sp.ntag_ignores = 0;
	sp.focus = "a+++++++++++++++++++++++++++++++++++++++++++++++++++";
	CHECK(strstr(mask(&sp), "a repetition operator follows another") !=
	    NULL);
	sp.focus = "main.*?";
	CHECK(strstr(mask(&sp), "non-greedy") != NULL);
	sp.focus = "x{2}+";
	CHECK(strstr(mask(&sp), "follows another") != NULL);
	sp.focus = "(a)\\1";
	CHECK(strstr(mask(&sp), "back-references") != NULL);
	sp.focus = "[+*?]+\\+\\?[[:alpha:]]*x{2}{3}";
	CHECK_STR(mask(&sp), "00000");
	sp.focus = "[]*]+|^sort";
	CHECK_STR(mask(&sp), "10000");
	sp.focus = NULL;
	/* Mixed units are no range: the value is an expression. */
	sp.ntags = 1;
	tags[0] = "bytes=1kb:2ms";
	CHECK_STR(mask(&sp), "00000");
}

int
main(void)
{
	test_none();
	test_focus_ignore();
	test_hide_show();
	test_tags();
	test_relative();
	test_errors();
	return tap_done();
}

/*
 * A side's selection (--base-tag, --new-tag) on a hand-built profile
 * whose answer is known: lists of values matched whole, hex ids in
 * either case, numeric labels by their decimal text, --tag's
 * expressions and ranges, every term at once, the samples two
 * selections share, and the term whose key no sample carries.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "load/selection.h"
#include "model/profile.h"
#include "tap.h"
#include "tprofile.h"

/*
 * Six samples, each of one frame:
 *	0  span=00F067AA0BA902B7 ep=/fast
 *	1  span=00f067aa0ba902b7 ep=/slow
 *	2  span=53995c3f42cd8ad8 ep=/fast
 *	3  span=Order-7          ep=/slow
 *	4  span=239 (numeric)    ep=/slow bytes=2048 (numeric, bytes)
 *	5  (no labels)
 */
static struct profile *
fixture(void)
{
	struct profile		*p;
	struct pf_location	*l;
	int			 i;

	p = t_new(1, "samples", "count");
	l = t_loc(p, NULL, 0x10, 1, t_fn(p, "main", "main.go"), 3);
	for (i = 0; i < 6; i++)
		t_sample(p, (int64_t[]){ 1 }, 1, l);
	t_labels(p, &p->samples[0], 2, "span", "00F067AA0BA902B7", (int64_t)0,
	    "", "ep", "/fast", (int64_t)0, "");
	t_labels(p, &p->samples[1], 2, "span", "00f067aa0ba902b7", (int64_t)0,
	    "", "ep", "/slow", (int64_t)0, "");
	t_labels(p, &p->samples[2], 2, "span", "53995c3f42cd8ad8", (int64_t)0,
	    "", "ep", "/fast", (int64_t)0, "");
	t_labels(p, &p->samples[3], 2, "span", "Order-7", (int64_t)0, "",
	    "ep", "/slow", (int64_t)0, "");
	t_labels(p, &p->samples[4], 3, "span", (const char *)NULL,
	    (int64_t)239, "", "ep", "/slow", (int64_t)0, "",
	    "bytes", (const char *)NULL, (int64_t)2048, "bytes");
	return p;
}

/* Which samples sel selects, as '0' and '1'; other's shared in *both. */
static const char *
run(const struct selection *sel, const struct selection *other,
    struct selection_stats *st)
{
	static char		 out[8];
	struct profile		*p = fixture();
	struct selection_run	*r;
	size_t			 i;

	memset(st, 0, sizeof(*st));
	r = selection_begin(sel, other, p, st);
	for (i = 0; i < p->nsamples; i++)
		out[i] = r == NULL || selection_sample(r, &p->samples[i]) ?
		    '1' : '0';
	out[i] = '\0';
	selection_end(r);
	profile_free(p);
	return out;
}

static void
test_values(void)
{
	struct selection	*s;
	struct selection_stats	 st;
	char *const		 ids[] = { "00f067aa0ba902b7", "ORDER-7", "239" };
	char *const		 upper[] = { "53995C3F42CD8AD8" };

	/* Hex in either case; other values whole and as written. */
	s = selection_new("--base-tag");
	selection_values(s, "span", ids, 3, "span=@ids.txt");
	CHECK_STR(run(s, NULL, &st), "110010");
	CHECK_INT(st.seen, 6);
	CHECK_INT(st.kept, 3);
	CHECK_STR(selection_text(s), "--base-tag span=@ids.txt");
	CHECK(selection_unkeyed(s, &st) == NULL);
	selection_free(s);
	/* The list's own case does not matter for hex either. */
	s = selection_new("--new-tag");
	selection_values(s, "span", upper, 1, "span=@up.txt");
	CHECK_STR(run(s, NULL, &st), "001000");
	selection_free(s);
	/* A prefix is not the value. */
	s = selection_new("--new-tag");
	selection_values(s, "span", (char *const[]){ "00f067aa" }, 1, "x");
	CHECK_STR(run(s, NULL, &st), "000000");
	CHECK_INT(st.kept, 0);
	selection_free(s);
}

static void
test_tags(void)
{
	struct selection	*s, *o;
	struct selection_stats	 st;
	struct diag		 d;

	diag_init(&d, NULL);
	/* --tag's expressions and ranges, and every term must match. */
	s = selection_new("--new-tag");
	CHECK_INT(selection_tag(s, "ep=/slow", &d), 0);
	CHECK_STR(run(s, NULL, &st), "010110");
	CHECK_INT(selection_tag(s, "bytes=1kb:4kb", &d), 0);
	CHECK_STR(run(s, NULL, &st), "000010");
	selection_values(s, "span", (char *const[]){ "239" }, 1, "span=@n");
	CHECK_STR(run(s, NULL, &st), "000010");
	CHECK_STR(selection_text(s), "--new-tag ep=/slow --new-tag "
	    "bytes=1kb:4kb --new-tag span=@n");
	selection_free(s);
	/* The samples two selections share. */
	s = selection_new("--base-tag");
	o = selection_new("--new-tag");
	CHECK_INT(selection_tag(s, "ep=/fast", &d), 0);
	CHECK_INT(selection_tag(o, "span=^00", &d), 0);
	CHECK_STR(run(s, o, &st), "101000");
	CHECK_INT(st.both, 1);
	selection_free(o);
	/* A misspelt key: the term says why nothing is selected. */
	CHECK_INT(selection_tag(s, "endpoint=/fast", &d), 0);
	CHECK_STR(run(s, NULL, &st), "000000");
	CHECK_STR(selection_unkeyed(s, &st), "endpoint=/fast");
	/* A bad term is refused in the option's name. */
	CHECK_INT(selection_tag(s, "ep", &d), -1);
	CHECK_STR(d.msg, "--base-tag 'ep': expected KEY=VALUE");
	selection_free(s);
	/* No selection: every sample. */
	CHECK_STR(run(NULL, NULL, &st), "111111");
}

int
main(void)
{
	test_values();
	test_tags();
	return tap_done();
}

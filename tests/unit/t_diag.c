/*
 * Tests for diag.c and msg.c: the message table (every code named once,
 * each with a wording), a list of messages and the lines it holds, the
 * error of two profiles that cannot be compared, and the warnings as
 * the reports write them (report_util.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "report/report.h"
#include "support/diag.h"
#include "support/msg.h"

static void
test_table(void)
{
	char	 buf[512];
	int	 m, k, named = 1, unique = 1;

	for (m = 0; m < MSG_COUNT; m++) {
		if (msg_name(m)[0] == '\0')
			named = 0;
		for (k = 0; k < m; k++)
			if (strcmp(msg_name(m), msg_name(k)) == 0)
				unique = 0;
	}
	CHECK(named);
	CHECK(unique);
	CHECK_STR(msg_name(MSG_FEW_SAMPLES), "few-samples");
	CHECK_STR(msg_name(MSG_COUNT), "");
	CHECK_INT(msg_level(MSG_OUT_OF_RANGE), MSG_ERROR);
	CHECK_INT(msg_level(MSG_COUNTS_RECOVERED), MSG_NOTE);
	CHECK_STR(msg_level_name(MSG_WARNING), "warning");
	msg_format(buf, sizeof(buf), MSG_NO_SAMPLES_SNAPSHOT);
	CHECK_STR(buf, "no samples in this snapshot");
	msg_format(buf, sizeof(buf), MSG_COUNT);
	CHECK_STR(buf, "");
}

static void
test_list(void)
{
	struct diags	 ds;

	diags_init(&ds);
	CHECK_INT(ds.n, 0);
	diags_add(&ds, MSG_FEW_SAMPLES, "new", "idle.pb.gz", NULL,
	    (long long)131, "s", 8.6);
	diags_add(&ds, MSG_NO_SAMPLES, "base", NULL, "merged profiles");
	diags_add(&ds, MSG_LIST_NONE, NULL, NULL, "diff", "a*b");
	diags_add(&ds, MSG_PERIODS, NULL, NULL, NULL, 10000000LL, 1000000LL,
	    "nanoseconds");
	CHECK_INT(ds.n, 4);
	CHECK_STR(ds.v[0].line, "new: idle.pb.gz: only 131 samples: shares "
	    "are uncertain by up to ±8.6 points (95%); collect a longer "
	    "profile");
	CHECK_STR(ds.v[0].text, "only 131 samples: shares are uncertain by "
	    "up to ±8.6 points (95%); collect a longer profile");
	CHECK_STR(ds.v[0].file, "idle.pb.gz");
	CHECK_STR(ds.v[0].side, "new");
	CHECK_INT(ds.v[0].level, MSG_WARNING);
	CHECK_STR(ds.v[1].line, "base: merged profiles: no samples: nothing "
	    "to compare; collect a longer profile");
	CHECK(ds.v[1].file == NULL);
	CHECK_STR(ds.v[2].line, "diff: --list 'a*b' matches no function "
	    "with samples in either profile");
	CHECK_STR(ds.v[3].line, "the sampling periods differ: base 10000000, "
	    "new 1000000 nanoseconds");
	CHECK(ds.v[3].text == ds.v[3].line);
	diags_release(&ds);
	CHECK(ds.v == NULL && ds.n == 0);
	diags_release(&ds);		/* twice: a no-op */
}

static void
test_pair(void)
{
	struct diag	 d;
	char		 buf[256];

	diag_init(&d, "new.pb");
	CHECK_INT(diag_set_msg(&d, DIAG_PAIR, MSG_UNITS_DIFFER, "delay",
	    "seconds", "nanoseconds", "base.pb"), -1);
	diag_format(&d, buf, sizeof(buf));
	CHECK_STR(buf, "new.pb: sample type delay is in seconds, but in "
	    "nanoseconds in base.pb: the profiles cannot be compared");
	diag_init(&d, "x.pb");
	diag_set(&d, DIAG_CORRUPT, -1, "sample 3");
	diag_format(&d, buf, sizeof(buf));
	CHECK_STR(buf, "x.pb: corrupt profile: sample 3");
}

/* What fn writes of ds, in buf. */
static const char *
written(void (*fn)(FILE *, const struct diags *), const struct diags *ds,
    char *buf, size_t len)
{
	FILE	*fp;

	/*
	 * glibc's fmemopen() writes no terminating NUL when nothing is
	 * written: an empty report would read the stack's old bytes.
	 */
	memset(buf, 0, len);
	fp = fmemopen(buf, len, "w");
	fn(fp, ds);
	fclose(fp);
	return buf;
}

static void
json(FILE *fp, const struct diags *ds)
{
	report_warnings_json(fp, ds, 0);
}

static void
test_reports(void)
{
	struct diags	 ds;
	char		 buf[1024];

	diags_init(&ds);
	CHECK_STR(written(report_warnings_md, &ds, buf, sizeof(buf)), "");
	CHECK_STR(written(json, &ds, buf, sizeof(buf)), ",\"warnings\":[]");
	CHECK_STR(written(json, NULL, buf, sizeof(buf)), ",\"warnings\":[]");
	diags_add(&ds, MSG_LIST_NONE, NULL, NULL, "diff", "a*b_c|d");
	diags_add(&ds, MSG_BAD_DURATION, "base", "x\n\"y\".pb", NULL);
	diags_add(&ds, MSG_NO_LABEL, NULL, NULL, NULL, "_k_");
	CHECK_STR(written(report_warnings_md, &ds, buf, sizeof(buf)),
	    "\n### Warnings\n\n"
	    "- diff: --list 'a\\*b_c\\|d' matches no function with samples "
	    "in either profile\n"
	    "- base: x \"y\".pb: duration_nanos is implausible (over a "
	    "week); the duration is ignored\n"
	    "- no sample carries label \\_k\\_ (--by-label)\n");
	CHECK_STR(written(json, &ds, buf, sizeof(buf)), ",\"warnings\":["
	    "\n{\"level\":\"warning\",\"side\":null,\"file\":null,"
	    "\"code\":\"list-matched-nothing\",\"message\":\"--list "
	    "'a*b_c|d' matches no function with samples in either profile\"},"
	    "\n{\"level\":\"warning\",\"side\":\"base\",\"file\":"
	    "\"x\\n\\\"y\\\".pb\",\"code\":\"duration-implausible\","
	    "\"message\":\"duration_nanos is implausible (over a week); the "
	    "duration is ignored\"},"
	    "\n{\"level\":\"warning\",\"side\":null,\"file\":null,"
	    "\"code\":\"label-not-found\",\"message\":\"no sample carries "
	    "label _k_ (--by-label)\"}]");
	diags_release(&ds);
}

int
main(void)
{
	test_table();
	test_list();
	test_pair();
	test_reports();
	return tap_done();
}

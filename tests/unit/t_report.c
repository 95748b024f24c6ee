/*
 * Tests for the numbers of the JSON and CSV reports (report_util.c):
 * integers exactly, every other double in digits that read back as
 * the same double, and no more digits than that needs; and the escaping
 * of names in CSV and Markdown.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/report.h"
#include "tap.h"

static char buf[REPORT_NUMSZ];

static const char *
num(double v)
{
	report_fmt_num(buf, sizeof(buf), v);
	return buf;
}

static void
test_integers(void)
{
	/* What %.6g printed as -6.90505e+08 (issue 19). */
	CHECK_STR(num(-690505089), "-690505089");
	CHECK_STR(num(93720990), "93720990");
	CHECK_STR(num(0), "0");
	CHECK_STR(num(-0.0), "0");
	CHECK_STR(num(1), "1");
	CHECK_STR(num(9007199254740993.0), "9007199254740992");
	CHECK_STR(num(1e17), "1e+17");
	CHECK_STR(num(99999999999999984.0), "99999999999999984");
}

static void
test_fractions(void)
{
	double	 v;
	int	 i, bad = 0;

	CHECK_STR(num(0.05), "0.05");
	CHECK_STR(num(0.1), "0.1");
	CHECK_STR(num(1e-5), "1e-05");
	CHECK_STR(num(0.1 + 0.2), "0.30000000000000004");
	CHECK_STR(num(1.0 / 3), "0.3333333333333333");
	CHECK_STR(num(DBL_MIN), "2.2250738585072014e-308");
	/* Read back as the same double, over a spread of magnitudes. */
	srand(19);
	for (i = 0; i < 100000; i++) {
		v = ((double)rand() / RAND_MAX - 0.5) *
		    pow(10, rand() % 40 - 20);
		if (strtod(num(v), NULL) != v)
			bad++;
	}
	CHECK_INT(bad, 0);
}

/* What put writes of s. */
static char *
put(void (*fn)(FILE *, const char *), const char *s)
{
	static char	*out;
	size_t		 len = 0;
	FILE		*fp;

	free(out);
	out = NULL;
	fp = open_memstream(&out, &len);
	fn(fp, s);
	fclose(fp);
	return out;
}

/*
 * A text cell that begins as a formula gets a ' (OWASP), and invalid
 * UTF-8 is U+FFFD, as in JSON (issue 30, item 18); numbers never come
 * here, so -1.5 as a name is text too.
 */
static void
test_csv(void)
{
	CHECK_STR(put(report_put_csv, "main.work"), "main.work");
	CHECK_STR(put(report_put_csv, "=HYPERLINK(\"http://x/\",\"y\")"),
	    "\"'=HYPERLINK(\"\"http://x/\"\",\"\"y\"\")\"");
	CHECK_STR(put(report_put_csv, "+cmd"), "'+cmd");
	CHECK_STR(put(report_put_csv, "-[Obj bar]"), "'-[Obj bar]");
	CHECK_STR(put(report_put_csv, "@SUM(1+1)"), "'@SUM(1+1)");
	CHECK_STR(put(report_put_csv, "\tx"), "'\tx");
	CHECK_STR(put(report_put_csv, "\rx"), "\"'\rx\"");
	CHECK_STR(put(report_put_csv, "a=b"), "a=b");
	CHECK_STR(put(report_put_csv, ""), "");
	CHECK_STR(put(report_put_csv, "a,b\nc"), "\"a,b\nc\"");
	CHECK_STR(put(report_put_csv, "bad\xff\xc0\xaf caf\xc3\xa9 \xe2\x82"),
	    "bad\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd caf\xc3\xa9 "
	    "\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(put(report_put_csv, "\xed\xa0\x80"),
	    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

/*
 * Markdown: a name is a code span, whose pipes are escaped and whose
 * backticks and control bytes cannot end it or the row; prose escapes
 * inline markup, and what would start a block; invalid UTF-8 is U+FFFD.
 */
static void
test_markdown(void)
{
	CHECK_STR(put(report_put_md, "a|b`c\nd\x7f\xff\xc3\xa9"),
	    "`a\\|b'c d \xef\xbf\xbd\xc3\xa9`");
	CHECK_STR(put(report_put_md, ""), "` `");
	CHECK_STR(put(report_put_md_text, "a|b *c* [d](e) <f> x_y _z"),
	    "a\\|b \\*c\\* \\[d\\](e) \\<f\\> x_y \\_z");
	CHECK_STR(put(report_put_md_text, "# h"), "\\# h");
	CHECK_STR(put(report_put_md_text, "- x"), "\\- x");
	CHECK_STR(put(report_put_md_text, "12. x 3."), "12\\. x 3.");
	CHECK_STR(put(report_put_md_text, "a\nb\xff"), "a b\xef\xbf\xbd");
}

int
main(void)
{
	test_integers();
	test_fractions();
	test_csv();
	test_markdown();
	return tap_done();
}

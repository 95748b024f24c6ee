/*
 * Tests for the numbers of the JSON and CSV reports (report_util.c):
 * integers exactly, every other double in digits that read back as
 * the same double, and no more digits than that needs.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
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

int
main(void)
{
	test_integers();
	test_fractions();
	return tap_done();
}

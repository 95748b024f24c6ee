/*
 * Tests for units.c.  Every expected string was printed by go tool pprof
 * (Go 1.19) -top on a profile of ../shared/corpus, with the raw value
 * taken from the same run with -unit=ns or -unit=b; the file and sample
 * index are named beside each group.
 */
#include <locale.h>
#include <math.h>
#include <stdint.h>

#include "tap.h"
#include "support/units.h"

static char buf[UNITS_BUFSZ];

static const char *
label(int64_t v, const char *from, const char *to)
{
	units_label(buf, sizeof(buf), v, from, to);
	return buf;
}

static const char *
fmt(int64_t v, const char *unit)
{
	units_format(buf, sizeof(buf), v, unit);
	return buf;
}

static const char *
pct(int64_t v, int64_t total)
{
	units_percent(buf, sizeof(buf), v, total);
	return buf;
}

static const char *
num(double v)
{
	units_number(buf, sizeof(buf), v);
	return buf;
}

static const char *
sgn(double v, int digits)
{
	units_signed(buf, sizeof(buf), v, digits);
	return buf;
}

/* A change that rounds to zero has no sign: "[-0, +6]" was printed. */
static void
test_signed(void)
{
	CHECK_STR(sgn(-0.3, 0), "0");
	CHECK_STR(sgn(5.7, 0), "+6");
	CHECK_STR(sgn(-0.004, 2), "0.00");
	CHECK_STR(sgn(-0.005001, 2), "-0.01");
	CHECK_STR(sgn(0.0, 1), "0.0");
	CHECK_STR(sgn(-0.0, 1), "0.0");
	CHECK_STR(sgn(-12.25, 1), "-12.2");
	CHECK_STR(sgn(3.0, 2), "+3.00");
	CHECK_STR(units_sign(-0.4, "0"), "");
	CHECK_STR(units_sign(-0.4, "0B"), "");
	CHECK_STR(units_sign(-0.4, "0.00ms"), "");
	CHECK_STR(units_sign(-1, "1B"), "-");
	CHECK_STR(units_sign(0.04, "0.05ms"), "+");
	CHECK_STR(units_sign(-2e6, "10.50ms"), "-");
	CHECK_STR(units_sign(-2e6, "100"), "-");
}

static void
test_counts(void)
{
	const char *u;

	/* go-cpu-rate-800hz.pb.gz, -sample_index=0 (samples/count). */
	u = units_pick(30, 246, "count");
	CHECK_STR(u, "count");
	CHECK_STR(label(216, "count", u), "216");
	CHECK_STR(label(246, "count", u), "246");
	CHECK_STR(label(0, "count", u), "0");
	/* go-heap-guide.pb.gz, -sample_index=0 (alloc_objects/count). */
	CHECK_STR(label(60063799, "count", units_pick(455, 60065969,
	    "count")), "60063799");
	/* An unknown unit: pprof prints the number and the unit's name. */
	CHECK_STR(units_pick(3, 10, "objects"), "objects");
	CHECK_STR(label(7, "objects", "objects"), "7objects");
	CHECK_STR(label(7, "objects", "auto"), "7");
	CHECK_STR(label(7, "", ""), "7");
}

static void
test_time(void)
{
	const char *u;

	/* go-cpu-rate-800hz.pb.gz, -sample_index=1 (cpu/nanoseconds). */
	u = units_pick(37500000, 307500000, "nanoseconds");
	CHECK_STR(u, "ms");
	CHECK_STR(label(270000000, "nanoseconds", u), "270ms");
	CHECK_STR(label(307500000, "nanoseconds", u), "307.50ms");
	CHECK_STR(label(37500000, "nanoseconds", u), "37.50ms");

	/* go-cpu-fib.pb.gz -nodecount=6, -sample_index=1. */
	u = units_pick(50000000, 29740000000LL, "nanoseconds");
	CHECK_STR(u, "s");
	CHECK_STR(label(28610000000LL, "nanoseconds", u), "28.61s");
	CHECK_STR(label(310000000, "nanoseconds", u), "0.31s");
	CHECK_STR(label(70000000, "nanoseconds", u), "0.07s");
	CHECK_STR(label(29740000000LL, "nanoseconds", u), "29.74s");
	CHECK_STR(label(0, "nanoseconds", u), "0");
	/* Its "Duration: 30.16s" line. */
	CHECK_STR(fmt(30156835758LL, "nanoseconds"), "30.16s");

	/* go-block-net.pb.gz, -sample_index=1 (delay/nanoseconds). */
	u = units_pick(25307, 11525125, "nanoseconds");
	CHECK_STR(u, "ms");
	CHECK_STR(label(8213210, "nanoseconds", u), "8.21ms");
	CHECK_STR(label(121628, "nanoseconds", u), "0.12ms");
	CHECK_STR(label(11525125, "nanoseconds", u), "11.53ms");

	/* nodejs-wall.pb.gz, -sample_index=1 (wall/microseconds). */
	CHECK_STR(label(5860000, "microseconds", "s"), "5.86s");
	CHECK_STR(label(8980000, "microseconds", "ns"), "8980000000ns");

	/* -unit=ns, as the conformance runs print exact integers. */
	CHECK_STR(label(29740000000LL, "nanoseconds", "ns"), "29740000000ns");
	CHECK_STR(label(6501963271LL, "bytes", "ns"), "6501963271B");
	CHECK_STR(label(2974, "count", "ns"), "2974ns");

	/* Aliases, case and the trailing "s". */
	CHECK_STR(fmt(1500, "ms"), "1.50s");
	CHECK_STR(fmt(1500, "Milliseconds"), "1.50s");
	CHECK_STR(fmt(90, "SECONDS"), "90s");
	CHECK_STR(fmt(7200, "sec"), "2hrs");
	CHECK_STR(fmt(999, "ns"), "999ns");
	CHECK_STR(fmt(1000, "nanosecond"), "1us");
	CHECK_STR(label(1, "hour", "ms"), "3600000ms");
	/* Go lowers Unicode: GREEK CAPITAL MU, then "s" dropped. */
	CHECK_STR(fmt(3, "\xce\x9c" "ss"), "3us");
	/* A unit of the family that "to" does not name: the default unit. */
	CHECK_STR(label(1500000000, "ns", "bytes"), "1.50s");
}

static void
test_bytes(void)
{
	const char *u;

	/* go-heap-guide.pb.gz -nodecount=6, -sample_index=1 (alloc_space). */
	u = units_pick(524496, 6503537495LL, "bytes");
	CHECK_STR(u, "MB");
	CHECK_STR(label(6501963271LL, "bytes", u), "6200.76MB");
	CHECK_STR(label(1049728, "bytes", u), "1MB");
	CHECK_STR(label(524496, "bytes", u), "0.50MB");
	CHECK_STR(label(5234196199LL, "bytes", u), "4991.72MB");
	CHECK_STR(label(1267767072, "bytes", u), "1209.04MB");
	CHECK_STR(label(6503537495LL, "bytes", u), "6202.26MB");

	/*
	 * -diff_base go-heap-series-t9.pb.gz go-heap-series-t0.pb.gz,
	 * -sample_index=1: negative values.
	 */
	CHECK_STR(label(-87244800, "bytes", "MB"), "-83.20MB");
	CHECK_STR(label(-1049872, "bytes", "MB"), "-1MB");
	CHECK_STR(label(-666237, "bytes", "MB"), "-0.64MB");
	CHECK_STR(label(-3211407, "bytes", "MB"), "-3.06MB");
	CHECK_STR(label(-97394002, "bytes", "MB"), "-92.88MB");
	CHECK_STR(label(149359340, "bytes", "MB"), "142.44MB");
	/* The same diff the other way round, printed in kB. */
	CHECK_STR(label(87244800, "bytes", "kB"), "85200kB");
	CHECK_STR(label(1332474, "bytes", "kB"), "1301.24kB");
	CHECK_STR(label(51965338, "bytes", "kB"), "50747.40kB");
	/* A tiny negative value prints as 0, never "-0". */
	CHECK_STR(label(-1, "bytes", "MB"), "0");

	CHECK_STR(fmt(1023, "bytes"), "1023B");
	CHECK_STR(fmt(1024, "bytes"), "1kB");
	CHECK_STR(fmt(1536, "B"), "1.50kB");
	CHECK_STR(fmt(1073741824LL, "byte"), "1GB");
	CHECK_STR(fmt(2048, "KB"), "2MB");
	/* KELVIN SIGN lowers to "k" in Go. */
	CHECK_STR(fmt(1, "\xe2\x84\xaa" "b"), "1kB");
	CHECK_STR(fmt(INT64_MAX, "bytes"), "8192PB");
	/* Go cannot negate the most negative value: no scaling happens. */
	CHECK_STR(fmt(INT64_MIN, "bytes"), "-9223372036854775808B");
}

static void
test_gcu(void)
{
	CHECK_STR(fmt(1500, "gcu"), "1.50k*GCU");
	CHECK_STR(fmt(5, "milligcu"), "5m*GCU");
	CHECK_STR(label(2, "gcu", "milligcu"), "2000m*GCU");
}

static void
test_percent(void)
{
	/* go-cpu-rate-800hz.pb.gz -sample_index=0. */
	CHECK_STR(pct(216, 246), "87.80%");
	CHECK_STR(pct(30, 246), "12.20%");
	CHECK_STR(pct(246, 246), "  100%");
	/* go-cpu-fib.pb.gz -sample_index=0. */
	CHECK_STR(pct(2861, 2974), "96.20%");
	CHECK_STR(pct(31, 2974), " 1.04%");
	CHECK_STR(pct(7, 2974), " 0.24%");
	CHECK_STR(pct(6, 2974), "  0.2%");
	CHECK_STR(pct(2924, 2974), "98.32%");
	/* go-heap-guide.pb.gz -sample_index=0. */
	CHECK_STR(pct(60063799, 60065969), "  100%");
	CHECK_STR(pct(1260, 60065969), "0.0021%");
	CHECK_STR(pct(910, 60065969), "0.0015%");
	CHECK_STR(pct(455, 60065969), "0.00076%");
	CHECK_STR(pct(0, 60065969), "    0%");
	/* The diff above: percentages of negative values are positive. */
	CHECK_STR(pct(-87244800, 149359340), "58.41%");
	CHECK_STR(pct(-1049872, 149359340), "  0.7%");
	CHECK_STR(pct(87244800, 51965338), "167.89%");
	/* go-cpu-fib.pb.gz: "Total samples = 29.74s (98.62%)". */
	CHECK_STR(pct(29740000000LL, 30156835758LL), "98.62%");
	/* No total at all. */
	CHECK_STR(pct(5, 0), "    0%");
	/* Below 1e-4 percent, %g switches to an exponent. */
	CHECK_STR(pct(1, 100000000), "1e-06%");
}

static void
test_truncation(void)
{
	char small[5];

	units_label(small, sizeof(small), 6501963271LL, "bytes", "MB");
	CHECK_STR(small, "6200");
	units_percent(small, sizeof(small), 216, 246);
	CHECK_STR(small, "87.8");
}

/*
 * A locale with a decimal comma must not leak into the output.  Such a
 * locale is often not installed; the checks then run in "C".
 */
static void
test_locale(void)
{
	static const char *const names[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "ps_AF.UTF-8",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (setlocale(LC_NUMERIC, names[i]) != NULL)
			break;
	if (i == sizeof(names) / sizeof(names[0]))
		printf("# no decimal-comma locale installed\n");
	else
		printf("# LC_NUMERIC=%s\n", names[i]);
	CHECK_STR(label(524496, "bytes", "MB"), "0.50MB");
	CHECK_STR(pct(1260, 60065969), "0.0021%");
	CHECK_STR(pct(31, 2974), " 1.04%");
	CHECK_STR(num(512.5625), "512.5625");
	CHECK_STR(num(1e-7), "1e-07");
	setlocale(LC_NUMERIC, "C");
}

/* --unit: which names it takes, their families, and its JSON numbers. */
static void
test_output_unit(void)
{
	CHECK(units_output_ok("ms"));
	CHECK(units_output_ok("MB"));
	CHECK(units_output_ok("kilobytes"));
	/* pprof drops the "s" of the three bytes of "\xce\xbcs": no unit. */
	CHECK(!units_output_ok("\xce\xbcs"));
	CHECK(units_output_ok("hrs"));
	CHECK(units_output_ok("gcu"));
	CHECK(units_output_ok("minimum"));
	CHECK(units_output_ok("auto"));
	CHECK(!units_output_ok("count"));
	CHECK(!units_output_ok("parsecs"));
	CHECK(!units_output_ok(""));
	CHECK_STR(units_kind("nanoseconds"), "time");
	CHECK_STR(units_kind("bytes"), "bytes");
	CHECK_STR(units_kind("m*GCU") == NULL ? "none" : "gcu", "none");
	CHECK_STR(units_kind("milligcu"), "GCU");
	CHECK(units_kind("count") == NULL);
	CHECK(units_kind("") == NULL);
	/* A unit as given; minimum and auto are pprof's choice of one. */
	CHECK(units_column(NULL, 1, 2, "nanoseconds") == NULL);
	CHECK_STR(units_column("ms", 1, 2, "nanoseconds"), "ms");
	CHECK_STR(units_column("minimum", 550000000, 9960000000,
	    "nanoseconds"), "ms");
	CHECK_STR(units_column("minimum", 10000000, 9960000000,
	    "nanoseconds"), "s");
	CHECK_STR(units_column("auto", 524496, 1049360, "bytes"), "kB");
	/* Values that need not be whole: rates. */
	CHECK_NEAR(units_scale_f(2.5e6, "nanoseconds", "ms"), 2.5, 0);
	CHECK_NEAR(units_scale_f(-1536, "bytes", "kb"), -1.5, 0);
	CHECK_NEAR(units_scale_f(7, "count", "ms"), 7, 0);
	/* The shortest decimal that reads back, and no exponent if short. */
	CHECK_STR(num(650), "650");
	CHECK_STR(num(9960), "9960");
	CHECK_STR(num(0.65), "0.65");
	CHECK_STR(num(512.203125), "512.203125");
	CHECK_STR(num(0.1 + 0.2), "0.30000000000000004");
	CHECK_STR(num(-3.3e-5), "-0.000033");
	CHECK_STR(num(1e21), "1e+21");
	CHECK_STR(num(0), "0");
	CHECK_STR(num(NAN), "null");
}

int
main(void)
{
	test_counts();
	test_signed();
	test_time();
	test_bytes();
	test_gcu();
	test_percent();
	test_truncation();
	test_locale();
	test_output_unit();
	return tap_done();
}

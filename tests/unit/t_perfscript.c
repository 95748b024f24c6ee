/*
 * perf script decoder tests: text decoded with perfscript_decode() (and
 * through pprof_decode(), raw and gzipped, to check detection), the
 * model checked field by field for the default format and each common
 * -F field set, then one broken rule at a time, each of which must be
 * refused with its exact one-line message and line number.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/agg.h"
#include "core/facts.h"
#include "support/diag.h"
#include "input/input.h"
#include "input/perfscript.h"
#include "profdiff.h"
#include "model/profile.h"
#include "tap.h"

#define TDECODE		perfscript_decode
#define TDECODE_PATH	"t.perf"
#include "tdecode.h"

/* Frame j (0 = leaf) of sample i: its function's name, or "-". */
static const char *
fname(const struct profile *p, size_t i, size_t j)
{
	const struct pf_location *l;

	if (i >= p->nsamples || j >= p->samples[i].nlocs)
		return "(none)";
	l = p->samples[i].locs[j];
	return l->nlines > 0 ? l->lines[0].function->name : "-";
}

/* Frame j of sample i: its mapping's file, or "-". */
static const char *
mname(const struct profile *p, size_t i, size_t j)
{
	const struct pf_location *l;

	if (i >= p->nsamples || j >= p->samples[i].nlocs)
		return "(none)";
	l = p->samples[i].locs[j];
	return l->mapping != NULL ? l->mapping->filename : "-";
}

/* Label key of sample i, as a string ("-" when it has none). */
static const char *
lstr(const struct profile *p, size_t i, const char *key)
{
	size_t j;

	for (j = 0; j < p->samples[i].nlabels; j++)
		if (strcmp(p->samples[i].labels[j].key, key) == 0)
			return p->samples[i].labels[j].str;
	return "-";
}

static long long
lnum(const struct profile *p, size_t i, const char *key)
{
	size_t j;

	for (j = 0; j < p->samples[i].nlabels; j++)
		if (strcmp(p->samples[i].labels[j].key, key) == 0)
			return p->samples[i].labels[j].num;
	return -999;
}

static const char default_text[] =
    "V8 Worker 4242  100.000100:     250000 cpu-clock: \n"
    "\tffffffff81d73c65 read_zero+0x5 ([kernel.kallsyms])\n"
    "\t           f82ec read+0x4c (/usr/lib/libc.so.6)\n"
    "\t            1357 fill+0x47 (/opt/app)\n"
    "\n"
    "app 4241  100.000350:     250000 cpu-clock: \n"
    "\t            11c6 hash_key+0xd (/opt/app)\n"
    "\t            1548 main+0x81 (/opt/app)\n"
    "\n"
    "app 4241  100.000600:     250000 cpu-clock: \n"
    "\t           2b7e0 [unknown] (/usr/lib/libc.so.6)\n"
    "\tffffffffc0a01234 [unknown] ([unknown])\n"
    "\t    7ff64bcf78a8 [unknown] ([unknown])\n"
    "\t            3a10 old+0x10 (/opt/libold.so (deleted))\n"
    "\n"
    "app 4241  100.001100:     250000 cpu-clock: \n"
    "\t            11c6 hash_key+0xd (/opt/app)\n"
    "\t            1548 main+0x81 (/opt/app)\n"
    "\n";

static void
test_default(void)
{
	struct profile *p;

	if ((p = dec(default_text)) == NULL) {
		CHECK_STR(msg, "(accepted)");
		return;
	}
	CHECK_INT(p->format, PF_PPROF);
	CHECK_INT(p->nsample_types, 2);
	CHECK_STR(p->sample_types[0].type, "samples");
	CHECK_STR(p->sample_types[0].unit, "count");
	CHECK_STR(p->sample_types[1].type, "cpu-clock");
	CHECK_STR(p->sample_types[1].unit, "nanoseconds");
	CHECK_STR(p->default_sample_type, "cpu-clock");
	/* One event of CPU time: a period as Go's CPU profiles have it. */
	CHECK_STR(p->period_type.type, "cpu");
	CHECK_STR(p->period_type.unit, "nanoseconds");
	CHECK_INT(p->period, 250000);
	CHECK_INT(p->time_nanos, 0);
	CHECK_INT(p->duration_nanos, 1000000);
	CHECK_INT(p->nsamples, 4);
	CHECK_INT(p->samples[0].values[0], 1);
	CHECK_INT(p->samples[0].values[1], 250000);

	/* Labels: a comm with a blank, and the lone number is the tid. */
	CHECK_STR(lstr(p, 0, "comm"), "V8 Worker");
	CHECK_INT(lnum(p, 0, "tid"), 4242);
	CHECK_INT(lnum(p, 0, "pid"), -999);
	CHECK_STR(lstr(p, 1, "comm"), "app");
	CHECK_INT(p->samples[1].nlabels, 2);

	/* Leaf first, offsets cut, kernel frames marked. */
	CHECK_INT(p->samples[0].nlocs, 3);
	CHECK_STR(fname(p, 0, 0), "read_zero_[k]");
	CHECK_STR(mname(p, 0, 0), "[kernel.kallsyms]");
	CHECK_STR(fname(p, 0, 1), "read");
	CHECK_STR(mname(p, 0, 1), "/usr/lib/libc.so.6");
	CHECK_STR(fname(p, 0, 2), "fill");
	CHECK_INT(p->samples[0].locs[0]->address, 0xffffffff81d73c65ULL);
	CHECK_INT(p->samples[0].locs[2]->address, 0x1357);

	/*
	 * [unknown]: no function; the dso stays the mapping, a kernel
	 * address goes to [kernel.kallsyms], and an unknown dso is none.
	 */
	CHECK_STR(fname(p, 2, 0), "-");
	CHECK_STR(mname(p, 2, 0), "/usr/lib/libc.so.6");
	CHECK_INT(p->samples[2].locs[0]->mapping->has_functions, 0);
	CHECK_STR(fname(p, 2, 1), "-");
	CHECK_STR(mname(p, 2, 1), "[kernel.kallsyms]");
	CHECK_STR(fname(p, 2, 2), "-");
	CHECK_STR(mname(p, 2, 2), "-");
	CHECK_INT(p->samples[2].locs[2]->address, 0x7ff64bcf78a8ULL);
	/* A dso's own parentheses stay in its name. */
	CHECK_STR(fname(p, 2, 3), "old");
	CHECK_STR(mname(p, 2, 3), "/opt/libold.so (deleted)");

	/* The same stack, the same location and the same array. */
	CHECK(p->samples[1].locs == p->samples[3].locs);
	CHECK(p->samples[1].labels == p->samples[3].labels);
	CHECK(p->samples[1].locs[0] == p->samples[3].locs[0]);
	CHECK_INT(p->nlocations, 9);
	CHECK_INT(p->nfunctions, 6);
	CHECK_INT(p->nmappings, 4);
	CHECK_INT(p->samples[1].locs[1]->mapping->has_functions, 1);
	profile_free(p);
}

static void
test_fields(void)
{
	struct profile *p;

	/* Without -g: the frame ends the header; comms right-aligned. */
	p = dec("             app  4241   100.000100:     250000 cpu-clock: "
	    "     55ea93a992c5 price_items+0x67 (/opt/app)\n"
	    "       V8 Worker  4242   100.000600:     250000 cpu-clock:  "
	    "ffffffff81d73cd7 read_zero+0x77 ([kernel.kallsyms])\n");
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_INT(p->nsamples, 2);
		CHECK_INT(p->samples[0].nlocs, 1);
		CHECK_STR(fname(p, 0, 0), "price_items");
		CHECK_INT(p->samples[0].locs[0]->address, 0x55ea93a992c5ULL);
		CHECK_STR(fname(p, 1, 0), "read_zero_[k]");
		CHECK_STR(lstr(p, 1, "comm"), "V8 Worker");
		profile_free(p);
	}

	/* comm, pid/tid, [cpu], time, period, event, and a chain. */
	p = dec("app  4241/4243  [001]   100.000100:     250000 cpu-clock: \n"
	    "\t            11c6 hash_key+0xd (/opt/app)\n\n");
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_INT(lnum(p, 0, "pid"), 4241);
		CHECK_INT(lnum(p, 0, "tid"), 4243);
		CHECK_STR(p->samples[0].labels[1].num_unit, "");
		CHECK_STR(fname(p, 0, 0), "hash_key");
		profile_free(p);
	}

	/* No period: each sample counts one, and the unit says so. */
	p = dec("app  4241   100.000100: cpu-clock: \n"
	    "\t            11c6 hash_key (/opt/app)\n\n"
	    "app  4241   100.000350: cpu-clock: \n"
	    "\t            11c6 hash_key (/opt/app)\n\n");
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_STR(p->sample_types[1].unit, "count");
		CHECK_INT(p->samples[1].values[1], 1);
		CHECK_STR(p->period_type.type, "");
		CHECK_INT(p->period, 0);
		CHECK_INT(p->duration_nanos, 250000);
		profile_free(p);
	}

	/* No event: the type is "event"; the period is still read. */
	p = dec("app  4241/4241   100.000100:     250000 \n"
	    "\t            11c6 hash_key\n\n");
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_STR(p->sample_types[1].type, "event");
		CHECK_STR(p->sample_types[1].unit, "events");
		CHECK_INT(p->samples[0].values[1], 250000);
		profile_free(p);
	}

	/* The fewest fields: the tid over addresses, no names. */
	p = dec("   4241 \n\t            11c6\n\t            1548\n\n");
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_INT(p->samples[0].nlocs, 2);
		CHECK_STR(fname(p, 0, 1), "-");
		CHECK_STR(mname(p, 0, 1), "-");
		CHECK_INT(p->samples[0].locs[1]->address, 0x1548);
		CHECK_INT(p->duration_nanos, 0);
		profile_free(p);
	}

	/*
	 * --header and --show-mmap-events: comments and side-band records
	 * are no samples; over a call chain, a tracepoint's text after the
	 * event is not a frame.
	 */
	p = dec("# ========\n# cmdline : perf record -g\n#\n"
	    "app  4241   100.000000: PERF_RECORD_MMAP2 4241/4241: [0x55(0x1)"
	    " @ 0x1000 fe:00 1 0]: r-xp /opt/app\n"
	    "app  4241   100.000100:          1 sched:sched_switch: "
	    "prev_comm=app prev_pid=4241 ==> next_comm=swapper/0\n"
	    "\tffffffff82249f1e __schedule+0x2ae ([kernel.kallsyms])\n\n");
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_INT(p->nsamples, 1);
		CHECK_STR(p->sample_types[1].type, "sched:sched_switch");
		CHECK_STR(p->sample_types[1].unit, "events");
		CHECK_INT(p->samples[0].nlocs, 1);
		CHECK_STR(fname(p, 0, 0), "__schedule_[k]");
		profile_free(p);
	}

	/* A comm ending in a number, and one holding a colon. */
	p = dec("worker 3 4241   100.000100:     250000 cpu-clock: \n"
	    "\t            11c6 f (/opt/app)\n\n"
	    "kworker/0:1 17   100.000200:     250000 cpu-clock: \n"
	    "\t            11c6 f (/opt/app)\n\n");
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_STR(lstr(p, 0, "comm"), "worker 3");
		CHECK_INT(lnum(p, 0, "tid"), 4241);
		CHECK_STR(lstr(p, 1, "comm"), "kworker/0:1");
		CHECK_INT(lnum(p, 1, "tid"), 17);
		profile_free(p);
	}

	/* CRLF line ends, and --ns times. */
	p = dec("app 4241  100.000000100:     250000 cpu-clock: \r\n"
	    "\t            11c6 f (/opt/app)\r\n\r\n"
	    "app 4241  100.000000350:     250000 cpu-clock: \r\n"
	    "\t            11c6 f (/opt/app)\r\n\r\n");
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_INT(p->duration_nanos, 250);
		CHECK_STR(mname(p, 1, 0), "/opt/app");
		profile_free(p);
	}
}

static void
test_events(void)
{
	struct profile	*p;
	struct agg_src	 src;
	const char	*why;

	p = dec("app 4241  100.000100:     120345 cycles:u: "
	    "     55ea93a992c5 price_items+0x67 (/opt/app)\n"
	    "app 4241  100.000110:      80211 instructions:u: "
	    "     55ea93a992c5 price_items+0x67 (/opt/app)\n"
	    "app 4241  100.000350:     130001 cycles:u: "
	    "     55ea93a99214 parse+0x43 (/opt/app)\n");
	if (p == NULL) {
		CHECK_STR(msg, "(accepted)");
		return;
	}
	CHECK_INT(p->nsample_types, 4);
	CHECK_STR(p->sample_types[0].type, "cycles:u_samples");
	CHECK_STR(p->sample_types[1].type, "cycles:u");
	CHECK_STR(p->sample_types[1].unit, "events");
	CHECK_STR(p->sample_types[2].type, "instructions:u_samples");
	CHECK_STR(p->sample_types[3].type, "instructions:u");
	CHECK_STR(p->default_sample_type, "cycles:u");
	CHECK_STR(p->period_type.type, "cycles:u");
	/* Periods that vary (frequency mode) give their rounded mean. */
	CHECK_INT(p->period, 125173);
	CHECK_INT(p->samples[1].values[0], 0);
	CHECK_INT(p->samples[1].values[1], 0);
	CHECK_INT(p->samples[1].values[2], 1);
	CHECK_INT(p->samples[1].values[3], 80211);
	CHECK_INT(profile_sample_index(p, "instructions:u", NULL), 3);

	/* The statistics count each event's own samples. */
	facts_count_source(p, 1, &src, &why);
	CHECK_INT(src.count_index, 0);
	CHECK_STR(why, "the type's own count of samples");
	facts_count_source(p, 3, &src, &why);
	CHECK_INT(src.count_index, 2);
	profile_free(p);

	/* An event whose name is another's count type is refused. */
	CHECK_STR(refuse("app 4241  1.000100:  5 a:  1 f (/x)\n"
	    "app 4241  1.000200:  5 a_samples:  1 f (/x)\n"),
	    "t.perf: bad perf script output: line 2: event 'a_samples' has "
	    "the name of another event's count of samples");
}

static void
test_refusals(void)
{
	static const char ok[] =
	    "app 4241  100.000100:     250000 cpu-clock: \n"
	    "\t            11c6 hash_key+0xd (/opt/app)\n"
	    "\n";
	char buf[1024];

#define WITH(tail)	(snprintf(buf, sizeof(buf), "%s%s", ok, tail), buf)
	CHECK_STR(refuse(WITH("app 4241  100.00")), "t.perf: bad perf script "
	    "output: line 4: the input ends inside this line, "
	    "'app 4241  100.00' (truncated?)");
	CHECK_STR(refuse(WITH("\t            11c6 f (/opt/app)")), "t.perf: "
	    "bad perf script output: line 4: the input ends inside this "
	    "line, '11c6 f (/opt/app)' (truncated?)");
	CHECK_STR(refuse(WITH("app 4241  100.000350:     25o000 cpu-clock: "
	    "\n\t  11c6 f\n\n")), "t.perf: bad perf script output: line 4: "
	    "period '25o000' is not a non-negative integer");
	CHECK_STR(refuse(WITH("app 4241  100.000350:     -5 cpu-clock: "
	    "\n\t  11c6 f\n\n")), "t.perf: bad perf script output: line 4: "
	    "period '-5' is not a non-negative integer");
	CHECK_STR(refuse(WITH("app 4241  100.000350:     "
	    "9223372036854775808 cpu-clock: \n\t  11c6 f\n\n")), "t.perf: "
	    "bad perf script output: line 4: period '9223372036854775808' "
	    "is too large (more than 9223372036854775807)");
	CHECK_STR(refuse(WITH("\t            11c6 f (/opt/app)\n")), "t.perf: "
	    "bad perf script output: line 4: call chain line outside a "
	    "sample (no sample header above it)");
	CHECK_STR(refuse("\t            11c6 f (/opt/app)\n"), "t.perf: "
	    "bad perf script output: line 1: call chain line outside a "
	    "sample (no sample header above it)");
	CHECK_STR(refuse(WITH("app 4241  100.000350:     250000 cpu-clock: "
	    "\n\tmain+0x81 (/opt/app)\n\n")), "t.perf: bad perf script "
	    "output: line 5: call chain line 'main+0x81 (/opt/app)' does "
	    "not start with an address");
	CHECK_STR(refuse(WITH("app 4241  100.000350:     250000 cpu-clock: "
	    "\n")), "t.perf: bad perf script output: line 4: a sample "
	    "header with no call chain under it, where other samples have "
	    "one (truncated?)");
	/* The same, when the bare header comes first. */
	snprintf(buf, sizeof(buf), "app 4241  1.0: 5 cpu-clock: \n%s", ok);
	CHECK_STR(refuse(buf), "t.perf: bad perf script output: line 1: a "
	    "sample header with no call chain under it, where other samples "
	    "have one (truncated?)");
	CHECK_STR(refuse(WITH("app 4241  100.000350: cpu-clock: \n"
	    "\t  11c6 f\n\n")), "t.perf: bad perf script output: line 4: a "
	    "cpu-clock sample without a period, where the one at line 1 has "
	    "one");
	CHECK_STR(refuse(WITH("WARNING: perf lost 12 samples\n")), "t.perf: "
	    "bad perf script output: line 4: 'WARNING: perf lost 12 samples' "
	    "is neither a sample header (comm, tid, time:, period, event:) "
	    "nor a call chain line (a tab, then an address)");
	CHECK_STR(refuse(WITH("app 4241  100.000350:     250000 cpu-clock: "
	    "\n\t  11c6 ma\001in\n\n")), "t.perf: bad perf script output: "
	    "line 5: control byte 0x01 at column 11 (perf script output is "
	    "text)");
	CHECK_STR(refuse(""), "t.perf: bad perf script output: no samples: "
	    "the text is empty");
	CHECK_STR(refuse("# only a comment\n\n"), "t.perf: bad perf script "
	    "output: no samples: the text has no sample header");
#undef WITH
}

static void
test_limits(void)
{
	struct pd_limits lim;
	char		 buf[4096];
	size_t		 n, i;

	pd_limits_default(&lim);
	lim.max_depth = 2;
	CHECK_STR(refuse_lim("a 1  1.0: 5 c: \n\t 1 f\n\t 2 g\n\t 3 h\n\n",
	    &lim), "t.perf: limit exceeded: line 1: a call chain of more "
	    "than 2 frames (raise with --max-depth)");
	pd_limits_default(&lim);
	lim.max_locations = 2;
	CHECK_STR(refuse_lim("a 1  1.0: 5 c: \n\t 1 f\n\t 2 f\n\t 3 f\n\n",
	    &lim), "t.perf: limit exceeded: line 4: more than 2 locations "
	    "(raise with --max-locations)");
	pd_limits_default(&lim);
	lim.max_functions = 1;
	CHECK_STR(refuse_lim("a 1  1.0: 5 c: \n\t 1 f\n\t 2 g\n\n", &lim),
	    "t.perf: limit exceeded: line 3: more than 1 functions (raise "
	    "with --max-functions)");
	pd_limits_default(&lim);
	/* The event, the comm, the dso and f; g is one more. */
	lim.max_strings = 4;
	CHECK_STR(refuse_lim("a 1  1.0: 5 c: \n\t 1 f (/x)\n\t 2 g (/x)\n\n",
	    &lim), "t.perf: limit exceeded: line 3: more than 4 distinct "
	    "names (raise with --max-strings)");

	/* 33 events are 66 sample types, more than profile.proto's 64. */
	for (i = 0, n = 0; i < 33; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
		    "a 1  1.0: 5 e%zu:  1 f\n", i);
	CHECK_STR(refuse(buf), "t.perf: limit exceeded: line 33: more than "
	    "32 events (each is a sample type, beside its count)");
}

static void
test_sniff(void)
{
	static const char folded[] = "main;work;leaf 3\nmain;idle 1\n";
	static const unsigned char pb[] = { 0x0a, 0x04, 0x08, 0x01, 0x10,
	    0x02, 0x32, 0x00, 0x32, 0x01, 'a', 0x32, 0x01, 'b' };

#define SNIFF(s)	perfscript_sniff(s, sizeof(s) - 1)
	CHECK_INT(perfscript_sniff(default_text, strlen(default_text)), 1);
	CHECK_INT(input_sniff(default_text, strlen(default_text)),
	    INPUT_PERFSCRIPT);
	CHECK_INT(SNIFF("  app 1 1.5: 7 c:  1 f\n"), 1);
	/* A thread and an event, without a time. */
	CHECK_INT(SNIFF("app 17 cpu-clock:  1 f\n"), 1);
	/* The tid alone needs a call chain line under it, as perf has it. */
	CHECK_INT(SNIFF("  4241 \n\t            11c6\n"), 1);
	CHECK_INT(SNIFF("  4241 \n\tffffffff81d73c65 f\n"), 1);
	CHECK_INT(SNIFF("  4241 \n            11c6\n"), 0);
	/* A folded line, then a tab and a number (folded's no-frames). */
	CHECK_INT(SNIFF("main;work 5\n\t17\n"), 0);
	CHECK_INT(SNIFF("main;work 5\n\t               17x f\n"), 0);
	CHECK_INT(SNIFF("main;work 5\n\t                17 f\n"), 0);
	CHECK_INT(SNIFF("# c\n#\n\napp 1 1.5: 7 c: \n\t 1 f\n"), 1);
	CHECK_INT(SNIFF("x 1 1.5: PERF_RECORD_MMAP2 1/1: [0x1(0x1)]\n"
	    "app 1 1.5: 7 c: \n"), 1);
	/* Folded stacks, empty and blank text, binary, an event alone. */
	CHECK_INT(perfscript_sniff(folded, strlen(folded)), 0);
	CHECK_INT(input_sniff(folded, strlen(folded)), INPUT_FOLDED);
	CHECK_INT(SNIFF(""), 0);
	CHECK_INT(SNIFF("\n \n"), 0);
	CHECK_INT(perfscript_sniff(pb, sizeof(pb)), 0);
	CHECK_INT(SNIFF("WARNING: perf lost 12 samples\n"), 0);
	CHECK_INT(SNIFF("main;run: 12\n"), 0);
	/* A first line cut short, or a control byte in it. */
	CHECK_INT(SNIFF("app 1 1.5: 7 c: "), 0);
	CHECK_INT(SNIFF("app 1 1.5: 7 c\001: \n"), 0);
	/* Legacy text is no perf script, though it has colons. */
	CHECK_INT(SNIFF("--- contention:\ncycles/second=1\n"), 0);
	CHECK_INT(SNIFF("heap profile: 1: 2 [3: 4] @ heap/1048576\n"), 0);
#undef SNIFF
}

/* Detection through pprof_decode(), raw and gzipped. */
static void
test_detect(void)
{
	unsigned char	 gz[4096];
	uLongf		 gzlen = sizeof(gz);
	struct profile	*p;
	struct diag	 d;
	z_stream	 z;

	diag_init(&d, "t.perf");
	p = pprof_decode(default_text, strlen(default_text), "t.perf", NULL,
	    &d);
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_INT(p->nsamples, 4);
		profile_free(p);
	}
	memset(&z, 0, sizeof(z));
	CHECK_INT(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9,
	    Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)default_text;
	z.avail_in = (uInt)strlen(default_text);
	z.next_out = gz;
	z.avail_out = (uInt)gzlen;
	CHECK_INT(deflate(&z, Z_FINISH), Z_STREAM_END);
	gzlen = z.total_out;
	deflateEnd(&z);
	p = pprof_decode(gz, gzlen, "t.perf.gz", NULL, &d);
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_INT(p->nsamples, 4);
		CHECK_STR(p->path, "t.perf.gz");
		profile_free(p);
	}
}

int
main(void)
{
	test_default();
	test_fields();
	test_events();
	test_refusals();
	test_limits();
	test_sniff();
	test_detect();
	return tap_done();
}

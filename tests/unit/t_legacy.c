/*
 * Tests for the legacy decoder (legacy.c, legacy_parse.c,
 * legacy_maps.c): small inputs whose model is what `go tool pprof -raw
 * -symbolize=none` prints for them (values, adjusted addresses,
 * mappings, Java frames), the corners of pprof's regular expressions,
 * and inputs refused in one line.  The whole files are compared with
 * pprof's -top by tests/conformance.sh.
 */
#include <stdint.h>
#include <string.h>

#include "support/diag.h"
#include "input/legacy.h"
#include "model/profile.h"
#include "tap.h"

static struct profile *
decode(const char *s, size_t n, struct diag *d)
{
	diag_init(d, "t");
	return legacy_decode(s, n, "t", NULL, d);
}

#define DECODE(lit, d)	decode(lit, sizeof(lit) - 1, d)

/* "100 @": the expression splits the one number, as pprof's does. */
static void
test_contention(void)
{
	struct diag	 d;
	struct profile	*p;

	p = DECODE("--- contention:\n100 @ 0x2\n", &d);
	CHECK(p != NULL && p->nsamples == 1 && p->nsample_types == 2);
	if (p == NULL)
		return;
	CHECK_STR(p->sample_types[1].type, "delay");
	CHECK_INT(p->samples[0].values[0], 0);
	CHECK_INT(p->samples[0].values[1], 10);
	CHECK_INT(p->samples[0].locs[0]->address, 0x1);
	CHECK_INT(p->nmappings, 1);	/* the fake one, all of memory */
	CHECK(p->mappings[0].memory_limit == UINT64_MAX);
	profile_free(p);
}

/* heap_v2: 1 object of 1024 bytes at rate 524288 is 512 of 524800. */
static void
test_heap(void)
{
	struct diag	 d;
	struct profile	*p;

	p = DECODE("heap profile: 1: 1024 [1: 1024] @ heap_v2/524288\n"
	    "1: 1024 [1: 1024] @ 0x10 0x20\n", &d);
	CHECK(p != NULL && p->nsamples == 1 && p->nsample_types == 2);
	if (p == NULL)
		return;
	CHECK_STR(p->sample_types[0].type, "objects");
	CHECK_INT(p->samples[0].values[0], 512);
	CHECK_INT(p->samples[0].values[1], 524800);
	CHECK_INT(p->samples[0].nlabels, 1);
	CHECK_INT(p->samples[0].labels[0].num, 1024);
	/* Every frame of a heap sample, the leaf too, is moved back by one. */
	CHECK_INT(p->samples[0].locs[0]->address, 0xf);
	CHECK_INT(p->samples[0].locs[1]->address, 0x1f);
	CHECK(p->drop_frames != NULL && strstr(p->drop_frames, "malloc"));
	profile_free(p);
}

/*
 * The memory map: "base=/opt" reads as a mapping 0xb-0xa (its "ba" is
 * hex), so $base is never replaced; a mapping that is not executable is
 * left out; a glog prefix goes; the main binary comes first.
 */
static void
test_maps(void)
{
	struct diag	 d;
	struct profile	*p;

	p = DECODE("goroutine profile: total 2\n2 @ 0x1001 0x2001\n"
	    "--- Memory map: ---\nbase=/opt\n"
	    "7f0000000000-7f0000001000 r-xp 00000000 08:01 5 /lib/libc.so.6\n"
	    "00400000-00401000 r--p 00000000 08:01 6 /opt/app\n"
	    "I0101 maps.cc:12] 00001000-00003000: $base/app (@0) abc123\n",
	    &d);
	CHECK(p != NULL && p->nsamples == 1);
	if (p == NULL)
		return;
	CHECK_INT(p->samples[0].values[0], 2);
	CHECK_INT(p->nmappings, 3);
	CHECK_STR(p->mappings[0].filename, "$base/app");
	CHECK_STR(p->mappings[0].build_id, "abc123");
	CHECK_INT(p->mappings[0].memory_start, 0x1000);
	CHECK_INT(p->mappings[0].memory_limit, 0x3000);
	CHECK_STR(p->mappings[2].filename, "");
	CHECK_INT(p->mappings[2].memory_start, 0xb);
	CHECK_INT(p->samples[0].locs[0]->address, 0x1000);
	CHECK(p->samples[0].locs[0]->mapping == &p->mappings[0]);
	CHECK(p->samples[0].locs[1]->mapping == &p->mappings[0]);
	profile_free(p);

	/* "$name" from a line that is not hex is replaced. */
	p = DECODE("goroutine profile: total 1\n1 @ 0x1001\n"
	    "--- Memory map: ---\nsrc = /opt\n00001000-00003000: $src/app\n",
	    &d);
	CHECK(p != NULL && p->nmappings == 1);
	if (p != NULL)
		CHECK_STR(p->mappings[0].filename, "/opt/app");
	profile_free(p);
}

/* threadz: the leaf is not moved; "same as previous" counts again. */
static void
test_thread(void)
{
	struct diag	 d;
	struct profile	*p;

	p = DECODE("--- threadz 1 ---\n\n--- Thread 1 (name: a/1) stack: ---\n"
	    "  PC: 0x10 0x20\n--- Thread 2 (name: b/2) stack: ---\n"
	    "  [same as previous thread]\n--- Memory map: ---\n", &d);
	CHECK(p != NULL && p->nsamples == 1);
	if (p == NULL)
		return;
	CHECK_INT(p->samples[0].values[0], 2);
	CHECK_INT(p->samples[0].locs[0]->address, 0x10);
	CHECK_INT(p->samples[0].locs[1]->address, 0x1f);
	profile_free(p);

	/* No memory map: not a thread profile pprof reads. */
	p = DECODE("--- threadz 1 ---\n--- Thread 1 (name: a/1) stack: ---\n"
	    "  PC: 0x10\n", &d);
	CHECK(p == NULL && d.code == DIAG_LEGACY);
}

/* Java: frames named from the location lines, addresses dropped. */
static void
test_java(void)
{
	struct diag	 d;
	struct profile	*p;
	const struct pf_line *ln;

	p = DECODE("--- heapz 1 ---\nformat = java\nresolution = bytes\n"
	    "  1024 2 @ 0x1 0x2 0x3 0x4\n 0x1 com.Foo.bar (Foo.java:12)\n"
	    " 0x2 libc  (/lib/x/libc.so)\n 0x3 generated stub/JIT\n", &d);
	CHECK(p != NULL && p->nsamples == 1 && p->nlocations == 4);
	if (p == NULL)
		return;
	CHECK_STR(p->sample_types[1].type, "inuse_space");
	CHECK_INT(p->samples[0].values[0], 2049);
	CHECK_INT(p->samples[0].values[1], 1049088);
	CHECK_INT(p->samples[0].labels[0].num, 512);
	ln = p->samples[0].locs[0]->lines;
	CHECK(ln != NULL && ln->function != NULL);
	if (ln != NULL && ln->function != NULL) {
		CHECK_STR(ln->function->name, "com.Foo.bar");
		CHECK_STR(ln->function->filename, "Foo.java");
		CHECK_INT(ln->line, 12);
	}
	ln = p->samples[0].locs[1]->lines;
	if (ln != NULL && ln->function != NULL) {
		CHECK_STR(ln->function->name, "libc ");
		CHECK_STR(ln->function->filename, "libc.so");
	}
	ln = p->samples[0].locs[2]->lines;
	CHECK(ln != NULL && ln->function != NULL &&
	    strcmp(ln->function->name, "STUB") == 0);
	CHECK_INT(p->samples[0].locs[3]->nlines, 0);
	CHECK_INT(p->samples[0].locs[3]->address, 0);
	profile_free(p);
}

/*
 * Big-endian 32-bit CPU profiles.  With two samples whose second frames
 * differ, nothing is stripped; with one, its second frame is "most
 * samples' second frame", the signal handler's to pprof, and goes, twice.
 */
static void
test_cpu(void)
{
	static const unsigned char two[] = {
		0,0,0,0, 0,0,0,3, 0,0,0,0, 0,0,0x27,0x10, 0,0,0,0,
		0,0,0,2, 0,0,0,2, 0,0,0x10,0, 0,0,0x20,0,
		0,0,0,1, 0,0,0,2, 0,0,0x10,0, 0,0,0x30,0,
		0,0,0,0, 0,0,0,1, 0,0,0,0,
	};
	static const unsigned char one[] = {
		0,0,0,0, 0,0,0,3, 0,0,0,0, 0,0,0x27,0x10, 0,0,0,0,
		0,0,0,2, 0,0,0,3, 0,0,0x10,0, 0,0,0x20,0, 0,0,0x30,0,
		0,0,0,0, 0,0,0,1, 0,0,0,0,
	};
	struct diag	 d;
	struct profile	*p;

	p = decode((const char *)two, sizeof(two), &d);
	CHECK(p != NULL && p->nsamples == 2);
	if (p == NULL)
		return;
	CHECK_INT(p->period, 10000000);
	CHECK_INT(p->samples[0].values[0], 2);
	CHECK_INT(p->samples[0].values[1], 20000000);
	CHECK_INT(p->samples[0].nlocs, 2);
	CHECK_INT(p->samples[0].locs[0]->address, 0x1000);
	CHECK_INT(p->samples[0].locs[1]->address, 0x1fff);
	CHECK_INT(p->samples[1].locs[1]->address, 0x2fff);
	profile_free(p);

	p = decode((const char *)one, sizeof(one), &d);
	CHECK(p != NULL && p->nsamples == 1);
	if (p != NULL)
		CHECK_INT(p->samples[0].nlocs, 1);
	profile_free(p);

	/* Cut in the end-of-data mark, and in a stack. */
	p = decode((const char *)two, sizeof(two) - 12, &d);
	CHECK(p == NULL && d.code == DIAG_CORRUPT);
	p = decode((const char *)two, sizeof(two) - 13, &d);
	CHECK(p == NULL && d.code == DIAG_CORRUPT);
}

/* Refusals: one line, naming the line. */
static void
test_refusals(void)
{
	struct diag	 d;
	char		 msg[512];
	static char	 longline[70000];

	CHECK(DECODE("heap profile: 1: 2 [1: 2] @ heap/8\n1: 2 [1 2] @ 0x1\n",
	    &d) == NULL);
	diag_format(&d, msg, sizeof(msg));
	CHECK_STR(msg, "t: corrupt profile: legacy heap profile: line 2: not "
	    "a heap sample: '1: 2 [1 2] @ 0x1'");
	CHECK(DECODE("--- heapz 1 ---\n0 0 @ 0\n", &d) == NULL);
	CHECK_INT(d.code, DIAG_CORRUPT);
	CHECK(DECODE("--- nothing ---\n", &d) == NULL);
	CHECK_INT(d.code, DIAG_LEGACY);

	memcpy(longline, "heap profile: 1: 2 [1: 2] @ heap/8\n1: 2 [1: 2] @", 47);
	memset(longline + 47, ' ', sizeof(longline) - 47);
	CHECK(decode(longline, sizeof(longline), &d) == NULL);
	diag_format(&d, msg, sizeof(msg));
	CHECK_STR(msg, "t: corrupt profile: legacy heap profile: line 2: "
	    "longer than 65535 bytes, the longest line pprof reads");
}

int
main(void)
{
	test_contention();
	test_heap();
	test_maps();
	test_thread();
	test_java();
	test_cpu();
	test_refusals();
	return tap_done();
}

/*
 * Tests for input_sniff() and input_refuse(): the one place that says
 * what kind of bytes an input holds.  Each kind is checked at its
 * edges: the order in which the kinds are tried (a legacy text profile
 * is also text), the white space a legacy header may follow, the
 * lengths at which the gperftools header is recognized, and text that
 * holds a control byte after a well-formed first stack.
 */
#include <string.h>

#include "support/diag.h"
#include "input/input.h"
#include "tap.h"

#define SNIFF(lit)	input_sniff(lit, sizeof(lit) - 1)

static void
test_kinds(void)
{
	static const unsigned char cpu64[16] = { 0,0,0,0,0,0,0,0, 3,0,0,0,0,0,0,0 };
	static const unsigned char cpu32[12] = { 0,0,0,0, 3,0,0,0, 0,0,0,0 };
	/* sample_type { type: 1 unit: 2 }, string_table "", "a", "b". */
	static const unsigned char pb[] = { 0x0a, 0x04, 0x08, 0x01, 0x10, 0x02,
	    0x32, 0x00, 0x32, 0x01, 'a', 0x32, 0x01, 'b' };

	CHECK_INT(input_sniff("", 0), INPUT_EMPTY);
	CHECK_INT(input_sniff(pb, 0), INPUT_EMPTY);
	CHECK_INT(input_sniff(pb, sizeof(pb)), INPUT_PROTOBUF);

	/* Legacy text comes before folded stacks: it is text too. */
	CHECK_INT(SNIFF("heap profile: 1: 2 [3: 4] @ heap/1048576\n"),
	    INPUT_LEGACY_TEXT);
	CHECK_INT(SNIFF(" \t\r\n--- contention:\ncycles/second=1\n"),
	    INPUT_LEGACY_TEXT);
	CHECK_INT(SNIFF("goroutine profile: total 4\n"), INPUT_LEGACY_TEXT);
	CHECK_INT(SNIFF("heap_v2/524288"), INPUT_LEGACY_TEXT);
	/* A prefix cut short is folded text, not a legacy profile. */
	CHECK_INT(SNIFF("heap profile"), INPUT_FOLDED);
	CHECK_INT(SNIFF("x heap profile: 1\n"), INPUT_FOLDED);

	/* The gperftools header, in 64 and 32 bits. */
	CHECK_INT(input_sniff(cpu64, 16), INPUT_LEGACY_CPU);
	CHECK_INT(input_sniff(cpu32, 12), INPUT_LEGACY_CPU);
	/* Big endian, as pprof also reads it. */
	CHECK_INT(SNIFF("\0\0\0\0\0\0\0\3\0\0\0\0"), INPUT_LEGACY_CPU);
	CHECK_INT(SNIFF("\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\3"),
	    INPUT_LEGACY_CPU);
	/* A threadz dump that starts at its first thread. */
	CHECK_INT(SNIFF("--- Thread 7f (name: main/1) stack: ---\n"),
	    INPUT_LEGACY_TEXT);
	/* The 32-bit header needs its third word. */
	CHECK_INT(input_sniff(cpu32, 11), INPUT_PROTOBUF);

	CHECK_INT(SNIFF("main;work;leaf 3\nmain;idle 1\n"), INPUT_FOLDED);
	/* A stray NUL after a well-formed first line is still folded. */
	CHECK_INT(SNIFF("main;leaf 3\nmain\0x 1\n"), INPUT_FOLDED);
	/* Before it, the bytes are binary. */
	CHECK_INT(SNIFF("main\0;leaf 3\n"), INPUT_PROTOBUF);
}

static void
test_refusals(void)
{
	char		 msg[512];
	struct diag	 d;

	diag_init(&d, "x.pb");
	CHECK_INT(input_refuse(INPUT_EMPTY, &d), -1);
	CHECK_INT(d.code, DIAG_EMPTY);
	diag_format(&d, msg, sizeof(msg));
	CHECK_STR(msg, "x.pb: empty profile: file is empty");

}

int
main(void)
{
	test_kinds();
	test_refusals();
	return tap_done();
}

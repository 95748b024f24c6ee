/*
 * The reading room: what kind of bytes an input holds, decided once,
 * and the refusal of the kinds profdiff does not read.  No decoding
 * here: folded stacks and protobuf go to their decoders.
 */
#include <string.h>

#include "diag.h"
#include "folded.h"
#include "input.h"

static int
has_prefix(const unsigned char *buf, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(buf, prefix, n) == 0;
}

/*
 * The legacy formats pprof still reads: the text heap, contention,
 * thread and goroutine dumps, and the gperftools binary CPU profile,
 * whose header is the words 0, 3, 0 in 32- or 64-bit little endian.
 */
static enum input_kind
legacy_kind(const unsigned char *buf, size_t len)
{
	static const char *const text[] = {
		"heap profile:", "heap_v2/", "--- heapz", "--- contention",
		"--- threadz", "goroutine profile:", "threadcreate profile:",
		"--- mutex", "--- block",
	};
	static const unsigned char cpu64[16] = { 0,0,0,0,0,0,0,0, 3,0,0,0,0,0,0,0 };
	static const unsigned char cpu32[8] = { 0,0,0,0, 3,0,0,0 };
	size_t i;

	while (len > 0 && (*buf == ' ' || *buf == '\t' || *buf == '\n' ||
	    *buf == '\r')) {
		buf++;
		len--;
	}
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		if (has_prefix(buf, len, text[i]))
			return INPUT_LEGACY_TEXT;
	if (len >= 16 && memcmp(buf, cpu64, 16) == 0)
		return INPUT_LEGACY_CPU;
	if (len >= 12 && memcmp(buf, cpu32, 8) == 0)
		return INPUT_LEGACY_CPU;
	return INPUT_PROTOBUF;
}

enum input_kind
input_sniff(const void *vbuf, size_t len)
{
	enum input_kind	 k;

	if (len == 0)
		return INPUT_EMPTY;
	if ((k = legacy_kind(vbuf, len)) != INPUT_PROTOBUF)
		return k;
	/* Text is folded stacks, unless it is a legacy pprof format. */
	return folded_sniff(vbuf, len) ? INPUT_FOLDED : INPUT_PROTOBUF;
}

int
input_refuse(enum input_kind k, struct diag *d)
{
	if (k == INPUT_EMPTY)
		return diag_set(d, DIAG_EMPTY, -1, "file is empty");
	return diag_set(d, DIAG_LEGACY, -1, "%s; profdiff reads only the "
	    "protobuf format (convert it with 'go tool pprof -proto')",
	    k == INPUT_LEGACY_CPU ? "a legacy gperftools CPU profile" :
	    "a legacy text profile");
}

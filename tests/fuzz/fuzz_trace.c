/*
 * Fuzz target: bytes -> trace_decode(), the reader of profdiff spans'
 * traces (OTLP/JSON and Jaeger JSON, through json-c).  Whatever the
 * bytes, it must either refuse them with one line that says the trace
 * is bad, or give spans whose ids are 1 to 32 hex digits in lower case
 * and whose durations are not negative; the model's own functions then
 * hold: dedup leaves ids strictly increasing, and a quantile is one of
 * the durations.  Built with libFuzzer by `make fuzz`;
 * tests/fuzz/replay.c runs it on the seeds in `make check`.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/trace.h"
#include "model/spans.h"
#include "support/diag.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_span(const struct span *s)
{
	size_t n = strlen(s->id), i;

	if (n == 0 || n > 32 || s->dur_ns < 0 || s->name == NULL)
		abort();
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s->id[i]) ||
		    isupper((unsigned char)s->id[i]))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct spans	 s;
	struct diag	 d;
	int64_t		*dur, q;
	size_t		 i;

	spans_init(&s);
	if (trace_decode((const char *)data, len, "fuzz", &s, &d) == -1) {
		if (strchr(d.msg, '\n') != NULL ||
		    strncmp(d.msg, "bad trace: ", 11) != 0)
			abort();
		spans_release(&s);
		return 0;
	}
	for (i = 0; i < s.n; i++)
		check_span(&s.v[i]);
	(void)spans_dedup(&s);
	dur = calloc(s.n + 1, sizeof(*dur));
	if (dur == NULL)
		abort();
	for (i = 0; i < s.n; i++) {
		if (i > 0 && strcmp(s.v[i - 1].id, s.v[i].id) >= 0)
			abort();
		dur[i] = s.v[i].dur_ns;
	}
	q = spans_quantile(dur, s.n, 0.9);
	for (i = 0; i < s.n && dur[i] != q; i++)
		;
	if (s.n > 0 && i == s.n)
		abort();
	free(dur);
	spans_release(&s);
	return 0;
}

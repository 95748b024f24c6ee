/*
 * A trace's spans (input/trace.c, model/spans.c) from bytes whose
 * answer is known: OTLP/JSON with times as strings and as numbers, one
 * object or one a line, the scope's old name; Jaeger's JSON in
 * microseconds; ids in lower case; a span written twice kept once; the
 * nearest-rank quantiles; and each refusal, naming the span.
 */
#include <stdint.h>
#include <string.h>

#include "input/trace.h"
#include "model/spans.h"
#include "support/diag.h"
#include "tap.h"

static int
decode(const char *json, struct spans *s, struct diag *d)
{
	spans_init(s);
	return trace_decode(json, strlen(json), "t.json", s, d);
}

static void
test_otlp(void)
{
	struct spans	 s;
	struct diag	 d;
	const char	*one =
	    "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":["
	    "{\"spanId\":\"00F067AA0BA902B7\",\"name\":\"GET /a\","
	    "\"startTimeUnixNano\":\"1000\",\"endTimeUnixNano\":\"251000\"},"
	    "{\"spanId\":\"53995c3f42cd8ad8\",\"name\":\"GET /b\","
	    "\"startTimeUnixNano\":5,\"endTimeUnixNano\":10}]}]}]}\n"
	    "{\"resourceSpans\":[{\"instrumentationLibrarySpans\":[{\"spans\":["
	    "{\"spanId\":\"00f067aa0ba902b7\",\"name\":\"GET /a\","
	    "\"startTimeUnixNano\":\"1\",\"endTimeUnixNano\":\"2\"}]}]}]}\n";

	CHECK_INT(decode(one, &s, &d), 0);
	CHECK_STR(s.format, "OTLP/JSON");
	CHECK_INT(s.n, 3);
	CHECK_STR(s.v[0].id, "00f067aa0ba902b7");
	CHECK_INT(s.v[0].dur_ns, 250000);
	CHECK_INT(s.v[1].dur_ns, 5);
	CHECK_STR(s.v[1].name, "GET /b");
	/* Written twice: the first kept. */
	CHECK_INT(spans_dedup(&s), 1);
	CHECK_INT(s.n, 2);
	CHECK_INT(s.v[0].dur_ns, 250000);
	spans_release(&s);
}

static void
test_jaeger(void)
{
	struct spans	 s;
	struct diag	 d;

	CHECK_INT(decode("{\"data\":[{\"traceID\":\"ab\",\"spans\":["
	    "{\"spanID\":\"0A\",\"operationName\":\"q\",\"startTime\":7,"
	    "\"duration\":1500}]},{\"spans\":[]}],\"total\":0}", &s, &d), 0);
	CHECK_STR(s.format, "Jaeger JSON");
	CHECK_INT(s.n, 1);
	CHECK_STR(s.v[0].id, "0a");
	CHECK_STR(s.v[0].name, "q");
	CHECK_INT(s.v[0].dur_ns, 1500000);
	spans_release(&s);
}

static void
refused(const char *json, const char *msg)
{
	struct spans	 s;
	struct diag	 d;

	CHECK_INT(decode(json, &s, &d), -1);
	CHECK_STR(d.msg, msg);
	spans_release(&s);
}

static void
test_refused(void)
{
	refused("", "bad trace: empty");
	refused("[1, 2]", "bad trace: neither OTLP/JSON (resourceSpans[]) nor "
	    "Jaeger JSON (data[].spans[])");
	refused("{\"data\":[{\"spans\":[{\"operationName\":\"q\"}]}]}",
	    "bad trace: span 1: no spanID");
	refused("{\"data\":[{\"spans\":[{\"spanID\":\"ab\",\"duration\":-1}]}]}",
	    "bad trace: span 1: duration must be a whole number of "
	    "microseconds");
	refused("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":["
	    "{\"spanId\":\"ab\",\"startTimeUnixNano\":\"9\","
	    "\"endTimeUnixNano\":\"3\"}]}]}]}",
	    "bad trace: span 1: it ends before it starts");
	refused("{\"data\":[{\"spans\":[]}]}\n{\"resourceSpans\":[]}",
	    "bad trace: object 2 is not of the first's format");
	refused("{\"data\":[{\"spans\":[{\"spanID\":"
	    "\"000000000000000000000000000000001\",\"duration\":1}]}]}",
	    "bad trace: span 1: spanID \"000000000000000000000000000000001\" "
	    "is not 1 to 32 hex digits");
}

static void
test_quantile(void)
{
	int64_t	 d[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

	CHECK_INT(spans_quantile(d, 10, 0.9), 9);
	CHECK_INT(spans_quantile(d, 10, 0.5), 5);
	CHECK_INT(spans_quantile(d, 10, 0.99), 10);
	CHECK_INT(spans_quantile(d, 1, 0.9), 1);
	CHECK_INT(spans_quantile(d, 0, 0.9), 0);
}

int
main(void)
{
	test_otlp();
	test_jaeger();
	test_refused();
	test_quantile();
	return tap_done();
}

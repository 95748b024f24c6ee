/*
 * Reading a trace: the spans of a window, from an OpenTelemetry
 * OTLP/JSON export (ExportTraceServiceRequest objects, one or one a
 * line, as the collector's file exporter writes them) or Jaeger's JSON
 * ({"data":[{"spans":[...]}]}, its HTTP API's answer), plain or
 * gzipped, told apart by their content.  The JSON is json-c's to parse.
 * It prints nothing: on error the diag names the file and what is
 * wrong with it.
 */
#ifndef TRACE_H
#define TRACE_H

#include <stddef.h>

#include "model/spans.h"

struct diag;
struct pd_limits;

/*
 * Read path (gzipped or not, under the limits) and add its spans to
 * out (spans_init()'d).  Returns 0, or -1 with the diag filled (and out
 * to be released by the caller).
 */
int	trace_load(const char *path, const struct pd_limits *,
	    struct spans *out, struct diag *);
/* The same, of bytes already in memory (not gzipped). */
int	trace_decode(const char *buf, size_t len, const char *path,
	    struct spans *out, struct diag *);

#endif

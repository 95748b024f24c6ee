/*
 * A trace's spans, from OTLP/JSON or Jaeger's JSON, parsed by json-c.
 * OTLP/JSON (the OpenTelemetry protocol's JSON mapping) writes ids as
 * hex strings and times as nanoseconds since the epoch, as strings or
 * numbers; Jaeger writes spanID in hex, startTime and duration in
 * microseconds, and the span's operationName.  The shape decides which
 * it is, object by object: a file may hold several objects, one a line
 * as the collector's file exporter writes them.  Nothing is repaired: a
 * span without an id or a time is refused, naming the span.  No
 * printing here.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "input/input.h"
#include "input/trace.h"
#include "model/spans.h"
#include "profdiff.h"
#include "support/diag.h"

/* The longest span id taken: 128 bits in hex. */
#define TRACE_MAX_ID	32

/* Where a span is, for the messages: its object, its place in it. */
struct where {
	size_t		 obj;		/* 1-based */
	size_t		 span;		/* 1-based, in the object */
	const char	*path;
};

static int
bad(struct diag *d, const struct where *w, const char *fmt, const char *a,
    const char *b)
{
	char what[160];

	snprintf(what, sizeof(what), fmt, a, b);
	if (w->obj > 1)
		return diag_set(d, DIAG_PAIR, -1, "bad trace: object %zu, "
		    "span %zu: %s", w->obj, w->span, what);
	return diag_set(d, DIAG_PAIR, -1, "bad trace: span %zu: %s",
	    w->span, what);
}

/* A span id: 1 to TRACE_MAX_ID hex digits.  Its length, or 0. */
static size_t
hex_id(const char *s)
{
	size_t n;

	for (n = 0; s[n] != '\0'; n++)
		if (!isxdigit((unsigned char)s[n]) || n >= TRACE_MAX_ID)
			return 0;
	return n;
}

/*
 * A whole number, written as a JSON number or a string of digits (as
 * OTLP/JSON writes 64-bit integers): 0 with *v, or -1.
 */
static int
whole(json_object *o, int64_t *v)
{
	const char	*s;
	char		*end;
	long long	 x;
	double		 f;

	if (o == NULL)
		return -1;
	switch (json_object_get_type(o)) {
	case json_type_int:
		errno = 0;
		*v = json_object_get_int64(o);
		return errno == 0 ? 0 : -1;
	case json_type_double:
		f = json_object_get_double(o);
		if (!(f >= 0 && f < 9.2e18))
			return -1;
		*v = (int64_t)f;
		return 0;
	case json_type_string:
		s = json_object_get_string(o);
		if (!isdigit((unsigned char)*s))
			return -1;
		errno = 0;
		x = strtoll(s, &end, 10);
		if (errno != 0 || *end != '\0')
			return -1;
		*v = x;
		return 0;
	default:
		return -1;
	}
}

static const char *
str_of(json_object *parent, const char *key)
{
	json_object *o;

	if (!json_object_object_get_ex(parent, key, &o) ||
	    !json_object_is_type(o, json_type_string))
		return NULL;
	return json_object_get_string(o);
}

static json_object *
array_of(json_object *parent, const char *key)
{
	json_object *o;

	if (parent == NULL || !json_object_is_type(parent, json_type_object) ||
	    !json_object_object_get_ex(parent, key, &o) ||
	    !json_object_is_type(o, json_type_array))
		return NULL;
	return o;
}

/* The id of span sp, under key: its length, or 0 after the diag. */
static size_t
span_id(json_object *sp, const char *key, const char **id,
    const struct where *w, struct diag *d)
{
	char	shown[41];		/* 40 bytes of the id at most */
	size_t	n;

	if ((*id = str_of(sp, key)) == NULL) {
		bad(d, w, "no %s%s", key, "");
		return 0;
	}
	if ((n = hex_id(*id)) == 0) {
		(void)diag_printable(shown, sizeof(shown), *id, strlen(*id));
		bad(d, w, "%s \"%s\" is not 1 to 32 hex digits", key, shown);
		return 0;
	}
	return n;
}

/* One OTLP span. */
static int
otlp_span(json_object *sp, const struct where *w, struct spans *out,
    struct diag *d)
{
	json_object	*t0, *t1;
	const char	*id, *name;
	int64_t		 a, b;
	size_t		 n;

	if (!json_object_is_type(sp, json_type_object))
		return bad(d, w, "not an object%s%s", "", "");
	if ((n = span_id(sp, "spanId", &id, w, d)) == 0)
		return -1;
	if ((name = str_of(sp, "name")) == NULL)
		name = "";
	if (!json_object_object_get_ex(sp, "startTimeUnixNano", &t0) ||
	    !json_object_object_get_ex(sp, "endTimeUnixNano", &t1) ||
	    whole(t0, &a) == -1 || whole(t1, &b) == -1)
		return bad(d, w, "startTimeUnixNano and endTimeUnixNano must "
		    "be whole numbers of nanoseconds%s%s", "", "");
	if (b < a)
		return bad(d, w, "it ends before it starts%s%s", "", "");
	spans_add(out, id, n, name, b - a);
	return 0;
}

/*
 * An ExportTraceServiceRequest: resourceSpans[].scopeSpans[].spans[]
 * (instrumentationLibrarySpans before OTLP 0.19).
 */
static int
otlp(json_object *root, struct where *w, struct spans *out, struct diag *d)
{
	json_object	*rs = array_of(root, "resourceSpans"), *ss, *sp;
	size_t		 i, j, k;

	w->span = 0;
	for (i = 0; i < json_object_array_length(rs); i++) {
		json_object *r = json_object_array_get_idx(rs, i);

		if ((ss = array_of(r, "scopeSpans")) == NULL)
			ss = array_of(r, "instrumentationLibrarySpans");
		for (j = 0; ss != NULL && j < json_object_array_length(ss);
		    j++) {
			sp = array_of(json_object_array_get_idx(ss, j), "spans");
			for (k = 0; sp != NULL &&
			    k < json_object_array_length(sp); k++) {
				w->span++;
				if (otlp_span(json_object_array_get_idx(sp, k),
				    w, out, d) == -1)
					return -1;
			}
		}
	}
	return 0;
}

/* Jaeger's answer: data[].spans[], times in microseconds. */
static int
jaeger(json_object *root, struct where *w, struct spans *out,
    struct diag *d)
{
	json_object	*data = array_of(root, "data"), *sp, *o, *dur;
	const char	*id, *name;
	int64_t		 us;
	size_t		 i, k, n;

	w->span = 0;
	for (i = 0; i < json_object_array_length(data); i++) {
		sp = array_of(json_object_array_get_idx(data, i), "spans");
		for (k = 0; sp != NULL && k < json_object_array_length(sp);
		    k++) {
			o = json_object_array_get_idx(sp, k);
			w->span++;
			if (!json_object_is_type(o, json_type_object))
				return bad(d, w, "not an object%s%s", "", "");
			if ((n = span_id(o, "spanID", &id, w, d)) == 0)
				return -1;
			if ((name = str_of(o, "operationName")) == NULL)
				name = "";
			if (!json_object_object_get_ex(o, "duration", &dur) ||
			    whole(dur, &us) == -1 || us < 0 ||
			    us > INT64_MAX / 1000)
				return bad(d, w, "duration must be a whole "
				    "number of microseconds%s%s", "", "");
			spans_add(out, id, n, name, us * 1000);
		}
	}
	return 0;
}

/* Which of the two, by shape: 1 OTLP, 2 Jaeger, 0 neither. */
static int
shape(json_object *root)
{
	if (array_of(root, "resourceSpans") != NULL)
		return 1;
	if (array_of(root, "data") != NULL)
		return 2;
	return 0;
}

int
trace_decode(const char *buf, size_t len, const char *path,
    struct spans *out, struct diag *d)
{
	struct json_tokener	*tok;
	json_object		*root;
	enum json_tokener_error	 e;
	struct where		 w = { 0, 0, path };
	size_t			 at = 0, end;
	int			 kind, first = 0, rc = 0;

	diag_init(d, path);
	if ((tok = json_tokener_new()) == NULL)
		return diag_set(d, DIAG_LIMIT, -1, "out of memory");
	for (;;) {
		while (at < len && isspace((unsigned char)buf[at]))
			at++;
		if (at == len)
			break;
		if (len - at > INT32_MAX) {
			rc = diag_set(d, DIAG_LIMIT, -1, "trace of more than "
			    "2 GiB");
			break;
		}
		json_tokener_reset(tok);
		root = json_tokener_parse_ex(tok, buf + at, (int)(len - at));
		e = json_tokener_get_error(tok);
		if (root == NULL || e != json_tokener_success) {
			if (e == json_tokener_continue)
				e = json_tokener_error_parse_eof;
			rc = diag_set(d, DIAG_PAIR, -1, "bad trace: not JSON "
			    "(%s at byte %zu)", json_tokener_error_desc(e),
			    at + json_tokener_get_parse_end(tok));
			json_object_put(root);
			break;
		}
		end = at + json_tokener_get_parse_end(tok);
		w.obj++;
		kind = shape(root);
		if (kind == 0 || (first != 0 && kind != first)) {
			if (w.obj > 1)
				rc = diag_set(d, DIAG_PAIR, -1, "bad trace: "
				    "object %zu is not of the first's format",
				    w.obj);
			else
				rc = diag_set(d, DIAG_PAIR, -1, "bad trace: "
				    "neither OTLP/JSON (resourceSpans[]) nor "
				    "Jaeger JSON (data[].spans[])");
			json_object_put(root);
			break;
		}
		first = kind;
		rc = kind == 1 ? otlp(root, &w, out, d) :
		    jaeger(root, &w, out, d);
		json_object_put(root);
		if (rc == -1)
			break;
		at = end;
	}
	json_tokener_free(tok);
	if (rc == 0 && w.obj == 0)
		rc = diag_set(d, DIAG_PAIR, -1, "bad trace: empty");
	out->format = first == 1 ? "OTLP/JSON" : "Jaeger JSON";
	return rc;
}

int
trace_load(const char *path, const struct pd_limits *lim, struct spans *out,
    struct diag *d)
{
	unsigned char	*buf;
	size_t		 len;
	int		 rc;

	diag_init(d, path);
	if (input_bytes(path, lim, &buf, &len, d) == -1)
		return -1;
	rc = trace_decode((const char *)buf, len, path, out, d);
	free(buf);
	return rc;
}

/*
 * Diagnostics: the core fills a struct diag, the CLI prints it as
 * "path: kind: detail"; loading fills a list of warnings (struct
 * diags), which the CLI prints and the reports carry.  No I/O here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"
#include "support/msg.h"
#include "support/xmalloc.h"

void
diag_init(struct diag *d, const char *path)
{
	d->code = DIAG_OK;
	d->path = path;
	d->off = -1;
	d->msg[0] = '\0';
}

int
diag_set(struct diag *d, enum diag_code code, long long off,
    const char *fmt, ...)
{
	va_list ap;

	d->code = code;
	d->off = off;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	return -1;
}

const char *
diag_kind(enum diag_code code)
{
	static const char *const kinds[] = {
		[DIAG_OK] = "ok",
		[DIAG_IO] = "cannot read",
		[DIAG_GZIP] = "bad gzip data",
		[DIAG_FORMAT] = "not a pprof profile",
		[DIAG_LEGACY] = "legacy pprof format",
		[DIAG_CORRUPT] = "corrupt profile",
		[DIAG_LIMIT] = "limit exceeded",
		[DIAG_EMPTY] = "empty profile",
		[DIAG_USAGE] = "cannot use profile",
		[DIAG_FOLDED] = "bad folded stacks",
		[DIAG_NOTPROFILE] = "not a profile",
		[DIAG_PERFSCRIPT] = "bad perf script output",
		[DIAG_PERFDATA] = "cannot read perf.data",
		[DIAG_PAIR] = "",
	};

	if ((size_t)code >= sizeof(kinds) / sizeof(kinds[0]))
		return "error";
	return kinds[code];
}

int
diag_set_msg(struct diag *d, enum diag_code code, enum msg m, ...)
{
	va_list ap;

	d->code = code;
	d->off = -1;
	va_start(ap, m);
	msg_vformat(d->msg, sizeof(d->msg), m, ap);
	va_end(ap);
	return -1;
}

void
diag_format(const struct diag *d, char *buf, size_t len)
{
	if (diag_kind(d->code)[0] == '\0')
		snprintf(buf, len, "%s: %s", d->path ? d->path : "-", d->msg);
	else if (d->off >= 0)
		snprintf(buf, len, "%s: %s: %s (at byte %lld)",
		    d->path ? d->path : "-", diag_kind(d->code), d->msg,
		    d->off);
	else
		snprintf(buf, len, "%s: %s: %s", d->path ? d->path : "-",
		    diag_kind(d->code), d->msg);
}

size_t
diag_printable(char *buf, size_t len, const char *s, size_t n)
{
	unsigned char	c;
	size_t		i;

	for (i = 0; i < n && i + 1 < len; i++) {
		c = (unsigned char)s[i];
		buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	buf[i] = '\0';
	return i;
}

void
diags_init(struct diags *ds)
{
	memset(ds, 0, sizeof(*ds));
}

/* "side: about: " or what of it there is, into a new string. */
static char *
lead(const char *side, const char *about)
{
	char *s;

	xasprintf(&s, "%s%s%s%s", side != NULL ? side : "",
	    side != NULL ? ": " : "", about != NULL ? about : "",
	    about != NULL ? ": " : "");
	return s;
}

void
diags_vadd(struct diags *ds, enum msg code, const char *side,
    const char *file, const char *about, va_list ap)
{
	struct diag_msg	*m;
	va_list		 aq;
	char		*pre, c;
	int		 n;
	size_t		 k;

	if (ds->n == ds->cap) {
		ds->cap = ds->cap ? 2 * ds->cap : 8;
		ds->v = xreallocarray(ds->v, ds->cap, sizeof(*ds->v));
	}
	pre = lead(side, about != NULL ? about : file);
	k = strlen(pre);
	va_copy(aq, ap);
	n = msg_vformat(&c, 1, code, aq);
	va_end(aq);
	if (n < 0)
		n = 0;
	m = &ds->v[ds->n++];
	m->code = code;
	m->level = msg_level(code);
	m->side = side;
	m->file = file != NULL ? xstrdup(file) : NULL;
	m->line = xreallocarray(pre, k + (size_t)n + 1, 1);
	msg_vformat(m->line + k, (size_t)n + 1, code, ap);
	m->text = m->line + k;
}

void
diags_add(struct diags *ds, enum msg code, const char *side,
    const char *file, const char *about, ...)
{
	va_list ap;

	va_start(ap, about);
	diags_vadd(ds, code, side, file, about, ap);
	va_end(ap);
}

void
diags_release(struct diags *ds)
{
	size_t i;

	for (i = 0; i < ds->n; i++) {
		free(ds->v[i].file);
		free(ds->v[i].line);
	}
	free(ds->v);
	diags_init(ds);
}

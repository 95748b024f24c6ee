/*
 * Diagnostics: the core fills a struct diag, the CLI prints it as
 * "path: kind: detail".  No I/O here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "support/diag.h"

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
	};

	if ((size_t)code >= sizeof(kinds) / sizeof(kinds[0]))
		return "error";
	return kinds[code];
}

void
diag_format(const struct diag *d, char *buf, size_t len)
{
	if (d->off >= 0)
		snprintf(buf, len, "%s: %s: %s (at byte %lld)",
		    d->path ? d->path : "-", diag_kind(d->code), d->msg,
		    d->off);
	else
		snprintf(buf, len, "%s: %s: %s", d->path ? d->path : "-",
		    diag_kind(d->code), d->msg);
}

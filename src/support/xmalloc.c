/*
 * Allocation that cannot fail: running out of memory prints one line and
 * exits with status 2.  This is the one place below the CLI that exits,
 * because no caller could do anything better.
 */
#define _GNU_SOURCE		/* vasprintf */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/compat.h"
#include "support/xmalloc.h"

void *
xmalloc(size_t size)
{
	void *p;

	if ((p = malloc(size == 0 ? 1 : size)) == NULL)
		errx(2, "out of memory allocating %zu bytes", size);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if ((p = calloc(nmemb == 0 ? 1 : nmemb, size == 0 ? 1 : size)) == NULL)
		errx(2, "out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if ((p = reallocarray(ptr, nmemb == 0 ? 1 : nmemb,
	    size == 0 ? 1 : size)) == NULL)
		errx(2, "out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

/* compat_map() and its kin, which may fail: here they cannot. */
void *
xmap(size_t len)
{
	void *p;

	if ((p = compat_map(len)) == NULL)
		errx(2, "out of memory mapping %zu bytes", len);
	return p;
}

void *
xremap(void *p, size_t oldlen, size_t len)
{
	void *q;

	if ((q = compat_remap(p, oldlen, len)) == NULL)
		errx(2, "out of memory mapping %zu bytes", len);
	return q;
}

void
xunmap(void *p, size_t len)
{
	compat_unmap(p, len);
}

char *
xstrdup(const char *s)
{
	char *p;

	if ((p = strdup(s)) == NULL)
		errx(2, "out of memory");
	return p;
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vasprintf(ret, fmt, ap);
	va_end(ap);
	if (n < 0)
		errx(2, "out of memory");
	return n;
}

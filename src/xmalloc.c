/*
 * Allocation that cannot fail: running out of memory prints one line and
 * exits with status 2.  This is the one place below the CLI that exits,
 * because no caller could do anything better.
 */
#define _GNU_SOURCE		/* vasprintf, mremap */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xmalloc.h"

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

/*
 * Page-aligned blocks that grow without copying: mapped pages, which
 * mremap() moves as a whole, so that while a block doubles its old and
 * new bytes are never both in memory.  Without mremap(), an aligned
 * copy.  The new bytes are zero.
 */
void *
xmap(size_t len)
{
	void *p;

#ifdef MREMAP_MAYMOVE
	if ((p = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
		errx(2, "out of memory mapping %zu bytes", len);
#else
	if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE),
	    len ? len : 1) != 0)
		errx(2, "out of memory allocating %zu bytes", len);
	memset(p, 0, len);
#endif
	return p;
}

void *
xremap(void *p, size_t oldlen, size_t len)
{
	void *q;

#ifdef MREMAP_MAYMOVE
	if ((q = mremap(p, oldlen ? oldlen : 1, len ? len : 1,
	    MREMAP_MAYMOVE)) == MAP_FAILED)
		errx(2, "out of memory mapping %zu bytes", len);
#else
	q = xmap(len);
	memcpy(q, p, oldlen < len ? oldlen : len);
	free(p);
#endif
	return q;
}

void
xunmap(void *p, size_t len)
{
	if (p == NULL)
		return;
#ifdef MREMAP_MAYMOVE
	(void)munmap(p, len ? len : 1);
#else
	(void)len;
	free(p);
#endif
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

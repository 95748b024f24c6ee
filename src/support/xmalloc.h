/*
 * Allocation wrappers for the CLI and the core: out-of-memory prints one
 * line and exits 2, as in mandoc and tmux.  Malformed input never reaches
 * here as a size: counts are checked against PD_MAX_* first.
 */
#ifndef XMALLOC_H
#define XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
/* Zeroed, page-aligned, grown without copying where the system can. */
void	*xmap(size_t);
void	*xremap(void *, size_t oldlen, size_t len);
void	 xunmap(void *, size_t);	/* NULL is a no-op */
int	 xasprintf(char **, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));

#endif

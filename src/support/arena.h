/*
 * A bump allocator.  Everything a loaded profile holds lives in one
 * arena, so freeing the profile is one arena_free().  Running out of
 * memory is fatal (as with the x* wrappers); overflow in nmemb * size is
 * caught before allocating.
 */
#ifndef ARENA_H
#define ARENA_H

#include <stddef.h>

struct arena;

struct arena	*arena_new(void);
void		 arena_free(struct arena *);	/* NULL is a no-op */
void		*arena_alloc(struct arena *, size_t nmemb, size_t size);
void		*arena_calloc(struct arena *, size_t nmemb, size_t size);
char		*arena_strndup(struct arena *, const char *, size_t);
size_t		 arena_used(const struct arena *);

#endif

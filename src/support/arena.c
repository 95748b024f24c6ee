/*
 * A bump allocator in chunks.  Objects are never freed one by one: the
 * whole arena goes at once.  Large requests get a chunk of their own so
 * that a big array does not waste the tail of the current chunk.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/xmalloc.h"

#define ARENA_CHUNK	(256 * 1024)
#define ARENA_ALIGN	alignof(max_align_t)

struct chunk {
	struct chunk	*next;
	size_t		 size;		/* usable bytes after the header */
	size_t		 used;
	alignas(max_align_t) unsigned char data[];
};

struct arena {
	struct chunk	*head;		/* the chunk being filled */
	struct chunk	*big;		/* single-object chunks */
	size_t		 total;
};

struct arena *
arena_new(void)
{
	return xcalloc(1, sizeof(struct arena));
}

static void
chunks_free(struct chunk *c)
{
	struct chunk *next;

	for (; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
}

void
arena_free(struct arena *a)
{
	if (a == NULL)
		return;
	chunks_free(a->head);
	chunks_free(a->big);
	free(a);
}

static struct chunk *
chunk_new(size_t size)
{
	struct chunk *c;

	if (size > SIZE_MAX - sizeof(*c))
		xmalloc(SIZE_MAX);	/* reports out of memory and exits */
	c = xmalloc(sizeof(*c) + size);
	c->next = NULL;
	c->size = size;
	c->used = 0;
	return c;
}

void *
arena_alloc(struct arena *a, size_t nmemb, size_t size)
{
	struct chunk	*c;
	size_t		 n, off;

	if (size != 0 && nmemb > SIZE_MAX / size)
		xmalloc(SIZE_MAX);
	n = nmemb * size;
	if (n == 0)
		n = 1;
	if (n > ARENA_CHUNK / 4) {
		c = chunk_new(n);
		c->next = a->big;
		a->big = c;
		a->total += n;
		return c->data;
	}
	c = a->head;
	off = c == NULL ? 0 : (c->used + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
	if (c == NULL || off + n > c->size) {
		c = chunk_new(ARENA_CHUNK);
		c->next = a->head;
		a->head = c;
		off = 0;
	}
	c->used = off + n;
	a->total += n;
	return c->data + off;
}

void *
arena_calloc(struct arena *a, size_t nmemb, size_t size)
{
	void *p;

	p = arena_alloc(a, nmemb, size);
	memset(p, 0, nmemb * size == 0 ? 1 : nmemb * size);
	return p;
}

char *
arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p;

	p = arena_alloc(a, len + 1, 1);
	if (len > 0)		/* protobuf-c gives NULL for empty bytes */
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

size_t
arena_used(const struct arena *a)
{
	return a->total;
}

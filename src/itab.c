/*
 * What the open-addressing index tables of include/itab.h do seldom:
 * double, copy and free.  The probes are inline in the header.  No I/O,
 * and nothing about what the elements are.
 */
#include <stdlib.h>
#include <string.h>

#include "itab.h"
#include "xmalloc.h"

/*
 * Double t (to first slots, if it has none) and place the n elements
 * again, each by hash(ctx, i).
 */
void
itab_grow(struct itab *t, size_t n, size_t first,
    uint64_t (*hash)(const void *, size_t), const void *ctx)
{
	size_t cap, i;

	cap = t->cap ? t->cap * 2 : first;
	free(t->slot);
	t->slot = xcalloc(cap, sizeof(*t->slot));
	t->cap = cap;
	for (i = 0; i < n; i++)
		itab_place(t, hash(ctx, i), i);
}

/* Make dst, which holds nothing, a copy of src. */
void
itab_copy(struct itab *dst, const struct itab *src)
{
	dst->slot = NULL;
	dst->cap = src->cap;
	if (src->cap == 0)
		return;
	dst->slot = xreallocarray(NULL, src->cap, sizeof(*dst->slot));
	memcpy(dst->slot, src->slot, src->cap * sizeof(*dst->slot));
}

void
itab_release(struct itab *t)
{
	free(t->slot);
	t->slot = NULL;
	t->cap = 0;
}

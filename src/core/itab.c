/*
 * What the open-addressing index tables of include/itab.h do seldom:
 * allocate, copy and free.  The probes are inline in the header.  No I/O,
 * and nothing about what the elements are.
 */
#include <stdlib.h>
#include <string.h>

#include "core/itab.h"
#include "support/xmalloc.h"

/* Make t an empty table of cap slots, a power of two. */
void
itab_resize(struct itab *t, size_t cap)
{
	free(t->slot);
	t->slot = xcalloc(cap, sizeof(*t->slot));
	t->cap = cap;
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

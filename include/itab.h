/*
 * Open-addressing index tables, as agg.c and flame.c use them: cap slots
 * (a power of two), each 0 (empty) or the index + 1 of an element kept
 * in an array beside it, probed linearly from the element's hash.  The
 * callers own the elements and compare the keys.
 */
#ifndef ITAB_H
#define ITAB_H

#include <stddef.h>
#include <stdint.h>

/* Put element i, whose hash is h, in the first free slot of its probe. */
static inline void
itab_place(size_t *tab, size_t cap, uint64_t h, size_t i)
{
	size_t j;

	for (j = h & (cap - 1); tab[j] != 0; j = (j + 1) & (cap - 1))
		continue;
	tab[j] = i + 1;
}

#endif

/*
 * Open-addressing tables, as agg.c, pview.c and flame.c use them, and
 * the hashes they share.  A table has cap slots (a power of two, or
 * none at all), probed linearly from an element's hash: itab_home() is
 * where the probe starts and itab_next() the slot after.  Those two are
 * all the edge table of agg.c shares, whose slots are the edges
 * themselves.
 *
 * The other tables are struct itab, an index: each slot is 0 (empty)
 * or the index + 1 of an element kept in an array beside it.  The
 * callers own the elements and compare the keys: itab_find() asks the
 * caller's eq() of each element on the probe, and itab_add() the
 * caller's hash() of each element when the table doubles.  Both are
 * inlined with the caller's function, so that a probe costs what a loop
 * written out in place costs (bench/FINDINGS.md, round 10).  No I/O,
 * and nothing about what the elements are.
 */
#ifndef ITAB_H
#define ITAB_H

#include <stddef.h>
#include <stdint.h>

#define ITAB_NONE	SIZE_MAX	/* itab_find(): no such element */

struct itab {
	size_t		*slot;		/* 0, or element index + 1 */
	size_t		 cap;		/* 0 or a power of two */
};

/* FNV-1a, then a final mix so that the low bits index the tables. */
static inline uint64_t
itab_hash_bytes(const char *s, size_t n)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	size_t		 i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

/* A hash of two numbers, or of a number and another hash. */
static inline uint64_t
itab_hash_pair(uint64_t a, uint64_t b)
{
	uint64_t h;

	h = a * 0x9e3779b97f4a7c15ULL ^ b;
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return h;
}

/* The first slot of the probe for hash h; cap is not 0. */
static inline size_t
itab_home(uint64_t h, size_t cap)
{
	return (size_t)h & (cap - 1);
}

/* The slot after j on a probe. */
static inline size_t
itab_next(size_t j, size_t cap)
{
	return (j + 1) & (cap - 1);
}

/*
 * Put element i, whose hash is h, in the first free slot of its probe
 * in the cap slots at slot.
 */
static inline void
itab_place_in(size_t *slot, size_t cap, uint64_t h, size_t i)
{
	size_t j;

	for (j = itab_home(h, cap); slot[j] != 0; j = itab_next(j, cap))
		continue;
	slot[j] = i + 1;
}

/* The same in t. */
static inline void
itab_place(struct itab *t, uint64_t h, size_t i)
{
	itab_place_in(t->slot, t->cap, h, i);
}

/*
 * The element i on the probe of h for which eq(ctx, i) holds, or
 * ITAB_NONE.  An empty table holds nothing.
 */
static inline __attribute__((always_inline)) size_t
itab_find(const struct itab *t, uint64_t h,
    int (*eq)(const void *ctx, size_t i), const void *ctx)
{
	size_t j;

	if (t->cap == 0)
		return ITAB_NONE;
	for (j = itab_home(h, t->cap); t->slot[j] != 0;
	    j = itab_next(j, t->cap))
		if (eq(ctx, t->slot[j] - 1))
			return t->slot[j] - 1;
	return ITAB_NONE;
}

void	itab_resize(struct itab *, size_t cap);

/*
 * Index element n - 1, whose hash is h, the last of n: placed, or the
 * table doubled (to first slots, when it has none) and all n elements
 * placed again by their hash(ctx, i), so that it is never more than
 * half full.  The placing loop is inlined with the caller's hash(), and
 * keeps the table in locals: called through a pointer, with the table
 * reloaded after every store, it took half as long again to rebuild the
 * flame graph's tree of the medium pair (bench/FINDINGS.md, round 10).
 */
static inline __attribute__((always_inline)) void
itab_add(struct itab *t, uint64_t h, size_t n, size_t first,
    uint64_t (*hash)(const void *ctx, size_t i), const void *ctx)
{
	size_t	*slot, cap, i;

	if (2 * n <= t->cap) {
		itab_place(t, h, n - 1);
		return;
	}
	itab_resize(t, t->cap ? t->cap * 2 : first);
	slot = t->slot;
	cap = t->cap;
	for (i = 0; i < n; i++)
		itab_place_in(slot, cap, hash(ctx, i), i);
}

void	itab_copy(struct itab *, const struct itab *);
void	itab_release(struct itab *);

#endif

/*
 * An index of a module's DWARF, made once per file, so that naming an
 * address costs a binary search and a short scan rather than a walk of
 * its compile unit (dwarf_getscopes() walks the unit's tree from its
 * root at every call: 255 us an address on profdiff's own binary).  The
 * index holds every function (DW_TAG_subprogram) and every inlined
 * instance (DW_TAG_inlined_subroutine) that has code: its DIE, the
 * frame that holds it and its depth under the function, and one entry
 * per address range, sorted by start.  Ranges nest: an inlined
 * instance's lie within its function's, so the innermost frame of an
 * address is the deepest entry that holds it, found by scanning back
 * from the last entry that starts at or before it to the function's
 * own.  Reads the module's DWARF through elfutils; no I/O of its own.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdint.h>
#include <stdlib.h>

#include "symbol/symbol_int.h"
#include "support/xmalloc.h"

struct dnode {
	Dwarf_Die	 die;
	size_t		 parent;	/* index of the frame around it, or
					   SIZE_MAX for a function */
	unsigned	 depth;		/* 0 for a function */
};

struct drange {
	Dwarf_Addr	 lo, hi;	/* [lo, hi), the file's addresses */
	size_t		 node;
	unsigned	 depth;
};

struct sym_dwarf {
	struct dnode	*nodes;
	size_t		 nnodes, capnodes;
	struct drange	*ranges;
	size_t		 nranges, capranges;
	int		 full;		/* SYM_DWARF_MAX met: the rest is
					   named from the symbol table */
};

#define DWARF_MAX_DEPTH	4096	/* nesting of DIEs walked */
/*
 * Frames and ranges indexed per file, at most: 2M of each, of 48 and
 * 32 bytes, 160 MB of index at most (profdiff's own binary has 5,136
 * function and inlined-instance DIEs, readelf --debug-dump=info).
 */
#define SYM_DWARF_MAX	(2u << 20)

static size_t
add_node(struct sym_dwarf *x, Dwarf_Die *d, size_t parent, unsigned depth)
{
	ptrdiff_t	 off;
	Dwarf_Addr	 base, lo, hi;
	size_t		 k = x->nnodes;

	if (x->nnodes >= SYM_DWARF_MAX || x->nranges >= SYM_DWARF_MAX) {
		x->full = 1;
		return SIZE_MAX;
	}
	if (x->nnodes == x->capnodes) {
		x->capnodes = x->capnodes ? 2 * x->capnodes : 1024;
		x->nodes = xreallocarray(x->nodes, x->capnodes,
		    sizeof(*x->nodes));
	}
	x->nodes[x->nnodes++] = (struct dnode){ *d, parent, depth };
	for (off = 0; (off = dwarf_ranges(d, off, &base, &lo, &hi)) > 0;) {
		if (hi <= lo || x->nranges >= SYM_DWARF_MAX)
			continue;
		if (x->nranges == x->capranges) {
			x->capranges = x->capranges ? 2 * x->capranges : 1024;
			x->ranges = xreallocarray(x->ranges, x->capranges,
			    sizeof(*x->ranges));
		}
		x->ranges[x->nranges++] = (struct drange){ lo, hi, k, depth };
	}
	return k;
}

/* A DIE to walk, with the frame around it and its inlining depth. */
struct wdie {
	Dwarf_Die	 die;
	size_t		 frame;
	unsigned	 depth;
};

/*
 * Walk one compile unit's tree without recursion: each DIE's children
 * after it, the frames (functions and inlined instances) recorded with
 * the frame around them.  st, of DWARF_MAX_DEPTH entries, is the
 * caller's, one for all units: 192 KiB, over glibc's mmap threshold, it
 * cost an mmap and a munmap per unit (two thousand for libc's).
 */
static void
walk_unit(struct sym_dwarf *x, Dwarf_Die *cu, struct wdie *st)
{
	Dwarf_Die	 child;
	size_t		 n = 0, frame;
	unsigned	 depth;
	int		 tag;

	if (dwarf_child(cu, &child) != 0)
		return;
	st[n].die = child;
	st[n].frame = SIZE_MAX;
	st[n++].depth = 0;
	while (n > 0 && !x->full) {
		Dwarf_Die d = st[--n].die;

		frame = st[n].frame;
		depth = st[n].depth;
		/* Its next sibling first, at the same level. */
		if (dwarf_siblingof(&d, &child) == 0) {
			st[n].die = child;
			n++;
		}
		tag = dwarf_tag(&d);
		if ((tag == DW_TAG_subprogram && frame == SIZE_MAX) ||
		    (tag == DW_TAG_inlined_subroutine && frame != SIZE_MAX)) {
			frame = add_node(x, &d, frame, depth);
			depth++;
		} else if (tag == DW_TAG_subprogram)
			/* A function inside a function (a GNU C nested
			 * function): a function of its own. */
			frame = add_node(x, &d, SIZE_MAX, depth = 0), depth = 1;
		if (dwarf_haschildren(&d) && n < DWARF_MAX_DEPTH &&
		    dwarf_child(&d, &child) == 0) {
			st[n].die = child;
			st[n].frame = frame;
			st[n++].depth = depth;
		}
	}
}

static int
cmp_range(const void *a, const void *b)
{
	const struct drange *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	/* The outer first, so that a scan back meets the inner first. */
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

struct sym_dwarf *
sym_dwarf_new(Dwarf *dw)
{
	struct sym_dwarf *x = xcalloc(1, sizeof(*x));
	struct wdie	*st = xreallocarray(NULL, DWARF_MAX_DEPTH, sizeof(*st));
	Dwarf_Off	 off = 0, next;
	size_t		 hsize;
	Dwarf_Die	 cu;

	while (dw != NULL && !x->full && dwarf_nextcu(dw, off, &next, &hsize,
	    NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + hsize, &cu) != NULL)
			walk_unit(x, &cu, st);
		off = next;
	}
	free(st);
	if (x->nranges > 0)
		qsort(x->ranges, x->nranges, sizeof(*x->ranges), cmp_range);
	return x;
}

void
sym_dwarf_free(struct sym_dwarf *x)
{
	if (x == NULL)
		return;
	free(x->nodes);
	free(x->ranges);
	free(x);
}

size_t
sym_dwarf_chain(const struct sym_dwarf *x, Dwarf_Addr a, Dwarf_Die **chain,
    size_t max)
{
	size_t		 lo = 0, hi = x->nranges, i, best = SIZE_MAX, k, n = 0;
	unsigned	 bd = 0;

	/* The last range that starts at or before a. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->ranges[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0;) {
		const struct drange *r = &x->ranges[i];

		if (a < r->hi && (best == SIZE_MAX || r->depth > bd)) {
			best = r->node;
			bd = r->depth;
		}
		if (r->depth == 0)
			break;
	}
	for (k = best; k != SIZE_MAX && n < max; k = x->nodes[k].parent)
		chain[n++] = &x->nodes[k].die;
	return n;
}

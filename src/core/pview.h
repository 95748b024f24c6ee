/*
 * pprof's view of a profile before it builds a graph: what go tool
 * pprof's driver does to every profile it loads, worked out beside the
 * profile instead of written into it, for agg.c to fold.
 *
 *   - profile.Merge keys mappings and folds those with the same key
 *     into the first one met (struct pview_maps);
 *   - Profile.Prune, as RemoveUninteresting calls it, applies
 *     drop_frames and keep_frames (pview_prune());
 *   - graph.NodeInfo.PrintableName names a frame, with what the
 *     granularity clears cleared (pview_name()).
 *
 * No I/O here, and nothing about folding, statistics or output.
 */
#ifndef PVIEW_H
#define PVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "core/agg.h"
#include "core/itab.h"

struct arena;
struct pf_location;
struct pf_line;
struct pf_mapping;
struct profile;

/* A name being built: s is NUL-terminated once anything is added. */
struct pview_buf {
	char		*s;
	size_t		 len, cap;
};

void	pview_buf_add(struct pview_buf *, const char *, size_t);
void	pview_buf_release(struct pview_buf *);

/*
 * Build into b the name pprof prints for one frame at granularity g:
 * the location and one of its lines (NULL for a location without
 * lines).  objfile is the file of the mapping the location's merged
 * into ("" for none) and reloc what Merge moved its address by.
 */
void	pview_name(struct pview_buf *b, enum agg_gran g,
	    const struct pf_location *, const struct pf_line *,
	    const char *objfile, uint64_t reloc);

/* What a location does under drop_frames. */
#define PVIEW_PRUNE_BENEATH	0x1	/* a line matched: cut the stack here */
#define PVIEW_PRUNE_ALL		0x2	/* its outermost line matched */

/*
 * The profile's drop_frames and keep_frames applied to its locations:
 * *flags gets PVIEW_PRUNE_* per location, and *lineoff the first line
 * each keeps.  Both stay NULL (nothing is pruned) without drop_frames,
 * or if a pattern does not compile, as pprof ignores it.  b is
 * scratch.  The caller frees both arrays.
 */
void	pview_prune(const struct profile *, struct pview_buf *b,
	    unsigned char **flags, size_t **lineoff);

/*
 * A mapping as profile.Merge keys it (size rounded up to 4 KiB, file
 * offset, build id or else file name), with the start address and file
 * of the first mapping met with that key.  Later mappings with the same
 * key, in this profile or a later one, merge into it.
 */
struct pview_mkey {
	uint64_t	 size;
	uint64_t	 offset;
	const char	*id;		/* in the names arena */
	uint64_t	 start;
	const char	*file;		/* in the names arena */
	uint64_t	 hash;
};

/* Every mapping key met so far.  All zeros is empty. */
struct pview_maps {
	struct pview_mkey *keys;
	size_t		 n, cap;
	struct itab	 tab;		/* the keys by key */
};

/* The key of mapping m, added (its strings copied into names) if new. */
const struct pview_mkey *pview_maps_get(struct pview_maps *,
	    struct arena *names, const struct pf_mapping *m);
/* Make dst, which holds nothing, a copy of src with its strings in names. */
void	pview_maps_copy(struct pview_maps *dst, const struct pview_maps *src,
	    struct arena *names);
void	pview_maps_release(struct pview_maps *);

#endif

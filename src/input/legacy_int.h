/*
 * What the legacy decoder's files share (legacy.c: lines, Go's string
 * and number rules, the model being built, and the entry point;
 * legacy_maps.c: the memory map; legacy_parse.c: the formats).  For
 * them alone; no other file includes it.
 */
#ifndef LEGACY_INT_H
#define LEGACY_INT_H

#include <stddef.h>
#include <stdint.h>

#include "support/diag.h"

struct pd_limits;
struct profile;
struct arena;

#define SCAN_MAX	65535	/* bufio.Scanner's longest line */
#define MAX_ATTRS	1024	/* "name=value" lines of a memory map */
#define EXCERPT		40	/* bytes of a line quoted in a message */
#define JAVA_HEAP_RATE	524288	/* Java heapz's sampling rate, 512 KiB */

enum { L_OK = 0, L_UNRECOGNIZED = 1, L_ERROR = -1 };

/* How a stack's addresses are adjusted to land on the call. */
enum adjust { ADJ_NONE, ADJ_ALL, ADJ_CALLERS };

struct lscan {
	const char	*p, *end;
	const char	*s;		/* the current line, "" past the end */
	size_t		 n;
	size_t		 lineno;
	int		 toolong;
};

struct lsample {
	size_t		 off, n;	/* into frames */
	int64_t		 v[4];
	int64_t		 bytes;		/* the "bytes" label */
	int		 has_bytes;
};

struct lloc {
	uint64_t	 addr;
	size_t		 map;		/* index + 1, 0 for none */
	size_t		 fn;		/* Java: function index + 1 */
	int64_t		 line;
	size_t		 out;		/* index + 1 in the model */
};

struct lmap {
	uint64_t	 start, limit, offset;
	const char	*file, *build_id;
};

struct lfunc {
	const char	*name, *file;
	uint64_t	 hash;
};

struct legacy {
	struct diag	*d;
	const struct pd_limits *lim;
	struct profile	*p;
	struct arena	*a;
	const char	*what;		/* the format, for messages */
	size_t		 lineno;	/* the line a message names, or 0 */

	const char	*types[4], *units[4];
	size_t		 ntypes;

	struct lsample	*samples;
	size_t		 nsamples, capsamples;
	size_t		*frames;
	size_t		 nframes, capframes;
	struct lloc	*locs;
	size_t		 nlocs, caplocs;
	uint32_t	*ltab;		/* address -> location index + 1 */
	size_t		 ltcap;
	struct lmap	*maps;
	size_t		 nmaps, capmaps;
	struct lfunc	*fns;
	size_t		 nfns, capfns;
	uint32_t	*ftab;		/* name -> function index + 1 */
	size_t		 ftcap;
	uint64_t	*addrs;		/* one stack's addresses */
	size_t		 naddrs, capaddrs;
	int64_t		 addrs_bytes;	/* and its "bytes" label */
	int		 java;		/* frames are named, addresses not kept */
};

struct span {
	const char	*s;
	size_t		 n;
};

static inline int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline int
is_lhex(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

static inline int
is_xdigit(int c)
{
	return is_lhex(c) || (c >= 'A' && c <= 'F');
}

/* Regular expressions' \s. */
static inline int
is_rspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* \w */
static inline int
is_word(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' &&
	    c <= 'Z') || c == '_';
}

static inline size_t
skip_rspace(const char *s, size_t n, size_t i)
{
	while (i < n && is_rspace(s[i]))
		i++;
	return i;
}

static inline size_t
skip_xdigit(const char *s, size_t n, size_t i)
{
	while (i < n && is_xdigit(s[i]))
		i++;
	return i;
}

/* legacy.c */
int		 lg_fail(struct legacy *, enum diag_code, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));
const char	*lg_excerpt(char *, size_t, const char *, size_t);
void		 lg_scan_init(struct lscan *, const char *, size_t);
int		 lg_scan(struct lscan *);
void		 lg_trim(const char **, size_t *);
int		 lg_has_prefix(const char *, size_t, const char *);
const char	*lg_find(const char *, size_t, const char *);
int		 lg_blank(const char *, size_t);
int		 lg_map_sentinel(const char *, size_t);
int		 lg_parse_uint(const char *, size_t, int, uint64_t *);
int		 lg_parse_int(const char *, size_t, int, int64_t *);
const char	*lg_str(struct legacy *, const char *, size_t);
uint64_t	 lg_mix(uint64_t);
void		 lg_addr_push(struct legacy *, uint64_t);
int		 lg_hex_addrs(struct legacy *, const char *, size_t);
int		 lg_add_sample(struct legacy *, enum adjust, const int64_t *,
		    size_t);
void		 lg_set_types(struct legacy *, const char *const *, size_t);
int		 lg_mul(int64_t, int64_t, int64_t *);

/* legacy_maps.c */
int		 lg_parse_maps(struct legacy *, struct lscan *);
int		 lg_more_sections(struct legacy *, struct lscan *);
struct span	 lg_base_name(const char *, size_t);
void		 lg_finish_maps(struct legacy *, int massage);

/* legacy_parse.c: each L_OK, L_UNRECOGNIZED or L_ERROR. */
int		 lg_parse_cpu(struct legacy *, const unsigned char *, size_t);
int		 lg_parse_heap(struct legacy *, const char *, size_t);
int		 lg_parse_gocount(struct legacy *, const char *, size_t);
int		 lg_parse_thread(struct legacy *, const char *, size_t);
int		 lg_parse_contention(struct legacy *, const char *, size_t);
int		 lg_parse_java(struct legacy *, const char *, size_t);

#endif

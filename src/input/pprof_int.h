/*
 * What the reference pprof decoder (pprof.c) shares with the fast wire
 * path (wire.c), and no one else: profile.proto's field numbers, the
 * varint, the id maps, and the conversion of protobuf-c's messages into
 * the model, which validates them and names the element at fault.
 * Only those two files include this header; it is the one header that
 * includes profile.pb-c.h, so that nothing protobuf-c leaves them.
 */
#ifndef PBCONV_H
#define PBCONV_H

#include <stddef.h>
#include <stdint.h>

#include "profile.pb-c.h"

struct arena;
struct diag;
struct pd_limits;
struct pf_sample;
struct profile;

typedef Perftools__Profiles__Profile	PbProfile;
typedef Perftools__Profiles__Sample	PbSample;
typedef Perftools__Profiles__Location	PbLocation;
typedef Perftools__Profiles__Line	PbLine;
typedef Perftools__Profiles__Function	PbFunction;
typedef Perftools__Profiles__Mapping	PbMapping;
typedef Perftools__Profiles__ValueType	PbValueType;

/* The field numbers of proto/profile.proto's messages. */
enum profile_field {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_DROP_FRAMES = 7,
	PROFILE_KEEP_FRAMES = 8,
	PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12,
	PROFILE_COMMENT = 13,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	PROFILE_NFIELDS			/* one past the last */
};

enum sample_field {
	SAMPLE_LOCATION_ID = 1,
	SAMPLE_VALUE = 2,
	SAMPLE_LABEL = 3,
};

enum label_field {
	LABEL_KEY = 1,
	LABEL_STR = 2,
	LABEL_NUM = 3,
	LABEL_NUM_UNIT = 4,
	LABEL_NFIELDS
};

enum location_field {
	LOCATION_ID = 1,
	LOCATION_MAPPING_ID = 2,
	LOCATION_ADDRESS = 3,
	LOCATION_LINE = 4,
	LOCATION_IS_FOLDED = 5,
};

enum line_field {
	LINE_FUNCTION_ID = 1,
	LINE_LINE = 2,
	LINE_COLUMN = 3,
};

/* The protobuf wire types (the low three bits of a field's key). */
enum wire_type {
	WT_VARINT = 0,
	WT_I64 = 1,
	WT_LEN = 2,
	WT_I32 = 5,
};

/*
 * The varint at p, which must end before end: 0 with *v and its length
 * *n, -2 if it is cut short, -1 if it is longer than 10 bytes.  Inline:
 * every field of the wire goes through it.
 */
static inline int
get_varint(const unsigned char *p, const unsigned char *end, uint64_t *v,
    size_t *n)
{
	uint64_t	 x = 0;
	unsigned	 shift = 0;
	const unsigned char *q = p;

	while (q < end && shift < 64) {
		x |= (uint64_t)(*q & 0x7f) << shift;
		if ((*q++ & 0x80) == 0) {
			*v = x;
			*n = (size_t)(q - p);
			return 0;
		}
		shift += 7;
	}
	return q == end ? -2 : -1;	/* -2 truncated, -1 too long */
}

/*
 * Resolving ids: a direct table when ids are dense, else a sorted list.
 * conv_mappings(), conv_functions() and conv_locations_map() build one.
 */
struct idmap {
	uint64_t	*ids;		/* sorted; NULL when direct */
	uint32_t	*idx;
	uint32_t	*direct;	/* id -> index + 1 */
	size_t		 n;
	uint64_t	 max;
	int		 identity;	/* ids are 1..n in order: no table */
};

/* Index for id, or -1. */
long	idmap_get(const struct idmap *, uint64_t id);

/*
 * A conversion of the Profile message pb into the model p: strs is the
 * string table once conv_strings() has converted it, and d says what
 * failed.  A sample alone (conv_sample()) needs no pb.  Every conv_*
 * function returns 0, or -1 with the diag filled naming the element,
 * in the words both decoders must give.
 */
struct conv {
	const PbProfile	*pb;
	struct profile	*p;
	const char	**strs;
	size_t		 nstrs;
	struct diag	*d;
};

/* protobuf-c's allocations from the arena a, never freed alone. */
void	conv_allocator(ProtobufCAllocator *, struct arena *a);
/* The refusal of bytes protobuf-c does not unpack as a Profile: -1. */
int	conv_undecodable(struct diag *);

int	conv_strings(struct conv *, const struct pd_limits *);
int	conv_header(struct conv *);
int	conv_mappings(struct conv *, struct idmap *, struct arena *scratch,
	    const struct pd_limits *);
int	conv_functions(struct conv *, struct idmap *, struct arena *scratch,
	    const struct pd_limits *);
/* Room for n locations in c->p, and their ids in *ids from scratch. */
int	conv_locations_alloc(struct conv *, size_t n, struct arena *scratch,
	    const struct pd_limits *, uint64_t **ids);
/* Location i, resolving its mapping and functions; ids[i] is its id. */
int	conv_location(struct conv *, size_t i, const PbLocation *,
	    const struct idmap *mm, const struct idmap *fm, uint64_t *ids);
/* The map of the locations' ids, once all of them are converted. */
int	conv_locations_map(struct conv *, struct idmap *lm,
	    struct arena *scratch, const uint64_t *ids);
/* Sample i into *sp, allocated from a. */
int	conv_sample(struct conv *, size_t i, const PbSample *,
	    const struct idmap *lm, const struct pd_limits *, struct arena *a,
	    struct pf_sample *sp);

#endif

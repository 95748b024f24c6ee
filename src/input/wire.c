/*
 * The fast wire path: a pprof Profile read off the wire by hand, for a
 * profile whose protobuf-c tree would be several times the size of its
 * input, most of it samples.  Pass 1 counts the top level's fields,
 * pass 2 unpacks the header's messages with protobuf-c one at a time
 * and converts them as the reference decoder (pprof.c) does (pass 2b
 * the locations, read off the wire, once the functions are known), and
 * pass 3 (wire_next()) reads each sample straight off the wire.  For a
 * file read twice, pass 0 (wire_skim()) walks the top level as its
 * bytes come and keeps all but the samples.
 *
 * Passes 1 and 2 give up (wire_open() returns NULL, nothing in the
 * diag) on anything but a well-formed header, including any error the
 * reference decoder would report, so that it reports it in its own
 * words; on success the header is the one it builds.  A sample pass 3
 * cannot read is unpacked by protobuf-c and converted as the reference
 * converts it, or refused in its words.  This file reads only the
 * bytes it is given: no file, no inflater, no format sniffing (the
 * reading room, input.c, does those), and it knows nothing of folded
 * text.  The hot loops (read_locs(), read_packed() with its put) are
 * tuned; bench/FINDINGS.md has the figures.
 */
#include <endian.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "input/pprof_int.h"
#include "profdiff.h"
#include "model/profile.h"
#include "input/wire.h"
#include "support/xmalloc.h"

/* A growable array of uint64: the header's comments. */
struct u64vec {
	uint64_t	*v;
	size_t		 n, cap;
};

static void
u64_push(struct u64vec *a, uint64_t x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		a->v = xreallocarray(a->v, a->cap, sizeof(*a->v));
	}
	a->v[a->n++] = x;
}

/*
 * Pass each varint of a packed (wt 2) or single (wt 0) field at *pp to
 * put(arg, value), which returns -1 to refuse it; -1 if malformed or
 * refused.  Inlined into each reader, with its put.
 */
static inline int
read_packed(const unsigned char **pp, const unsigned char *end, unsigned wt,
    int (*put)(void *, uint64_t), void *arg)
{
	const unsigned char *p = *pp, *e;
	uint64_t	 v, l;
	size_t		 n;

	if (wt == WT_VARINT) {
		if (get_varint(p, end, &v, &n) != 0 || put(arg, v) == -1)
			return -1;
		*pp = p + n;
		return 0;
	}
	if (wt != WT_LEN || get_varint(p, end, &l, &n) != 0 ||
	    l > (uint64_t)(end - p - n))
		return -1;
	p += n;
	for (e = p + l; p < e; p += n) {
		/* Most location ids and many values fit in one byte. */
		if (*p < 0x80) {
			n = 1;
			if (put(arg, *p) == -1)
				return -1;
		} else if (get_varint(p, e, &v, &n) != 0 || put(arg, v) == -1)
			return -1;
	}
	*pp = e;
	return 0;
}

static int
put_u64(void *arg, uint64_t v)
{
	u64_push(arg, v);
	return 0;
}

/* Pass 3: a sample read off the wire. */

/*
 * One sample read off the wire, in buffers reused from one sample to
 * the next.
 */
struct sbuf {
	const struct pf_location **locs;
	size_t		 nlocs, loccap;
	int64_t		*vals;		/* nsample_types of them, at least 1 */
	size_t		 nvals;
	struct pf_label	*labs;
	size_t		 nlabs, labcap;
};

/*
 * The wire being read (r, its reader of samples): its header, decoded
 * by wire_open() and owned by the caller, and what pass 3 needs to read
 * the samples that follow.
 */
struct wire {
	struct profile	*p;		/* the header; p->samples is NULL */
	struct arena	*keep;		/* the location id map */
	struct idmap	 lm;
	const char	**strs;
	size_t		 nstrs;
	struct pd_limits lim;
	struct sbuf	 sb;
	struct pf_sample s;		/* what wire_next() returned last */
	size_t		 next;		/* how many it has returned */
	struct arena	*slow;		/* a sample pass 3 could not read */
};

/* Room for one more frame; -1 past the depth limit. */
static int
put_loc(void *arg, uint64_t id)
{
	struct wire *r = arg;
	struct sbuf	*sb = &r->sb;
	long		 k;

	if (sb->nlocs >= r->lim.max_depth || id == 0 ||
	    (k = idmap_get(&r->lm, id)) < 0)
		return -1;
	if (sb->nlocs == sb->loccap) {
		sb->loccap = sb->loccap ? 2 * sb->loccap : 64;
		sb->locs = xreallocarray(sb->locs, sb->loccap,
		    sizeof(*sb->locs));
	}
	sb->locs[sb->nlocs++] = &r->p->locations[k];
	return 0;
}

/*
 * A Sample's location ids as every writer packs them, with ids 1..n:
 * read_packed() and put_loc() in one loop, with room made once (there
 * are no more ids than bytes).  Anything else goes the general way.
 */
static int
read_locs(struct wire *r, const unsigned char **pp,
    const unsigned char *end, unsigned wt)
{
	struct sbuf			*sb = &r->sb;
	const struct pf_location	*base = r->p->locations;
	const struct pf_location	**locs;
	const unsigned char		*p = *pp, *e;
	uint64_t			 l, id, nids = r->lm.n;
	uint32_t			 w = 0, stop;
	size_t				 n, nl, room, depth = r->lim.max_depth;

	if (wt != WT_LEN || !r->lm.identity)
		return read_packed(pp, end, wt, put_loc, r);
	if (get_varint(p, end, &l, &n) != 0 || l > (uint64_t)(end - p - n))
		return -1;
	p += n;
	e = p + l;
	room = sb->nlocs + (l < depth ? l : depth);
	if (room > sb->loccap) {
		sb->loccap = room > 2 * sb->loccap ? room : 2 * sb->loccap;
		sb->locs = xreallocarray(sb->locs, sb->loccap,
		    sizeof(*sb->locs));
	}
	locs = sb->locs;
	nl = sb->nlocs;
	for (; p < e; p += n) {
		/*
		 * Ids of up to three bytes (2 M locations) from one load of
		 * four bytes of the sample, and no branch on their length:
		 * ids of two and three bytes come in no order, and branching
		 * on them mispredicted.  stop has the top bit of each of the
		 * first three bytes that ends an id.
		 */
		stop = 0;
		if (end - p >= 4) {
			memcpy(&w, p, 4);
			w = le32toh(w);
			stop = ~w & 0x808080u;
		}
		if (stop != 0 && (n = (size_t)(__builtin_ctz(stop) >> 3) + 1) <=
		    (size_t)(e - p))
			id = ((w & 0x7f) | (w >> 1 & 0x3f80) |
			    (w >> 2 & 0x1fc000)) & ((1u << (7 * n)) - 1);
		else if (get_varint(p, e, &id, &n) != 0)
			return -1;
		/* id 0 wraps around to the largest. */
		if (id - 1 >= nids || nl >= depth)
			return -1;
		locs[nl++] = &base[id - 1];
	}
	sb->nlocs = nl;
	*pp = e;
	return 0;
}

/* One more value; -1 past the number of sample types. */
static int
put_val(void *arg, uint64_t v)
{
	struct wire *r = arg;

	if (r->sb.nvals >= r->p->nsample_types)
		return -1;
	r->sb.vals[r->sb.nvals++] = (int64_t)v;
	return 0;
}

/* One Label message; -1 unless it holds only its four varint fields. */
static int
read_label(struct wire *r, const unsigned char *p,
    const unsigned char *end)
{
	struct sbuf	*sb = &r->sb;
	struct pf_label	*lp;
	uint64_t	 f[LABEL_NFIELDS], key, v;
	size_t		 n;

	memset(f, 0, sizeof(f));
	while (p < end) {
		if (get_varint(p, end, &key, &n) != 0)
			return -1;
		p += n;
		if ((key & 7) != WT_VARINT || key >> 3 < LABEL_KEY ||
		    key >> 3 >= LABEL_NFIELDS ||
		    get_varint(p, end, &v, &n) != 0)
			return -1;
		p += n;
		f[key >> 3] = v;
	}
	if (f[LABEL_KEY] >= r->nstrs || f[LABEL_STR] >= r->nstrs ||
	    f[LABEL_NUM_UNIT] >= r->nstrs)
		return -1;
	if (sb->nlabs == sb->labcap) {
		sb->labcap = sb->labcap ? 2 * sb->labcap : 8;
		sb->labs = xreallocarray(sb->labs, sb->labcap,
		    sizeof(*sb->labs));
	}
	lp = &sb->labs[sb->nlabs++];
	lp->key = r->strs[f[LABEL_KEY]];
	lp->str = f[LABEL_STR] != 0 ? r->strs[f[LABEL_STR]] : NULL;
	lp->num = (int64_t)f[LABEL_NUM];
	lp->num_unit = r->strs[f[LABEL_NUM_UNIT]];
	return 0;
}

/* Pass 3 for one sample message in [p, end), into r->s. */
static int
fast_sample(struct wire *r, const unsigned char *p,
    const unsigned char *end)
{
	struct sbuf	*sb = &r->sb;
	uint64_t	 key, l;
	size_t		 n;

	sb->nlocs = sb->nvals = sb->nlabs = 0;
	while (p < end) {
		if (get_varint(p, end, &key, &n) != 0)
			return -1;
		p += n;
		switch (key >> 3) {
		case SAMPLE_LOCATION_ID:
			if (read_locs(r, &p, end, key & 7) == -1)
				return -1;
			break;
		case SAMPLE_VALUE:
			if (read_packed(&p, end, key & 7, put_val, r) == -1)
				return -1;
			break;
		case SAMPLE_LABEL:
			if ((key & 7) != WT_LEN ||
			    get_varint(p, end, &l, &n) != 0 ||
			    l > (uint64_t)(end - p - n) ||
			    read_label(r, p + n, p + n + l) == -1)
				return -1;
			p += n + l;
			break;
		default:
			return -1;
		}
	}
	if (sb->nvals != r->p->nsample_types)
		return -1;
	r->s.locs = sb->locs;
	r->s.nlocs = sb->nlocs;
	r->s.values = sb->vals;
	r->s.labels = sb->labs;
	r->s.nlabels = sb->nlabs;
	return 0;
}

/*
 * The next length-delimited field of the top level at or after *pp: its
 * number and its bytes [*data, *data + *len), with *pp past it.  1, or
 * 0 at the end, or -1 if the bytes are not fields.
 */
static inline int
next_bytes(const unsigned char **pp, const unsigned char *end,
    unsigned *field, const unsigned char **data, uint64_t *len)
{
	const unsigned char	*p = *pp;
	uint64_t		 key;
	size_t			 n;

	while (p < end) {
		if (get_varint(p, end, &key, &n) != 0)
			return -1;
		p += n;
		if ((key & 7) == WT_I64 || (key & 7) == WT_I32) {
			p += (key & 7) == WT_I64 ? 8 : 4;
			continue;
		}
		if (get_varint(p, end, len, &n) != 0)
			return -1;
		p += n;
		if ((key & 7) == WT_VARINT)
			continue;
		if (*len > (uint64_t)(end - p))
			return -1;
		*field = (unsigned)(key >> 3);
		*data = p;
		*pp = p + *len;
		return 1;
	}
	*pp = p;
	return 0;
}

/* Passes 1, 2 and 2b: the header. */

/* The lines of a Location read off the wire, reused from one to the next. */
struct linebuf {
	PbLine		 *v;
	PbLine		**ptr;
	size_t		  cap;
};

/* A varint of a field of [*pp, end) of up to 9 bytes (no bits dropped). */
static int
wire_varint(const unsigned char **pp, const unsigned char *end, uint64_t *v)
{
	size_t n;

	if (get_varint(*pp, end, v, &n) != 0 || n > 9)
		return -1;
	*pp += n;
	return 0;
}

/* A Line in [p, end): the fields of a varint each that it has. */
static int
wire_line(const unsigned char *p, const unsigned char *end, PbLine *ln)
{
	uint64_t	 key, v;

	perftools__profiles__line__init(ln);
	while (p < end) {
		if (wire_varint(&p, end, &key) != 0 ||
		    (key & 7) != WT_VARINT || wire_varint(&p, end, &v) != 0)
			return -1;
		switch (key >> 3) {
		case LINE_FUNCTION_ID: ln->function_id = v; break;
		case LINE_LINE: ln->line = (int64_t)v; break;
		case LINE_COLUMN: ln->column = (int64_t)v; break;
		default: return -1;
		}
	}
	return 0;
}

/*
 * A Location in [p, end) as writers write it, into *pl, its lines in
 * lb: what protobuf-c would unpack, without its tree of small
 * allocations (the costliest part of the header).  -1 for anything
 * else (an unknown field, a wire type profile.proto does not give),
 * which is then left to protobuf-c.
 */
static int
wire_location(const unsigned char *p, const unsigned char *end,
    PbLocation *pl, struct linebuf *lb)
{
	uint64_t	 key, v;
	size_t		 i;

	perftools__profiles__location__init(pl);
	while (p < end) {
		if (wire_varint(&p, end, &key) != 0 ||
		    wire_varint(&p, end, &v) != 0)
			return -1;
		if (key >> 3 == LOCATION_LINE && (key & 7) == WT_LEN) {
			if (v > (uint64_t)(end - p))
				return -1;
			if (pl->n_line == lb->cap) {
				lb->cap = lb->cap ? 2 * lb->cap : 16;
				lb->v = xreallocarray(lb->v, lb->cap,
				    sizeof(*lb->v));
				lb->ptr = xreallocarray(lb->ptr, lb->cap,
				    sizeof(*lb->ptr));
			}
			if (wire_line(p, p + v, &lb->v[pl->n_line]) != 0)
				return -1;
			pl->n_line++;
			p += v;
			continue;
		}
		if ((key & 7) != WT_VARINT)
			return -1;
		switch (key >> 3) {
		case LOCATION_ID: pl->id = v; break;
		case LOCATION_MAPPING_ID: pl->mapping_id = v; break;
		case LOCATION_ADDRESS: pl->address = v; break;
		case LOCATION_IS_FOLDED: pl->is_folded = v != 0; break;
		default: return -1;
		}
	}
	for (i = 0; i < pl->n_line; i++)
		lb->ptr[i] = &lb->v[i];
	pl->line = lb->ptr;
	return 0;
}

/* Unpack one sub-message of the top level. */
#define FAST_UNPACK(type, pa, len, data) \
	perftools__profiles__##type##__unpack((pa), (len), (data))

/*
 * Pass 1: count the top level's fields by number into cnt.  -1 unless
 * the wire walks (the reference decoder has scanned it) and the counts
 * are within the limits.
 */
static int
count_fields(const unsigned char *buf, const unsigned char *end,
    const struct pd_limits *lim, size_t cnt[PROFILE_NFIELDS])
{
	const unsigned char *p;
	uint64_t	 key, v;
	size_t		 n;
	unsigned	 field, wt;

	memset(cnt, 0, PROFILE_NFIELDS * sizeof(cnt[0]));
	for (p = buf; p < end; ) {
		if (get_varint(p, end, &key, &n) != 0)
			return -1;
		p += n;
		field = (unsigned)(key >> 3);
		wt = key & 7;
		if (field < PROFILE_NFIELDS)
			cnt[field]++;
		if (wt == WT_VARINT) {
			if (get_varint(p, end, &v, &n) != 0)
				return -1;
			p += n;
		} else if (wt == WT_LEN) {
			if (get_varint(p, end, &v, &n) != 0 ||
			    v > (uint64_t)(end - p - n))
				return -1;
			p += n + v;
		} else if (wt == WT_I64 && end - p >= 8)
			p += 8;
		else if (wt == WT_I32 && end - p >= 4)
			p += 4;
		else
			return -1;
	}
	if (cnt[PROFILE_STRING_TABLE] == 0 ||
	    cnt[PROFILE_STRING_TABLE] > lim->max_strings ||
	    cnt[PROFILE_SAMPLE_TYPE] > PD_MAX_SAMPLE_TYPES ||
	    cnt[PROFILE_MAPPING] > lim->max_locations ||
	    cnt[PROFILE_LOCATION] > lim->max_locations ||
	    cnt[PROFILE_FUNCTION] > lim->max_functions ||
	    cnt[PROFILE_PERIOD_TYPE] > 1)
		return -1;
	return 0;
}

/* A scalar field of the top level, into pb; others are ignored. */
static void
put_scalar(PbProfile *pb, unsigned field, uint64_t v)
{
	switch (field) {
	case PROFILE_DROP_FRAMES:
		pb->drop_frames = (int64_t)v;
		break;
	case PROFILE_KEEP_FRAMES:
		pb->keep_frames = (int64_t)v;
		break;
	case PROFILE_TIME_NANOS:
		pb->time_nanos = (int64_t)v;
		break;
	case PROFILE_DURATION_NANOS:
		pb->duration_nanos = (int64_t)v;
		break;
	case PROFILE_PERIOD:
		pb->period = (int64_t)v;
		break;
	case PROFILE_DEFAULT_SAMPLE_TYPE:
		pb->default_sample_type = (int64_t)v;
		break;
	default:
		break;
	}
}

/*
 * A length-delimited field of the top level, [p, p + len), into pb,
 * its messages unpacked by pa: -1 if one does not unpack.  Strings stay
 * where they are on the wire; locations are only counted (pass 2b
 * reads them), and samples are left to pass 3.
 */
static int
put_bytes(PbProfile *pb, ProtobufCAllocator *pa, unsigned field,
    const unsigned char *p, uint64_t len)
{
	switch (field) {
	case PROFILE_SAMPLE_TYPE:
		if ((pb->sample_type[pb->n_sample_type++] = FAST_UNPACK(
		    value_type, pa, len, p)) == NULL)
			return -1;
		break;
	case PROFILE_MAPPING:
		if ((pb->mapping[pb->n_mapping++] = FAST_UNPACK(mapping,
		    pa, len, p)) == NULL)
			return -1;
		break;
	case PROFILE_LOCATION:
		pb->n_location++;
		break;
	case PROFILE_FUNCTION:
		if ((pb->function[pb->n_function++] = FAST_UNPACK(
		    function, pa, len, p)) == NULL)
			return -1;
		break;
	case PROFILE_STRING_TABLE:
		pb->string_table[pb->n_string_table].len = len;
		pb->string_table[pb->n_string_table++].data =
		    (uint8_t *)(uintptr_t)p;
		break;
	case PROFILE_PERIOD_TYPE:
		if ((pb->period_type = FAST_UNPACK(value_type, pa, len,
		    p)) == NULL)
			return -1;
		break;
	default:
		break;
	}
	return 0;
}

/*
 * Pass 2: everything but the samples and the locations, into pb, with
 * room for pass 1's counts and protobuf-c's messages from scratch; the
 * comments go to *comments.  *send is where the last sample ends.
 */
static int
read_fields(const unsigned char *buf, const unsigned char *end,
    const size_t cnt[PROFILE_NFIELDS], struct arena *scratch, PbProfile *pb,
    struct u64vec *comments, const unsigned char **send)
{
	const unsigned char *p;
	ProtobufCAllocator pa;
	uint64_t	 key = 0, v = 0;
	size_t		 n = 0;
	unsigned	 field, wt;

	conv_allocator(&pa, scratch);
	perftools__profiles__profile__init(pb);
	pb->sample_type = arena_alloc(scratch, cnt[PROFILE_SAMPLE_TYPE],
	    sizeof(*pb->sample_type));
	pb->mapping = arena_alloc(scratch, cnt[PROFILE_MAPPING],
	    sizeof(*pb->mapping));
	pb->function = arena_alloc(scratch, cnt[PROFILE_FUNCTION],
	    sizeof(*pb->function));
	pb->string_table = arena_alloc(scratch, cnt[PROFILE_STRING_TABLE],
	    sizeof(*pb->string_table));
	/* Pass 1 walked these bytes: no varint here is malformed. */
	for (p = *send = buf; p < end; ) {
		get_varint(p, end, &key, &n);
		p += n;
		field = (unsigned)(key >> 3);
		wt = key & 7;
		if (field == PROFILE_COMMENT) {
			if (read_packed(&p, end, wt, put_u64, comments) == -1)
				return -1;
			continue;
		}
		if (wt != WT_LEN) {
			v = 0;
			if (wt == WT_VARINT) {
				get_varint(p, end, &v, &n);
				p += n;
			} else
				p += wt == WT_I64 ? 8 : 4;
			put_scalar(pb, field, v);
			continue;
		}
		get_varint(p, end, &v, &n);
		p += n;
		if (put_bytes(pb, &pa, field, p, v) == -1)
			return -1;
		p += v;
		if (field == PROFILE_SAMPLE)
			*send = p;
	}
	pb->n_comment = comments->n;
	pb->comment = (int64_t *)comments->v;
	return 0;
}

/*
 * Pass 2b: the locations, which need the functions (written after
 * them), one at a time, so that protobuf-c's tree of them (about 150
 * bytes a location) never exists whole.  Most are read off the wire
 * (wire_location()); protobuf-c unpacks the others.
 */
static int
read_locations(struct conv *c, const unsigned char *buf,
    const unsigned char *end, const struct idmap *mm, const struct idmap *fm,
    uint64_t *ids)
{
	const unsigned char *p, *data;
	struct linebuf	 lb;
	uint64_t	 v;
	size_t		 i;
	unsigned	 field;
	int		 rc;

	memset(&lb, 0, sizeof(lb));
	for (p = buf, i = 0; (rc = next_bytes(&p, end, &field, &data,
	    &v)) == 1; ) {
		PbLocation loc, *pl;

		if (field != PROFILE_LOCATION)
			continue;
		if (wire_location(data, data + v, &loc, &lb) == 0)
			rc = conv_location(c, i++, &loc, mm, fm, ids);
		else if ((pl = FAST_UNPACK(location, NULL, v, data)) == NULL)
			rc = -1;
		else {
			rc = conv_location(c, i++, pl, mm, fm, ids);
			perftools__profiles__location__free_unpacked(pl, NULL);
		}
		if (rc == -1)
			break;
	}
	free(lb.v);
	free(lb.ptr);
	return rc == -1 ? -1 : 0;
}

/*
 * Convert the header read by passes 2 and 2b into r->p, as the
 * reference decoder converts it, with the location map for pass 3.
 */
static int
convert_header(struct wire *r, const PbProfile *pb, const unsigned char *buf,
    const unsigned char *end, struct arena *scratch, const char *path,
    struct diag *d)
{
	const struct pd_limits *lim = &r->lim;
	struct idmap	 mm, fm;
	struct conv	 c;
	uint64_t	*ids;

	r->p = profile_new();
	r->p->path = arena_strndup(r->p->arena, path, strlen(path));
	memset(&c, 0, sizeof(c));
	c.pb = pb;
	c.p = r->p;
	c.d = d;
	/* The location map outlives the protobuf-c tree, for pass 3. */
	r->keep = arena_new();
	if (conv_strings(&c, lim) == -1 ||
	    conv_header(&c) == -1 ||
	    conv_mappings(&c, &mm, scratch, lim) == -1 ||
	    conv_functions(&c, &fm, scratch, lim) == -1 ||
	    conv_locations_alloc(&c, pb->n_location, r->keep, lim,
	    &ids) == -1 ||
	    read_locations(&c, buf, end, &mm, &fm, ids) == -1 ||
	    conv_locations_map(&c, &r->lm, r->keep, ids) == -1)
		return -1;
	r->strs = c.strs;
	r->nstrs = c.nstrs;
	return 0;
}

struct wire *
wire_open(const void *vbuf, size_t len, const char *path,
    const struct pd_limits *lim, struct profile **header, size_t *send,
    struct diag *d)
{
	const unsigned char *buf = vbuf, *end = buf + len, *sampend;
	struct arena	*scratch;
	struct u64vec	 comments;
	struct wire	*r;
	PbProfile	 pb;
	size_t		 cnt[PROFILE_NFIELDS];
	int		 rc;

	r = xcalloc(1, sizeof(*r));
	r->lim = *lim;
	if (count_fields(buf, end, lim, cnt) == -1) {
		free(r);
		return NULL;
	}
	scratch = arena_new();
	memset(&comments, 0, sizeof(comments));
	rc = read_fields(buf, end, cnt, scratch, &pb, &comments, &sampend);
	if (rc == 0)
		rc = convert_header(r, &pb, buf, end, scratch, path, d);
	free(comments.v);
	arena_free(scratch);
	if (rc == -1) {
		profile_free(r->p);
		r->p = NULL;
		wire_free(r);
		diag_init(d, d->path);
		return NULL;
	}
	r->p->nsamples = cnt[PROFILE_SAMPLE];
	r->sb.vals = xcalloc(r->p->nsample_types ? r->p->nsample_types : 1,
	    sizeof(*r->sb.vals));
	*header = r->p;
	*send = (size_t)(sampend - buf);
	return r;
}

void
wire_free(struct wire *r)
{
	if (r == NULL)
		return;
	arena_free(r->keep);
	arena_free(r->slow);
	free(r->sb.locs);
	free(r->sb.vals);
	free(r->sb.labs);
	free(r);
}

/* Pass 3, a sample at a time, as the reading room asks. */

/*
 * Pass 3's sample that fast_sample() could not read, at [p, end):
 * unpacked by protobuf-c and converted into r->s as the reference
 * decoder would.  0, or WIRE_ERROR when protobuf-c cannot unpack it
 * (then the whole file does not decode), or WIRE_REFUSED with its error
 * in the diag.
 */
static int
slow_sample(struct wire *r, const unsigned char *p, const unsigned char *end,
    struct diag *d)
{
	PbSample	*ps;
	struct conv	 c;
	int		 rc;

	arena_free(r->slow);
	r->slow = arena_new();
	if ((ps = perftools__profiles__sample__unpack(NULL,
	    (size_t)(end - p), p)) == NULL)
		return conv_undecodable(d);
	memset(&c, 0, sizeof(c));
	c.p = r->p;
	c.strs = r->strs;
	c.nstrs = r->nstrs;
	c.d = d;
	rc = conv_sample(&c, r->next, ps, &r->lm, &r->lim, r->slow, &r->s);
	perftools__profiles__sample__free_unpacked(ps, NULL);
	return rc == 0 ? 0 : WIRE_REFUSED;
}

enum wire_next
wire_next(struct wire *r, const unsigned char **at, const unsigned char *end,
    const struct pf_sample **s, struct diag *d)
{
	const unsigned char *p, *data;
	uint64_t	 v;
	unsigned	 field;
	int		 rc;

	/* The top level was checked by the reference decoder or pass 0. */
	for (;;) {
		p = *at;
		if (next_bytes(&p, end, &field, &data, &v) != 1)
			return WIRE_SHORT;
		*at = p;
		if (field != PROFILE_SAMPLE)
			continue;
		if (fast_sample(r, data, data + v) == -1 &&
		    (rc = slow_sample(r, data, data + v, d)) != 0)
			return rc;
		r->next++;
		*s = &r->s;
		return WIRE_SAMPLE;
	}
}

/*
 * Is the file decodable at all, past a sample the reference decoder
 * refuses?  Only later samples can say no; else the refused sample's
 * error is the first in file order, and it stands.
 */
int
wire_refusal(const unsigned char *q, const unsigned char *end,
    struct diag *d)
{
	const unsigned char *data;
	PbSample	*ps;
	uint64_t	 v;
	unsigned	 field;
	int		 rc;

	while ((rc = next_bytes(&q, end, &field, &data, &v)) == 1) {
		if (field != PROFILE_SAMPLE)
			continue;
		if ((ps = perftools__profiles__sample__unpack(NULL, v,
		    data)) == NULL)
			return conv_undecodable(d);
		perftools__profiles__sample__free_unpacked(ps, NULL);
	}
	return rc == -1 ? conv_undecodable(d) : -1;
}

/*
 * Pass 0, for a file read twice: every field of the top level but the
 * samples is kept, and a Go profile's header is a small part of it.
 */
#define HB_STEP		(256u << 10)	/* the header's first room */
#define FIELD_HEAD	20		/* a key and a length, at most */

static void
hb_add(struct wire_skim *t, const unsigned char *p, size_t n)
{
	if (n > t->hbcap - t->hblen) {
		while (n > t->hbcap - t->hblen)
			t->hbcap = t->hbcap ? t->hbcap * 2 : HB_STEP;
		t->hb = xreallocarray(t->hb, t->hbcap, 1);
	}
	memcpy(t->hb + t->hblen, p, n);
	t->hblen += n;
}

ssize_t
wire_skim(struct wire_skim *t, const unsigned char *win, size_t have,
    int eof)
{
	const unsigned char *p;
	size_t		 at, n, kn, vn;
	uint64_t	 key, v;

	for (at = 0, t->ended = 0; at < have; ) {
		n = have - at;
		if (t->copy > 0) {
			n = n < t->copy ? n : (size_t)t->copy;
			hb_add(t, win + at, n);
			t->copy -= n;
			at += n;
			continue;
		}
		if (t->skip > 0) {
			n = n < t->skip ? n : (size_t)t->skip;
			at += n;
			if ((t->skip -= n) == 0) {
				t->send = t->off + at;
				t->ended = 1;
			}
			continue;
		}
		if (have - at < FIELD_HEAD && !eof)
			break;
		p = win + at;
		/*
		 * Field 0 is no field: zeros (a gzip bomb's) would be kept
		 * as the header two bytes at a time, up to the limit.
		 */
		if (get_varint(p, win + have, &key, &kn) != 0 || key >> 3 == 0)
			return -1;
		switch (key & 7) {
		case WT_VARINT:
			if (get_varint(p + kn, win + have, &v, &vn) != 0)
				return -1;
			hb_add(t, p, kn + vn);
			at += kn + vn;
			break;
		case WT_I64:
		case WT_I32:
			hb_add(t, p, kn);
			at += kn;
			t->copy = (key & 7) == WT_I64 ? 8 : 4;
			break;
		case WT_LEN:
			if (get_varint(p + kn, win + have, &v, &vn) != 0)
				return -1;
			at += kn + vn;
			if (key >> 3 != PROFILE_SAMPLE) {
				hb_add(t, p, kn + vn);
				t->copy = v;
			} else if (t->nsamples++, (t->skip = v) == 0) {
				t->send = t->off + at;
				t->ended = 1;
			}
			break;
		default:
			return -1;
		}
	}
	t->off += at;
	return (ssize_t)at;
}

int
wire_skim_done(const struct wire_skim *t)
{
	return t->skip == 0 && t->copy == 0;
}

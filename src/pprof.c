/*
 * The pprof decoder: bytes -> struct profile, the header first and then
 * the samples one at a time (the reader, pprof_open() and pprof_next()).
 * It reads the input (bounded), inflates gzip (gunzip.c), asks
 * input_sniff() what the bytes are, walks the top level of the protobuf
 * wire format to report truncation with a byte offset, and hands the
 * bytes to the fast wire path (wire.c), or to the reference decoder
 * here, which unpacks with protobuf-c into a scratch arena, then
 * validates everything profile.proto requires while copying it into the
 * plain model.  It rejects, never repairs.  It knows nothing of
 * statistics or output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "compat.h"
#include "diag.h"
#include "folded.h"
#include "gunzip.h"
#include "input.h"
#include "pbconv.h"
#include "profdiff.h"
#include "profile.h"
#include "wire.h"
#include "xmalloc.h"

/* Reading the input. */

static ssize_t
fd_read(void *ctx, void *buf, size_t n)
{
	ssize_t r;

	while ((r = read(*(int *)ctx, buf, n)) == -1 && errno == EINTR)
		continue;
	return r;
}

/*
 * Is fd a regular gzipped file, as the fast paths want it?  Then tail
 * holds its last four bytes (ISIZE, gunzip_size_hint()).
 */
static int
gzip_tail(int fd, const struct stat *st, unsigned char tail[4])
{
	unsigned char head[2];

	return S_ISREG(st->st_mode) && st->st_size >= 18 &&
	    pread(fd, head, 2, 0) == 2 && gunzip_is_gzip(head, 2) &&
	    pread(fd, tail, 4, st->st_size - 4) == 4;
}

/*
 * Inflate a regular gzipped file as it is read, so that its compressed
 * bytes are never all in memory.  Returns 1 with the inflated bytes, 0
 * with the file at its start when it must be read whole (anything the
 * fast path leaves to gunzip(), errors included), or -1 when it cannot
 * be put back there.
 */
static int
stream_gzip(int fd, const struct stat *st, const unsigned char tail[4],
    const struct pd_limits *lim, unsigned char **out, size_t *outlen)
{
	if (gunzip_stream(fd_read, &fd, (uint64_t)st->st_size,
	    gunzip_size_hint(tail), out, outlen, lim->max_inflated,
	    lim->max_ratio) == 0)
		return 1;
	return lseek(fd, 0, SEEK_SET) == -1 ? -1 : 0;
}


/* Walking the top level of the wire format. */

static const char *const field_names[PROFILE_NFIELDS] = {
	[PROFILE_SAMPLE_TYPE] = "sample_type",
	[PROFILE_SAMPLE] = "sample",
	[PROFILE_MAPPING] = "mapping",
	[PROFILE_LOCATION] = "location",
	[PROFILE_FUNCTION] = "function",
	[PROFILE_STRING_TABLE] = "string_table",
	[PROFILE_DROP_FRAMES] = "drop_frames",
	[PROFILE_KEEP_FRAMES] = "keep_frames",
	[PROFILE_TIME_NANOS] = "time_nanos",
	[PROFILE_DURATION_NANOS] = "duration_nanos",
	[PROFILE_PERIOD_TYPE] = "period_type",
	[PROFILE_PERIOD] = "period",
	[PROFILE_COMMENT] = "comment",
	[PROFILE_DEFAULT_SAMPLE_TYPE] = "default_sample_type",
};

/*
 * Check that the top-level fields of a Profile fit in the buffer and have
 * the wire types profile.proto gives them, so that a truncated file gets
 * a byte offset and a non-profile a reason.  protobuf-c checks the rest.
 */
static int
scan_top_level(const unsigned char *buf, size_t len, struct diag *d)
{
	const unsigned char *p = buf, *end = buf + len;
	uint64_t	 key, v;
	size_t		 n;
	unsigned	 field, wt;
	int		 known, rc;

	while (p < end) {
		long long off = (long long)(p - buf);

		if ((rc = get_varint(p, end, &key, &n)) != 0)
			return diag_set(d, rc == -2 ? DIAG_CORRUPT : DIAG_FORMAT,
			    off, rc == -2 ? "truncated protobuf field key" :
			    "protobuf varint longer than 10 bytes");
		p += n;
		field = (unsigned)(key >> 3);
		wt = key & 7;
		if (key >> 3 == 0 || key >> 3 > 536870911)
			return diag_set(d, DIAG_FORMAT, off,
			    "invalid protobuf field number %llu",
			    (unsigned long long)(key >> 3));
		known = field < PROFILE_NFIELDS;
		if (known) {
			/* The messages and strings; comments may be packed. */
			int want_len = field <= PROFILE_STRING_TABLE ||
			    field == PROFILE_PERIOD_TYPE;
			int ok = want_len ? wt == WT_LEN : (wt == WT_VARINT ||
			    (field == PROFILE_COMMENT && wt == WT_LEN));

			if (!ok)
				return diag_set(d, DIAG_FORMAT, off,
				    "field %u (%s) has protobuf wire type %u, "
				    "expected %u", field, field_names[field],
				    wt, want_len ? WT_LEN : WT_VARINT);
		}
		switch (wt) {
		case WT_VARINT:
			if ((rc = get_varint(p, end, &v, &n)) != 0)
				return diag_set(d, rc == -2 ? DIAG_CORRUPT :
				    DIAG_FORMAT, (long long)(p - buf),
				    rc == -2 ? "truncated protobuf varint" :
				    "protobuf varint longer than 10 bytes");
			p += n;
			break;
		case WT_I64:
			if (end - p < 8)
				goto truncated;
			p += 8;
			break;
		case WT_LEN:
			if ((rc = get_varint(p, end, &v, &n)) != 0)
				return diag_set(d, rc == -2 ? DIAG_CORRUPT :
				    DIAG_FORMAT, (long long)(p - buf),
				    rc == -2 ? "truncated protobuf length" :
				    "protobuf varint longer than 10 bytes");
			p += n;
			if (v > (uint64_t)(end - p))
				return diag_set(d, DIAG_CORRUPT, off,
				    "truncated: field %u%s%s%s needs %llu bytes, "
				    "only %zu remain", field, known ? " (" : "",
				    known ? field_names[field] : "",
				    known ? ")" : "",
				    (unsigned long long)v, (size_t)(end - p));
			p += v;
			break;
		case WT_I32:
			if (end - p < 4)
				goto truncated;
			p += 4;
			break;
		default:
			return diag_set(d, DIAG_FORMAT, off,
			    "unsupported protobuf wire type %u", wt);
		}
		continue;
truncated:
		return diag_set(d, DIAG_CORRUPT, off, "truncated protobuf field");
	}
	return 0;
}

/* protobuf-c allocates from the scratch arena; nothing is freed alone. */

static void *
pb_alloc(void *a, size_t n)
{
	return arena_alloc(a, 1, n);
}

static void
pb_nofree(void *a, void *p)
{
	(void)a;
	(void)p;
}

void
conv_allocator(ProtobufCAllocator *pa, struct arena *a)
{
	pa->alloc = pb_alloc;
	pa->free = pb_nofree;
	pa->allocator_data = a;
}

int
conv_undecodable(struct diag *d)
{
	return diag_set(d, DIAG_FORMAT, -1,
	    "protobuf data does not decode as a pprof Profile");
}

/* Resolving ids: a direct table when ids are dense, else a sorted list. */

struct idpair {
	uint64_t	 id;
	uint32_t	 idx;
};

static int
idpair_cmp(const void *a, const void *b)
{
	const struct idpair *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Build the map; the caller has checked n against a PD_MAX_* limit.
 * Returns 0, or the position of the first zero or duplicate id as -(i+1)
 * with *dup saying which.
 */
static long
idmap_build(struct idmap *m, struct arena *a, const uint64_t *ids,
    size_t stride, size_t n, int *dup)
{
	struct idpair	*pairs;
	size_t		 i;
	uint64_t	 max = 0;

	memset(m, 0, sizeof(*m));
	m->n = n;
	for (i = 0; i < n; i++) {
		uint64_t id = *(const uint64_t *)((const char *)ids + i * stride);

		if (id == 0) {
			*dup = 0;
			return -(long)(i + 1);
		}
		if (id > max)
			max = id;
	}
	m->max = max;
	/* What Go writes: a lookup is then a subtraction. */
	for (i = 0; i < n; i++)
		if (*(const uint64_t *)((const char *)ids + i * stride) != i + 1)
			break;
	if (i == n) {
		m->identity = 1;
		return 0;
	}
	if (max <= 4 * (uint64_t)n + 64) {
		m->direct = arena_calloc(a, (size_t)max + 1, sizeof(uint32_t));
		for (i = 0; i < n; i++) {
			uint64_t id = *(const uint64_t *)((const char *)ids +
			    i * stride);

			if (m->direct[id] != 0) {
				*dup = 1;
				return -(long)(i + 1);
			}
			m->direct[id] = (uint32_t)i + 1;
		}
		return 0;
	}
	pairs = arena_alloc(a, n, sizeof(*pairs));
	for (i = 0; i < n; i++) {
		pairs[i].id = *(const uint64_t *)((const char *)ids + i * stride);
		pairs[i].idx = (uint32_t)i;
	}
	qsort(pairs, n, sizeof(*pairs), idpair_cmp);
	m->ids = arena_alloc(a, n, sizeof(uint64_t));
	m->idx = arena_alloc(a, n, sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		if (i > 0 && pairs[i].id == pairs[i - 1].id) {
			*dup = 1;
			return -(long)(pairs[i].idx + 1);
		}
		m->ids[i] = pairs[i].id;
		m->idx[i] = pairs[i].idx;
	}
	return 0;
}

long
idmap_get(const struct idmap *m, uint64_t id)
{
	size_t lo = 0, hi = m->n;

	if (m->identity)
		return id >= 1 && id <= m->n ? (long)id - 1 : -1;
	if (m->direct != NULL)
		return id <= m->max && m->direct[id] != 0 ?
		    (long)m->direct[id] - 1 : -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->ids[mid] == id)
			return (long)m->idx[mid];
		if (m->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Conversion and validation. */

/*
 * Copy one string-table entry.  Names may hold any bytes; a NUL would end
 * a C string early, so it is spelled \x00 instead.
 */
static const char *
copy_string(struct arena *a, const ProtobufCBinaryData *b)
{
	size_t	 i, nul = 0;
	char	*s, *q;

	for (i = 0; i < b->len; i++)
		nul += b->data[i] == '\0';
	if (nul == 0)
		return arena_strndup(a, (const char *)b->data, b->len);
	s = q = arena_alloc(a, b->len + 3 * nul + 1, 1);
	for (i = 0; i < b->len; i++) {
		if (b->data[i] == '\0') {
			memcpy(q, "\\x00", 4);
			q += 4;
		} else
			*q++ = (char)b->data[i];
	}
	*q = '\0';
	return s;
}

/* Look up a string index; on error fill the diag naming the element. */
static int
str_at(struct conv *c, int64_t i, const char **out, const char *what)
{
	if (i < 0 || (uint64_t)i >= c->nstrs)
		return diag_set(c->d, DIAG_CORRUPT, -1,
		    "%s: string index %lld out of range (string_table has "
		    "%zu entries)", what, (long long)i, c->nstrs);
	*out = c->strs[i];
	return 0;
}

static int
conv_valuetype(struct conv *c, const PbValueType *v, struct pf_valuetype *out,
    const char *what)
{
	if (v == NULL) {
		out->type = out->unit = "";
		return 0;
	}
	if (str_at(c, v->type, &out->type, what) == -1 ||
	    str_at(c, v->unit, &out->unit, what) == -1)
		return -1;
	return 0;
}

int
conv_strings(struct conv *c, const struct pd_limits *lim)
{
	const PbProfile	*pb = c->pb;
	size_t		 i;

	if (pb->n_string_table == 0)
		return diag_set(c->d, DIAG_FORMAT, -1,
		    "no string table (profile.proto requires one)");
	if (pb->n_string_table > lim->max_strings)
		return diag_set(c->d, DIAG_LIMIT, -1, "%zu strings, more than "
		    "the limit of %zu (raise with --max-strings)",
		    pb->n_string_table, lim->max_strings);
	if (pb->string_table[0].len != 0)
		return diag_set(c->d, DIAG_CORRUPT, -1,
		    "string_table[0] is not the empty string");
	c->nstrs = pb->n_string_table;
	c->strs = arena_alloc(c->p->arena, c->nstrs, sizeof(char *));
	for (i = 0; i < c->nstrs; i++)
		c->strs[i] = copy_string(c->p->arena, &pb->string_table[i]);
	return 0;
}

int
conv_header(struct conv *c)
{
	const PbProfile	*pb = c->pb;
	struct profile	*p = c->p;
	char		 what[64];
	size_t		 i;

	if (pb->n_sample_type > PD_MAX_SAMPLE_TYPES)
		return diag_set(c->d, DIAG_LIMIT, -1,
		    "%zu sample types, more than the limit of %d",
		    pb->n_sample_type, PD_MAX_SAMPLE_TYPES);
	p->nsample_types = pb->n_sample_type;
	p->sample_types = arena_calloc(p->arena, p->nsample_types,
	    sizeof(*p->sample_types));
	for (i = 0; i < pb->n_sample_type; i++) {
		snprintf(what, sizeof(what), "sample_type %zu", i);
		if (conv_valuetype(c, pb->sample_type[i], &p->sample_types[i],
		    what) == -1)
			return -1;
	}
	if (conv_valuetype(c, pb->period_type, &p->period_type,
	    "period_type") == -1 ||
	    str_at(c, pb->drop_frames, &p->drop_frames, "drop_frames") == -1 ||
	    str_at(c, pb->keep_frames, &p->keep_frames, "keep_frames") == -1 ||
	    str_at(c, pb->default_sample_type, &p->default_sample_type,
	    "default_sample_type") == -1)
		return -1;
	p->time_nanos = pb->time_nanos;
	p->duration_nanos = pb->duration_nanos;
	p->period = pb->period;
	p->ncomments = pb->n_comment;
	p->comments = arena_alloc(p->arena, p->ncomments, sizeof(char *));
	for (i = 0; i < pb->n_comment; i++) {
		snprintf(what, sizeof(what), "comment %zu", i);
		if (str_at(c, pb->comment[i], &p->comments[i], what) == -1)
			return -1;
	}
	return 0;
}

static int
dup_or_zero(struct conv *c, const char *kind, long rc, int dup,
    uint64_t id)
{
	if (dup)
		return diag_set(c->d, DIAG_CORRUPT, -1, "%s %ld: duplicate id "
		    "%llu", kind, -rc - 1, (unsigned long long)id);
	return diag_set(c->d, DIAG_CORRUPT, -1, "%s %ld: id is 0 (reserved)",
	    kind, -rc - 1);
}

int
conv_mappings(struct conv *c, struct idmap *m, struct arena *scratch,
    const struct pd_limits *lim)
{
	const PbProfile	*pb = c->pb;
	struct profile	*p = c->p;
	uint64_t	*ids;
	char		 what[64];
	size_t		 i;
	long		 rc;
	int		 dup;

	if (pb->n_mapping > lim->max_locations)
		return diag_set(c->d, DIAG_LIMIT, -1, "%zu mappings, more than the limit of %zu",
		    pb->n_mapping, lim->max_locations);
	p->nmappings = pb->n_mapping;
	p->mappings = arena_calloc(p->arena, p->nmappings, sizeof(*p->mappings));
	ids = arena_alloc(scratch, p->nmappings, sizeof(*ids));
	for (i = 0; i < pb->n_mapping; i++) {
		const PbMapping		*pm = pb->mapping[i];
		struct pf_mapping	*mp = &p->mappings[i];

		snprintf(what, sizeof(what), "mapping %zu", i);
		mp->id = ids[i] = pm->id;
		mp->memory_start = pm->memory_start;
		mp->memory_limit = pm->memory_limit;
		mp->file_offset = pm->file_offset;
		if (str_at(c, pm->filename, &mp->filename, what) == -1 ||
		    str_at(c, pm->build_id, &mp->build_id, what) == -1)
			return -1;
		mp->has_functions = pm->has_functions;
		mp->has_filenames = pm->has_filenames;
		mp->has_line_numbers = pm->has_line_numbers;
		mp->has_inline_frames = pm->has_inline_frames;
	}
	if ((rc = idmap_build(m, scratch, ids, sizeof(*ids), p->nmappings,
	    &dup)) != 0)
		return dup_or_zero(c, "mapping", rc, dup, ids[-rc - 1]);
	return 0;
}

int
conv_functions(struct conv *c, struct idmap *m, struct arena *scratch,
    const struct pd_limits *lim)
{
	const PbProfile	*pb = c->pb;
	struct profile	*p = c->p;
	uint64_t	*ids;
	char		 what[64];
	size_t		 i;
	long		 rc;
	int		 dup;

	if (pb->n_function > lim->max_functions)
		return diag_set(c->d, DIAG_LIMIT, -1, "%zu functions, more "
		    "than the limit of %zu (raise with --max-functions)",
		    pb->n_function, lim->max_functions);
	p->nfunctions = pb->n_function;
	p->functions = arena_calloc(p->arena, p->nfunctions,
	    sizeof(*p->functions));
	ids = arena_alloc(scratch, p->nfunctions, sizeof(*ids));
	for (i = 0; i < pb->n_function; i++) {
		const PbFunction	*pf = pb->function[i];
		struct pf_function	*fp = &p->functions[i];

		snprintf(what, sizeof(what), "function %zu", i);
		fp->id = ids[i] = pf->id;
		fp->start_line = pf->start_line;
		if (str_at(c, pf->name, &fp->name, what) == -1 ||
		    str_at(c, pf->system_name, &fp->system_name, what) == -1 ||
		    str_at(c, pf->filename, &fp->filename, what) == -1)
			return -1;
	}
	if ((rc = idmap_build(m, scratch, ids, sizeof(*ids), p->nfunctions,
	    &dup)) != 0)
		return dup_or_zero(c, "function", rc, dup, ids[-rc - 1]);
	return 0;
}

/* Convert location i; its ids[i] is kept for the id map. */
int
conv_location(struct conv *c, size_t i, const PbLocation *pl,
    const struct idmap *mm, const struct idmap *fm, uint64_t *ids)
{
	struct profile	*p = c->p;
	struct pf_location *lp = &p->locations[i];
	size_t		 j;
	long		 k;

	lp->id = ids[i] = pl->id;
	lp->address = pl->address;
	lp->is_folded = pl->is_folded;
	if (pl->mapping_id != 0) {
		if ((k = idmap_get(mm, pl->mapping_id)) < 0)
			return diag_set(c->d, DIAG_CORRUPT, -1,
			    "location %zu: mapping_id %llu not defined",
			    i, (unsigned long long)pl->mapping_id);
		lp->mapping = &p->mappings[k];
	}
	lp->nlines = pl->n_line;
	lp->lines = arena_calloc(p->arena, lp->nlines, sizeof(*lp->lines));
	for (j = 0; j < pl->n_line; j++) {
		uint64_t fid = pl->line[j]->function_id;

		lp->lines[j].line = pl->line[j]->line;
		lp->lines[j].column = pl->line[j]->column;
		if (fid == 0)
			continue;
		if ((k = idmap_get(fm, fid)) < 0)
			return diag_set(c->d, DIAG_CORRUPT, -1,
			    "location %zu: line %zu: function_id %llu "
			    "not defined", i, j, (unsigned long long)fid);
		lp->lines[j].function = &p->functions[k];
	}
	return 0;
}

/* Room for n locations, and their ids in scratch; -1 past the limit. */
int
conv_locations_alloc(struct conv *c, size_t n, struct arena *scratch,
    const struct pd_limits *lim, uint64_t **ids)
{
	struct profile	*p = c->p;

	if (n > lim->max_locations)
		return diag_set(c->d, DIAG_LIMIT, -1, "%zu locations, more "
		    "than the limit of %zu (raise with --max-locations)",
		    n, lim->max_locations);
	p->nlocations = n;
	p->locations = arena_calloc(p->arena, n, sizeof(*p->locations));
	*ids = arena_alloc(scratch, n, sizeof(**ids));
	return 0;
}

int
conv_locations_map(struct conv *c, struct idmap *lm, struct arena *scratch,
    const uint64_t *ids)
{
	long	 rc;
	int	 dup;

	if ((rc = idmap_build(lm, scratch, ids, sizeof(*ids),
	    c->p->nlocations, &dup)) != 0)
		return dup_or_zero(c, "location", rc, dup, ids[-rc - 1]);
	return 0;
}

static int
conv_locations(struct conv *c, struct idmap *lm, const struct idmap *mm,
    const struct idmap *fm, struct arena *scratch,
    const struct pd_limits *lim)
{
	const PbProfile	*pb = c->pb;
	uint64_t	*ids;
	size_t		 i;

	if (conv_locations_alloc(c, pb->n_location, scratch, lim, &ids) == -1)
		return -1;
	for (i = 0; i < pb->n_location; i++)
		if (conv_location(c, i, pb->location[i], mm, fm, ids) == -1)
			return -1;
	return conv_locations_map(c, lm, scratch, ids);
}

/* Convert sample i into *sp, from the arena a. */
int
conv_sample(struct conv *c, size_t i, const PbSample *ps,
    const struct idmap *lm, const struct pd_limits *lim, struct arena *a,
    struct pf_sample *sp)
{
	struct profile	*p = c->p;
	char		 what[64];
	size_t		 j;
	long		 k;

	if (ps->n_value != p->nsample_types)
		return diag_set(c->d, DIAG_CORRUPT, -1, "sample %zu: "
		    "%zu values for %zu sample types", i, ps->n_value,
		    p->nsample_types);
	if (ps->n_location_id > lim->max_depth)
		return diag_set(c->d, DIAG_LIMIT, -1, "sample %zu: "
		    "stack of %zu frames, more than the limit of %zu "
		    "(raise with --max-depth)", i, ps->n_location_id,
		    lim->max_depth);
	sp->values = arena_alloc(a, ps->n_value, sizeof(int64_t));
	/* No sample types: protobuf-c leaves value NULL. */
	if (ps->n_value > 0)
		memcpy(sp->values, ps->value, ps->n_value * sizeof(int64_t));
	sp->nlocs = ps->n_location_id;
	sp->locs = arena_alloc(a, sp->nlocs, sizeof(*sp->locs));
	for (j = 0; j < ps->n_location_id; j++) {
		uint64_t id = ps->location_id[j];

		if (id == 0)
			return diag_set(c->d, DIAG_CORRUPT, -1,
			    "sample %zu: location_id 0 (reserved)", i);
		if ((k = idmap_get(lm, id)) < 0)
			return diag_set(c->d, DIAG_CORRUPT, -1,
			    "sample %zu: location_id %llu not defined",
			    i, (unsigned long long)id);
		sp->locs[j] = &p->locations[k];
	}
	sp->nlabels = ps->n_label;
	sp->labels = arena_calloc(a, sp->nlabels, sizeof(*sp->labels));
	snprintf(what, sizeof(what), "sample %zu: label", i);
	for (j = 0; j < ps->n_label; j++) {
		const Perftools__Profiles__Label *pl = ps->label[j];
		struct pf_label *lp = &sp->labels[j];

		lp->num = pl->num;
		if (str_at(c, pl->key, &lp->key, what) == -1 ||
		    str_at(c, pl->num_unit, &lp->num_unit, what) == -1)
			return -1;
		if (pl->str != 0 && str_at(c, pl->str, &lp->str, what) == -1)
			return -1;
	}
	return 0;
}

static int
conv_samples(struct conv *c, const struct idmap *lm,
    const struct pd_limits *lim)
{
	const PbProfile	*pb = c->pb;
	struct profile	*p = c->p;
	size_t		 i;

	p->nsamples = pb->n_sample;
	p->samples = arena_calloc(p->arena, p->nsamples, sizeof(*p->samples));
	for (i = 0; i < pb->n_sample; i++)
		if (conv_sample(c, i, pb->sample[i], lm, lim, p->arena,
		    &p->samples[i]) == -1)
			return -1;
	return 0;
}

/*
 * Unpack bytes whose top level scan_top_level() has passed, and convert
 * them: the reference decoder.  Returns NULL with the diag filled.
 */
static struct profile *
decode_slow(const unsigned char *buf, size_t len, const char *path,
    const struct pd_limits *lim, struct diag *d)
{
	ProtobufCAllocator	 pa;
	struct arena		*scratch;
	struct profile		*p;
	struct idmap		 mm, fm, lm;
	struct conv		 c;
	PbProfile		*pb;

	scratch = arena_new();
	conv_allocator(&pa, scratch);
	pb = perftools__profiles__profile__unpack(&pa, len, buf);
	if (pb == NULL) {
		arena_free(scratch);
		conv_undecodable(d);
		return NULL;
	}

	p = profile_new();
	p->path = arena_strndup(p->arena, path, strlen(path));
	memset(&c, 0, sizeof(c));
	c.pb = pb;
	c.p = p;
	c.d = d;
	if (conv_strings(&c, lim) == -1 ||
	    conv_header(&c) == -1 ||
	    conv_mappings(&c, &mm, scratch, lim) == -1 ||
	    conv_functions(&c, &fm, scratch, lim) == -1 ||
	    conv_locations(&c, &lm, &mm, &fm, scratch, lim) == -1 ||
	    conv_samples(&c, &lm, lim) == -1) {
		profile_free(p);
		arena_free(scratch);
		return NULL;
	}
	arena_free(scratch);
	return p;
}

/*
 * A profile being read: its header (everything but the samples) decoded
 * at pprof_open(), its samples one at a time by pprof_next().  On the
 * fast path the samples are read off the wire (wire.c), and the bytes
 * behind are given back to the system as the reading goes.  Otherwise
 * the samples come from a profile decode_slow() or folded_decode()
 * built whole at pprof_open().
 */
struct pf_reader {
	struct profile	*p;		/* the header; p->samples is NULL */
	struct wire	*w;		/* fast path: the samples' reader */
	unsigned char	*raw;		/* the bytes, when the reader owns them */
	const unsigned char *buf;	/* the wire */
	size_t		 len;
	const unsigned char *at;	/* fast path: where pass 3 goes on */
	struct pd_limits lim;
	size_t		 next;		/* how many samples have been read */
	const unsigned char *freed;	/* raw up to here is given back */
	struct pf_sample *samples;	/* a profile built whole, or NULL */
	int		 failed;

	/*
	 * A large gzipped file read twice (read_twice()): pass 3 inflates
	 * the wire again into buf as it reads, up to check_end, where the
	 * CRC of the output must be the one pass 0 saw.  buf is a window
	 * of cap bytes, whose unread bytes move to its front to make room:
	 * offsets into it (len, filled, check_end) move with them.
	 */
	struct gunzip_pull *pull;	/* pass 3's inflater, or NULL */
	int		 fd;		/* the file, while pull is open */
	size_t		 cap;
	size_t		 filled;	/* buf is inflated up to here */
	size_t		 check_end;
	uint32_t	 check_crc;
};

/*
 * Reading a large gzipped file twice.  Go writes the samples first and
 * the locations they name after them, so a file read once must be held
 * whole until its header is decoded: its samples are most of it.  Pass
 * 0 inflates the file for everything but the samples, which it skips
 * as they come; pass 3 inflates it again as pprof_next() reads the
 * samples, a step at a time, into a window it reuses.  That costs a
 * second inflate of the samples (bench/FINDINGS.md).  Pass 0
 * only ever succeeds: on anything it does not take, the file is read
 * whole as before, which words any error.
 */
#define PULL_STEP	(256u << 10)	/* inflated bytes at a time */

/* What pass 0 finds (wire_skim()), and where pass 3 checks the CRC. */
struct twice {
	struct wire_skim skim;
	uint64_t	 check_end;	/* the CRC of [0, check_end) */
	uint32_t	 check_crc;
};

/*
 * Pass 0: the inflated bytes, a step at a time, to wire_skim().  0, or
 * -1 if the file is to be read whole.
 */
static int
walk_fields(struct gunzip_pull *g, struct twice *t)
{
	unsigned char	*win;
	size_t		 have = 0;
	uint64_t	 off = 0;		/* where win starts */
	ssize_t		 got, at;
	int		 eof, first = 1, rc = -1;

	win = xmalloc(PULL_STEP);
	do {
		if ((got = gunzip_pull(g, win + have, PULL_STEP - have)) == -1)
			goto out;
		eof = (size_t)got < PULL_STEP - have;
		have += (size_t)got;
		/* What reader_start() would not read as protobuf. */
		if (first && input_sniff(win, have) != INPUT_PROTOBUF)
			goto out;
		first = 0;
		if ((at = wire_skim(&t->skim, win, have, eof)) == -1)
			goto out;
		/* The CRC is checked past the last sample, where pass 3 stops. */
		if (t->skim.ended) {
			t->check_end = off + have;
			t->check_crc = gunzip_pull_crc(g);
		}
		memmove(win, win + at, have - (size_t)at);
		off += (size_t)at;
		have -= (size_t)at;
	} while (!eof);
	/* The input ends between fields. */
	if (have == 0 && wire_skim_done(&t->skim))
		rc = 0;
out:
	free(win);
	return rc;
}

/*
 * Read fd, the regular gzipped file path whose last bytes are tail,
 * twice if it is large enough to be worth it: 1 with the header decoded
 * and pass 3 ready to pull the samples (r has fd), 0 with fd back at
 * its start if it is to be read whole, -1 if it cannot be put back.
 */
static int
read_twice(struct pf_reader *r, const char *path, int fd,
    const struct stat *st, const unsigned char tail[4])
{
	struct gunzip_pull *g = NULL;
	struct twice	 t;
	struct diag	 quiet;
	uint64_t	 size = (uint64_t)st->st_size;
	size_t		 send;

	if (gunzip_size_hint(tail) < r->lim.read_twice &&
	    size < r->lim.read_twice)
		return 0;
	memset(&t, 0, sizeof(t));
	r->fd = fd;
	if ((g = gunzip_pull_open(fd_read, &r->fd, size, r->lim.max_inflated,
	    r->lim.max_ratio)) == NULL || walk_fields(g, &t) == -1 ||
	    t.skim.nsamples == 0 || t.skim.hblen == 0 ||
	    t.check_end > SIZE_MAX)
		goto no;
	gunzip_pull_close(g);
	g = NULL;

	/*
	 * The header, as reader_start() decodes it from the whole file; its
	 * strings are copied, and the bytes go.
	 */
	diag_init(&quiet, path);
	if (scan_top_level(t.skim.hb, t.skim.hblen, &quiet) == -1 ||
	    (r->w = wire_open(t.skim.hb, t.skim.hblen, path, &r->lim, &r->p,
	    &send, &quiet)) == NULL)
		goto no;
	r->p->nsamples = t.skim.nsamples;
	free(t.skim.hb);
	t.skim.hb = NULL;

	/* Pass 3 starts over, at the first byte. */
	if (lseek(fd, 0, SEEK_SET) == -1)
		goto no;
	r->pull = gunzip_pull_open(fd_read, &r->fd, size, r->lim.max_inflated,
	    r->lim.max_ratio);
	r->cap = 2 * PULL_STEP;
	r->raw = xmalloc(r->cap);
	r->buf = r->at = r->freed = r->raw;
	r->len = (size_t)t.skim.send;
	r->filled = 0;
	r->check_end = (size_t)t.check_end;
	r->check_crc = t.check_crc;
	return 1;

no:
	gunzip_pull_close(g);
	free(t.skim.hb);
	wire_free(r->w);
	r->w = NULL;
	profile_free(r->p);
	r->p = NULL;
	free(r->raw);
	r->raw = NULL;
	r->buf = NULL;
	r->len = 0;
	r->fd = -1;
	return lseek(fd, 0, SEEK_SET) == -1 ? -1 : 0;
}

/*
 * Pass 3: the next step of the wire, inflated again.  Past the last
 * sample, the output must be what pass 0 saw.
 */
static int
pull_more(struct pf_reader *r, struct diag *d)
{
	size_t n = r->check_end - r->filled, gone, keep;

	if (n > PULL_STEP)
		n = PULL_STEP;
	if (r->filled + n > r->cap) {
		/* What is read goes; the field being read moves to the front. */
		gone = (size_t)(r->at - r->buf);
		keep = r->filled - gone;
		memmove(r->raw, r->at, keep);
		if (keep + n > r->cap) {
			/* Enough: keep <= cap, and n <= PULL_STEP <= cap / 2. */
			r->cap *= 2;
			r->raw = xreallocarray(r->raw, r->cap, 1);
		}
		r->buf = r->at = r->freed = r->raw;
		r->filled = keep;
		r->len -= gone;
		r->check_end -= gone;
	}
	if (n == 0 ||
	    gunzip_pull(r->pull, r->raw + r->filled, n) != (ssize_t)n ||
	    (r->filled + n == r->check_end &&
	    gunzip_pull_crc(r->pull) != r->check_crc)) {
		diag_init(d, d->path);
		return diag_set(d, DIAG_IO, -1,
		    "the file changed while it was being read");
	}
	r->filled += n;
	return 0;
}

/* Pass 3: inflate to the end of the check. */
static int
pull_all(struct pf_reader *r, struct diag *d)
{
	while (r->pull != NULL && r->filled < r->check_end)
		if (pull_more(r, d) == -1)
			return -1;
	return 0;
}

/* Done with the bytes, which nothing reads again. */
static void
drop_bytes(struct pf_reader *r)
{
	if (r->pull != NULL) {
		gunzip_pull_close(r->pull);
		close(r->fd);
		r->pull = NULL;
	}
	free(r->raw);
	r->raw = NULL;
	r->buf = NULL;
	r->len = 0;
}

/* Open over the bytes at r->buf, which r may own (r->raw). */
static struct pf_reader *
reader_start(struct pf_reader *r, const char *path, struct diag *d)
{
	const unsigned char	*buf = r->buf;
	size_t			 len = r->len, send;
	struct profile		*p = NULL;
	enum input_kind		 k;

	switch (k = input_sniff(buf, len)) {
	case INPUT_FOLDED:
		p = folded_decode(buf, len, path, &r->lim, d);
		break;
	case INPUT_PROTOBUF:
		/* The fast path, else the reference in its own words. */
		if (scan_top_level(buf, len, d) == -1)
			break;
		if ((r->w = wire_open(buf, len, path, &r->lim, &r->p, &send,
		    d)) != NULL) {
			/*
			 * What follows the last sample (in Go's order, the
			 * locations, functions and strings) is decoded and
			 * copied: the pages go back now, and pass 3 never
			 * reads past the samples.
			 */
			if (r->raw != NULL)
				compat_discard(buf + send, buf + len);
			r->at = r->freed = buf;
			r->len = send;
			return r;
		}
		p = decode_slow(buf, len, path, &r->lim, d);
		break;
	default:
		input_refuse(k, d);
		break;
	}
	if (p == NULL) {
		pprof_close(r);
		return NULL;
	}
	/* Built whole: the bytes are done with. */
	r->p = p;
	r->samples = p->samples;
	p->samples = NULL;
	drop_bytes(r);
	return r;
}

struct pf_reader *
pprof_open_mem(const void *buf, size_t len, const char *path,
    const struct pd_limits *lim, struct diag *d)
{
	struct pf_reader *r;

	r = xcalloc(1, sizeof(*r));
	if (lim == NULL)
		pd_limits_default(&r->lim);
	else
		r->lim = *lim;
	if (gunzip_is_gzip(buf, len)) {
		if (gunzip(buf, len, &r->raw, &r->len, r->lim.max_inflated,
		    r->lim.max_ratio, d) == -1) {
			free(r);
			return NULL;
		}
		r->buf = r->raw;
	} else {
		r->buf = buf;
		r->len = len;
	}
	return reader_start(r, path, d);
}

/*
 * Read path ("-" is standard input) for r, bounded by its limits: 1 if
 * it is a file read twice (read_twice(), r holds the header and the
 * file), 0 with all of it in *out, -1 on an error.  *inflated says the
 * bytes in *out are already inflated gzip.
 */
static int
read_input(struct pf_reader *r, const char *path, unsigned char **out,
    size_t *outlen, int *inflated, struct diag *d)
{
	const struct pd_limits *lim = &r->lim;
	unsigned char	*buf, tail[4];
	size_t		 cap, len = 0;
	ssize_t		 n;
	struct stat	 st;
	int		 fd, gz;

	*inflated = 0;
	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY)) == -1)
		return diag_set(d, DIAG_IO, -1, "%s", strerror(errno));
	if (fstat(fd, &st) == -1) {
		diag_set(d, DIAG_IO, -1, "%s", strerror(errno));
		goto fail_fd;
	}
	if (S_ISDIR(st.st_mode)) {
		diag_set(d, DIAG_IO, -1, "is a directory");
		goto fail_fd;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > lim->max_input) {
		diag_set(d, DIAG_LIMIT, -1, "file is %lld bytes, more than the "
		    "limit of %llu (raise with --max-input)",
		    (long long)st.st_size, (unsigned long long)lim->max_input);
		goto fail_fd;
	}
	gz = gzip_tail(fd, &st, tail);
	switch (gz && fd != STDIN_FILENO ? read_twice(r, path, fd, &st, tail) :
	    0) {
	case 1:
		return 1;	/* r has the file now */
	case -1:
		diag_set(d, DIAG_IO, -1, "%s", strerror(errno));
		goto fail_fd;
	}
	switch (gz ? stream_gzip(fd, &st, tail, lim, &buf, &len) : 0) {
	case 1:
		*inflated = 1;
		goto done;
	case -1:
		diag_set(d, DIAG_IO, -1, "%s", strerror(errno));
		goto fail_fd;
	}
	cap = S_ISREG(st.st_mode) && st.st_size > 0 ?
	    (size_t)st.st_size + 1 : 65536;
	buf = xmalloc(cap);
	for (;;) {
		if (len == cap) {
			if (cap > lim->max_input) {
				free(buf);
				diag_set(d, DIAG_LIMIT, -1, "input is more than "
				    "the limit of %llu bytes (raise with "
				    "--max-input)",
				    (unsigned long long)lim->max_input);
				goto fail_fd;
			}
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			free(buf);
			diag_set(d, DIAG_IO, -1, "%s", strerror(errno));
			goto fail_fd;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > lim->max_input) {
		free(buf);
		diag_set(d, DIAG_LIMIT, -1, "input is more than the limit of "
		    "%llu bytes (raise with --max-input)",
		    (unsigned long long)lim->max_input);
		goto fail_fd;
	}
done:
	if (fd != STDIN_FILENO)
		close(fd);
	*out = buf;
	*outlen = len;
	return 0;

fail_fd:
	if (fd != STDIN_FILENO)
		close(fd);
	return -1;
}

struct pf_reader *
pprof_open(const char *path, const struct pd_limits *lim, struct diag *d)
{
	struct pf_reader *r;
	unsigned char	*buf = NULL;
	size_t		 len = 0;
	int		 inflated;

	r = xcalloc(1, sizeof(*r));
	if (lim == NULL)
		pd_limits_default(&r->lim);
	else
		r->lim = *lim;
	switch (read_input(r, path, &buf, &len, &inflated, d)) {
	case -1:
		free(r);
		return NULL;
	case 1:
		return r;
	}
	if (inflated || !gunzip_is_gzip(buf, len)) {
		r->raw = buf;
		r->len = len;
	} else {
		/* The compressed bytes go before decoding. */
		if (gunzip(buf, len, &r->raw, &r->len, r->lim.max_inflated,
		    r->lim.max_ratio, d) == -1) {
			free(buf);
			free(r);
			return NULL;
		}
		free(buf);
	}
	r->buf = r->raw;
	return reader_start(r, path, d);
}

struct profile *
pprof_header(const struct pf_reader *r)
{
	return r->p;
}

int
pprof_reads_twice(const struct pf_reader *r)
{
	return r->pull != NULL;
}

/*
 * Give the pages of the bytes already read back to the system, a few
 * megabytes at a time: the samples are most of a profile, and nothing
 * reads them twice.  The bytes stay allocated (free() takes them).
 */
#define RELEASE_STEP	(1u << 20)

static void
release_behind(struct pf_reader *r)
{
	if (r->raw == NULL || r->pull != NULL ||
	    (size_t)(r->at - r->freed) < RELEASE_STEP)
		return;
	compat_discard(r->freed, r->at);
	r->freed = r->at;
}

int
pprof_next(struct pf_reader *r, const struct pf_sample **out,
    struct diag *d)
{
	const unsigned char *end;

	if (r->failed)
		return -1;
	if (r->next == r->p->nsamples) {
		/* The bytes are read: what remains is the header. */
		if (pull_all(r, d) == -1) {
			r->failed = 1;
			return -1;
		}
		drop_bytes(r);
		return 0;
	}
	if (r->samples != NULL) {
		*out = &r->samples[r->next++];
		return 1;
	}
	release_behind(r);
	for (;;) {
		/* Only now: once the bytes are freed, buf is NULL. */
		end = r->buf + (r->pull != NULL && r->filled < r->len ?
		    r->filled : r->len);
		switch (wire_next(r->w, &r->at, end, out, d)) {
		case WIRE_SAMPLE:
			r->next++;
			return 1;
		case WIRE_SHORT:
			/* The field goes on past the bytes inflated so far? */
			if (r->pull != NULL && r->filled < r->len &&
			    pull_more(r, d) == 0)
				continue;
			break;
		case WIRE_REFUSED:
			/*
			 * Only later samples can make the file undecodable.
			 * Read twice, the rest must be inflated first, which
			 * may move the window: they start at r->at.
			 */
			if (pull_all(r, d) == 0)
				wire_refusal(r->at, r->buf + r->len, d);
			break;
		case WIRE_ERROR:
			break;
		}
		break;
	}
	r->failed = 1;
	return -1;
}

void
pprof_close(struct pf_reader *r)
{
	if (r == NULL)
		return;
	drop_bytes(r);
	profile_free(r->p);
	wire_free(r->w);
	free(r);
}

/*
 * Every sample of an open reader, copied into its header, which is
 * returned; the reader is closed either way.
 */
static struct profile *
read_whole(struct pf_reader *r, struct diag *d)
{
	const struct pf_sample *s;
	struct profile	*p;
	struct pf_sample *sp;
	size_t		 i;
	int		 rc;

	if (r == NULL)
		return NULL;
	p = r->p;
	/* Built whole: the samples are in the header's arena already. */
	if (r->samples != NULL) {
		p->samples = r->samples;
		r->p = NULL;
		pprof_close(r);
		return p;
	}
	p->samples = arena_calloc(p->arena, p->nsamples, sizeof(*p->samples));
	for (i = 0; (rc = pprof_next(r, &s, d)) == 1; i++) {
		/* Label strings are the header's; the arrays are reused. */
		sp = &p->samples[i];
		*sp = *s;
		sp->locs = arena_alloc(p->arena, s->nlocs, sizeof(*sp->locs));
		/* An empty stack may have no array at all. */
		if (s->nlocs > 0)
			memcpy(sp->locs, s->locs, s->nlocs * sizeof(*sp->locs));
		sp->values = arena_alloc(p->arena, p->nsample_types,
		    sizeof(*sp->values));
		/* No sample types: nothing to copy, from NULL or not. */
		if (p->nsample_types > 0)
			memcpy(sp->values, s->values,
			    p->nsample_types * sizeof(*sp->values));
		sp->labels = arena_alloc(p->arena, s->nlabels,
		    sizeof(*sp->labels));
		if (s->nlabels > 0)
			memcpy(sp->labels, s->labels,
			    s->nlabels * sizeof(*sp->labels));
	}
	if (rc == -1) {
		pprof_close(r);
		return NULL;
	}
	/* The header now holds the samples: keep it from pprof_close(). */
	r->p = NULL;
	pprof_close(r);
	return p;
}

struct profile *
pprof_decode_reference(const void *buf, size_t len, const char *path,
    const struct pd_limits *lim, struct diag *d)
{
	struct pd_limits deflim;
	enum input_kind	 k;

	if (lim == NULL) {
		pd_limits_default(&deflim);
		lim = &deflim;
	}
	/* Text is not told from protobuf here: it is refused as protobuf. */
	k = input_sniff(buf, len);
	if (k != INPUT_FOLDED && k != INPUT_PROTOBUF) {
		input_refuse(k, d);
		return NULL;
	}
	if (scan_top_level(buf, len, d) == -1)
		return NULL;
	return decode_slow(buf, len, path, lim, d);
}

struct profile *
pprof_decode(const void *buf, size_t len, const char *path,
    const struct pd_limits *lim, struct diag *d)
{
	return read_whole(pprof_open_mem(buf, len, path, lim, d), d);
}

struct profile *
pprof_load(const char *path, const struct pd_limits *lim, struct diag *d)
{
	return read_whole(pprof_open(path, lim, d), d);
}

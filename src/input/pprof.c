/*
 * The reference pprof decoder: protobuf bytes -> struct profile, whole.
 * It walks the top level of the wire format to report truncation with
 * a byte offset (pprof_scan()), unpacks with protobuf-c into a scratch
 * arena, then validates everything profile.proto requires while copying
 * it into the plain model, naming the element at fault.  It rejects,
 * never repairs.  The fast wire path (wire.c) converts its header and
 * any sample it cannot read with the same conv_* functions (pprof_int.h),
 * so that both give the same profile and the same words.  No reading,
 * no gzip and no sniffing here (input.c does those); nothing of
 * statistics or output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "input/pprof_int.h"
#include "input/pprof.h"
#include "profdiff.h"
#include "model/profile.h"

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

/* protobuf-c checks the rest. */
int
pprof_scan(const void *vbuf, size_t len, struct diag *d)
{
	const unsigned char *buf = vbuf, *p = buf, *end = buf + len;
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

struct profile *
pprof_unpack(const void *buf, size_t len, const char *path,
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


/*
 * topprof: read any input profdiff reads (pprof, perf script output,
 * folded stacks, a legacy format) into the model, and write the model
 * back as a gzipped pprof protobuf, as profdiff would see it read
 * again.  It is how tests/data/perf/changed.pb.gz was made from
 * changed.txt.gz, so that a diff can have perf script on one side and
 * pprof on the other with the same samples: the verdicts must then be
 * those of the diff of the two texts.  The output is deterministic (the
 * strings in order of first use, a gzip header with no name and no
 * time).
 *
 * usage: topprof IN OUT.pb.gz
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile.pb-c.h"
#include "support/diag.h"
#include "input/input.h"
#include "model/profile.h"

typedef Perftools__Profiles__Profile	Profile;
typedef Perftools__Profiles__Sample	Sample;
typedef Perftools__Profiles__Label	Label;
typedef Perftools__Profiles__Location	Location;
typedef Perftools__Profiles__Line	Line;
typedef Perftools__Profiles__Function	Function;
typedef Perftools__Profiles__Mapping	Mapping;
typedef Perftools__Profiles__ValueType	ValueType;

/* The string table, with a linear-probing index. */
struct strs {
	ProtobufCBinaryData *v;
	size_t		 n, cap;
	size_t		*tab;		/* index + 1 */
	size_t		 tcap;
};

static void *
xcalloc_or_die(size_t n, size_t size)
{
	void *p;

	if ((p = calloc(n ? n : 1, size)) == NULL)
		err(1, NULL);
	return p;
}

static uint64_t
hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void
strs_rehash(struct strs *t)
{
	size_t i, j;

	free(t->tab);
	t->tcap = t->tcap ? t->tcap * 2 : 1024;
	t->tab = xcalloc_or_die(t->tcap, sizeof(*t->tab));
	for (i = 0; i < t->n; i++) {
		for (j = hash((char *)t->v[i].data) & (t->tcap - 1); t->tab[j];
		    j = (j + 1) & (t->tcap - 1))
			continue;
		t->tab[j] = i + 1;
	}
}

/* The index of s in the table, added if new. */
static int64_t
str(struct strs *t, const char *s)
{
	size_t j;

	if (s == NULL)
		s = "";
	if ((t->n + 1) * 2 > t->tcap)
		strs_rehash(t);
	for (j = hash(s) & (t->tcap - 1); t->tab[j]; j = (j + 1) & (t->tcap - 1))
		if (strcmp((char *)t->v[t->tab[j] - 1].data, s) == 0)
			return (int64_t)t->tab[j] - 1;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1024;
		if ((t->v = reallocarray(t->v, t->cap, sizeof(*t->v))) == NULL)
			err(1, NULL);
	}
	if ((t->v[t->n].data = (uint8_t *)strdup(s)) == NULL)
		err(1, NULL);
	t->v[t->n].len = strlen(s);
	t->tab[j] = t->n + 1;
	return (int64_t)t->n++;
}

static ValueType *
valuetype(struct strs *t, const struct pf_valuetype *v)
{
	ValueType *o = xcalloc_or_die(1, sizeof(*o));

	perftools__profiles__value_type__init(o);
	o->type = str(t, v->type);
	o->unit = str(t, v->unit);
	return o;
}

static void
put_mappings(Profile *o, struct strs *t, const struct profile *p)
{
	size_t i;

	o->n_mapping = p->nmappings;
	o->mapping = xcalloc_or_die(p->nmappings, sizeof(*o->mapping));
	for (i = 0; i < p->nmappings; i++) {
		const struct pf_mapping *m = &p->mappings[i];
		Mapping *om = xcalloc_or_die(1, sizeof(*om));

		perftools__profiles__mapping__init(om);
		om->id = m->id;
		om->memory_start = m->memory_start;
		om->memory_limit = m->memory_limit;
		om->file_offset = m->file_offset;
		om->filename = str(t, m->filename);
		om->build_id = str(t, m->build_id);
		om->has_functions = m->has_functions;
		om->has_filenames = m->has_filenames;
		om->has_line_numbers = m->has_line_numbers;
		om->has_inline_frames = m->has_inline_frames;
		o->mapping[i] = om;
	}
}

static void
put_functions(Profile *o, struct strs *t, const struct profile *p)
{
	size_t i;

	o->n_function = p->nfunctions;
	o->function = xcalloc_or_die(p->nfunctions, sizeof(*o->function));
	for (i = 0; i < p->nfunctions; i++) {
		const struct pf_function *f = &p->functions[i];
		Function *of = xcalloc_or_die(1, sizeof(*of));

		perftools__profiles__function__init(of);
		of->id = f->id;
		of->name = str(t, f->name);
		of->system_name = str(t, f->system_name);
		of->filename = str(t, f->filename);
		of->start_line = f->start_line;
		o->function[i] = of;
	}
}

static void
put_locations(Profile *o, const struct profile *p)
{
	size_t i, j;

	o->n_location = p->nlocations;
	o->location = xcalloc_or_die(p->nlocations, sizeof(*o->location));
	for (i = 0; i < p->nlocations; i++) {
		const struct pf_location *l = &p->locations[i];
		Location *ol = xcalloc_or_die(1, sizeof(*ol));

		perftools__profiles__location__init(ol);
		ol->id = l->id;
		ol->mapping_id = l->mapping != NULL ? l->mapping->id : 0;
		ol->address = l->address;
		ol->is_folded = l->is_folded;
		ol->n_line = l->nlines;
		ol->line = xcalloc_or_die(l->nlines, sizeof(*ol->line));
		for (j = 0; j < l->nlines; j++) {
			Line *ln = xcalloc_or_die(1, sizeof(*ln));

			perftools__profiles__line__init(ln);
			ln->function_id = l->lines[j].function != NULL ?
			    l->lines[j].function->id : 0;
			ln->line = l->lines[j].line;
			ln->column = l->lines[j].column;
			ol->line[j] = ln;
		}
		o->location[i] = ol;
	}
}

static void
put_samples(Profile *o, struct strs *t, const struct profile *p)
{
	size_t i, j;

	o->n_sample = p->nsamples;
	o->sample = xcalloc_or_die(p->nsamples, sizeof(*o->sample));
	for (i = 0; i < p->nsamples; i++) {
		const struct pf_sample *s = &p->samples[i];
		Sample *os = xcalloc_or_die(1, sizeof(*os));

		perftools__profiles__sample__init(os);
		os->n_location_id = s->nlocs;
		os->location_id = xcalloc_or_die(s->nlocs, sizeof(uint64_t));
		for (j = 0; j < s->nlocs; j++)
			os->location_id[j] = s->locs[j]->id;
		os->n_value = p->nsample_types;
		os->value = xcalloc_or_die(p->nsample_types, sizeof(int64_t));
		if (p->nsample_types > 0)
			memcpy(os->value, s->values,
			    p->nsample_types * sizeof(int64_t));
		os->n_label = s->nlabels;
		os->label = xcalloc_or_die(s->nlabels, sizeof(*os->label));
		for (j = 0; j < s->nlabels; j++) {
			const struct pf_label *l = &s->labels[j];
			Label *ol = xcalloc_or_die(1, sizeof(*ol));

			perftools__profiles__label__init(ol);
			ol->key = str(t, l->key);
			if (l->str != NULL)
				ol->str = str(t, l->str);
			else {
				ol->num = l->num;
				ol->num_unit = str(t, l->num_unit);
			}
			os->label[j] = ol;
		}
		o->sample[i] = os;
	}
}

/* gzip with a fixed header (no name, no time) so output is stable. */
static void
write_gz(const char *path, const uint8_t *in, size_t inlen)
{
	z_stream	 z;
	uint8_t		*out;
	size_t		 cap = inlen + inlen / 100 + 64;
	FILE		*fp;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		errx(1, "deflateInit2");
	out = xcalloc_or_die(cap, 1);
	z.next_in = (uint8_t *)(uintptr_t)in;
	z.avail_in = (uInt)inlen;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		errx(1, "deflate");
	if ((fp = fopen(path, "wb")) == NULL ||
	    fwrite(out, 1, z.total_out, fp) != z.total_out || fclose(fp) != 0)
		err(1, "%s", path);
	deflateEnd(&z);
	free(out);
}

int
main(int argc, char *argv[])
{
	struct profile	*p;
	struct diag	 d;
	struct strs	 t;
	Profile		 o;
	uint8_t		*buf;
	size_t		 i, len;
	char		 msg[512];

	if (argc != 3) {
		fprintf(stderr, "usage: topprof IN OUT.pb.gz\n");
		return 2;
	}
	diag_init(&d, argv[1]);
	if ((p = pprof_load(argv[1], NULL, &d)) == NULL) {
		diag_format(&d, msg, sizeof(msg));
		errx(2, "%s", msg);
	}
	memset(&t, 0, sizeof(t));
	str(&t, "");
	perftools__profiles__profile__init(&o);
	o.n_sample_type = p->nsample_types;
	o.sample_type = xcalloc_or_die(p->nsample_types,
	    sizeof(*o.sample_type));
	for (i = 0; i < p->nsample_types; i++)
		o.sample_type[i] = valuetype(&t, &p->sample_types[i]);
	put_samples(&o, &t, p);
	put_mappings(&o, &t, p);
	put_locations(&o, p);
	put_functions(&o, &t, p);
	o.drop_frames = str(&t, p->drop_frames);
	o.keep_frames = str(&t, p->keep_frames);
	o.time_nanos = p->time_nanos;
	o.duration_nanos = p->duration_nanos;
	o.period_type = valuetype(&t, &p->period_type);
	o.period = p->period;
	o.default_sample_type = str(&t, p->default_sample_type);
	o.n_comment = p->ncomments;
	o.comment = xcalloc_or_die(p->ncomments, sizeof(int64_t));
	for (i = 0; i < p->ncomments; i++)
		o.comment[i] = str(&t, p->comments[i]);
	o.string_table = t.v;
	o.n_string_table = t.n;
	len = perftools__profiles__profile__get_packed_size(&o);
	buf = xcalloc_or_die(len, 1);
	perftools__profiles__profile__pack(&o, buf);
	write_gz(argv[2], buf, len);
	profile_free(p);
	return 0;
}

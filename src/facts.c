/*
 * Profile facts: sample counts, duration and CPU utilization, computed
 * from the decoded model.  This decides which sample type counts samples
 * (see facts.h); statistics and output build on its answer.  No I/O here.
 */
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "agg.h"
#include "facts.h"
#include "profile.h"

#define WEEK_NS		(7LL * 24 * 3600 * 1000000000LL)

static int
is_count(const struct pf_valuetype *t)
{
	return strcmp(t->unit, "count") == 0;
}

/* Length of the name up to its last '_', or 0 if there is none. */
static size_t
prefix_len(const char *s)
{
	const char *u = strrchr(s, '_');

	return u == NULL ? 0 : (size_t)(u - s);
}

void
facts_count_source(const struct profile *p, int vi, struct agg_src *src,
    const char **why)
{
	const struct pf_valuetype *v = &p->sample_types[vi];
	size_t	 i, plen, ncount = 0;
	int	 only = -1;

	src->value_index = vi;
	src->count_index = -1;
	src->count_divisor = 0;
	src->keep = NULL;
	if (is_count(v)) {
		src->count_index = vi;
		*why = "the sample type is a count";
		return;
	}
	for (i = 0; i < p->nsample_types; i++)
		if (is_count(&p->sample_types[i]) &&
		    strcmp(p->sample_types[i].type, "samples") == 0) {
			src->count_index = (int)i;
			*why = "samples/count";
			return;
		}
	plen = prefix_len(v->type);
	for (i = 0; i < p->nsample_types; i++) {
		const struct pf_valuetype *t = &p->sample_types[i];

		if (!is_count(t))
			continue;
		ncount++;
		only = (int)i;
		if (plen > 0 && prefix_len(t->type) == plen &&
		    strncmp(t->type, v->type, plen) == 0) {
			src->count_index = (int)i;
			*why = "the count type with the same prefix";
			return;
		}
	}
	if (ncount == 1) {
		src->count_index = only;
		*why = "the profile's only count type";
		return;
	}
	if (p->period > 1 && strcmp(p->period_type.type, v->type) == 0 &&
	    strcmp(p->period_type.unit, v->unit) == 0) {
		src->count_divisor = p->period;
		*why = "value / period";
		return;
	}
	*why = NULL;
}

void
facts_begin(struct facts_run *r, const struct profile *p, int vi,
    struct facts *f)
{
	struct agg_src	 src;
	size_t		 i;

	memset(r, 0, sizeof(*r));
	memset(f, 0, sizeof(*f));
	r->f = f;
	r->p = p;
	r->vi = vi;
	r->cpu_vi = -1;
	f->path = p->path;
	f->sample_type = p->sample_types[vi].type;
	f->unit = p->sample_types[vi].unit;
	f->records = p->nsamples;
	f->time_ns = p->time_nanos;
	f->period = p->period;
	strlcpy(f->period_type, p->period_type.type, sizeof(f->period_type));
	strlcpy(f->period_unit, p->period_type.unit, sizeof(f->period_unit));
	if (p->duration_nanos > WEEK_NS)
		f->duration_bogus = 1;
	else if (p->duration_nanos > 0)
		f->duration_ns = p->duration_nanos;

	facts_count_source(p, vi, &src, &f->count_source);
	r->count_index = src.count_index;
	r->count_divisor = src.count_divisor;
	if (src.count_index >= 0)
		strlcpy(f->count_type, p->sample_types[src.count_index].type,
		    sizeof(f->count_type));
	/*
	 * Go's heap profiles scale each sample's counts up by the inverse
	 * of its sampling probability, and its mutex profiles by the
	 * sampling rate: the numbers are estimates, not observed samples.
	 */
	if (src.count_index >= 0 &&
	    (strcmp(p->period_type.type, "space") == 0 ||
	    (strcmp(p->sample_types[src.count_index].type, "contentions") == 0 &&
	    p->period > 1)))
		f->counts_scaled = 1;
	for (i = 0; i < p->nsample_types; i++)
		if (strcmp(p->sample_types[i].type, "cpu") == 0 &&
		    strcmp(p->sample_types[i].unit, "nanoseconds") == 0)
			r->cpu_vi = (int)i;
	f->is_cpu = r->cpu_vi >= 0 || strcmp(p->period_type.type, "cpu") == 0;
	f->samples = f->count_source != NULL ? 0 : -1;
}

int
facts_sample(struct facts_run *r, const struct pf_sample *s)
{
	struct facts	*f = r->f;
	const int64_t	*v = s->values;

	if (r->overflow)
		return -1;
	if (__builtin_add_overflow(f->total, v[r->vi], &f->total))
		return r->overflow = -1;
	if (r->count_index >= 0) {
		if (__builtin_add_overflow(f->samples, v[r->count_index],
		    &f->samples))
			return r->overflow = -1;
	} else if (r->count_divisor > 0) {
		if (__builtin_add_overflow(f->samples,
		    v[r->vi] / r->count_divisor, &f->samples))
			return r->overflow = -1;
	}
	if (r->cpu_vi >= 0 &&
	    __builtin_add_overflow(r->cpu, v[r->cpu_vi], &r->cpu))
		return r->overflow = -1;
	return 0;
}

int
facts_end(struct facts_run *r)
{
	const struct profile	*p = r->p;
	struct facts		*f = r->f;
	int64_t			 cpu;

	if (r->overflow)
		return -1;
	f->cpu_ns = -1;
	f->cpu_util = -1;
	if (r->cpu_vi >= 0)
		f->cpu_ns = r->cpu;
	else if (f->is_cpu && strcmp(p->period_type.unit, "nanoseconds") == 0 &&
	    p->period > 0 && f->samples >= 0 &&
	    r->count_index >= 0 &&
	    !__builtin_mul_overflow(f->samples, p->period, &cpu))
		f->cpu_ns = cpu;
	if (f->cpu_ns >= 0 && f->duration_ns > 0)
		f->cpu_util = (double)f->cpu_ns / (double)f->duration_ns;
	return 0;
}

int
facts_compute(const struct profile *p, int vi, struct facts *f)
{
	struct facts_run r;
	size_t		 i;

	facts_begin(&r, p, vi, f);
	for (i = 0; i < p->nsamples; i++)
		if (facts_sample(&r, &p->samples[i]) == -1)
			return -1;
	return facts_end(&r);
}

int
facts_merge(struct facts *a, const struct facts *b)
{
	a->path = NULL;
	if (__builtin_add_overflow(a->total, b->total, &a->total))
		return -1;
	if (a->samples < 0 || b->samples < 0)
		a->samples = -1;
	else if (__builtin_add_overflow(a->samples, b->samples, &a->samples))
		return -1;
	a->records += b->records;
	if (a->duration_ns > 0 && b->duration_ns > 0)
		a->duration_ns += b->duration_ns;
	else
		a->duration_ns = 0;
	a->duration_bogus |= b->duration_bogus;
	a->counts_scaled |= b->counts_scaled;
	if (a->cpu_ns >= 0 && b->cpu_ns >= 0)
		a->cpu_ns += b->cpu_ns;
	else
		a->cpu_ns = -1;
	a->cpu_util = a->cpu_ns >= 0 && a->duration_ns > 0 ?
	    (double)a->cpu_ns / (double)a->duration_ns : -1;
	if (a->period != b->period)
		a->period = -1;
	return 0;
}

/*
 * Profile facts: sample counts, duration and CPU utilization, computed
 * from the decoded model.  This decides which sample type counts samples
 * (see facts.h); statistics and output build on its answer.  No I/O here.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "core/agg.h"
#include "core/facts.h"
#include "core/kind.h"
#include "core/roots.h"
#include "model/profile.h"

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

static int
is_type(const struct pf_valuetype *t, const char *type, const char *unit)
{
	return strcmp(t->type, type) == 0 && strcmp(t->unit, unit) == 0;
}

/* The index of sample type prefix + name in unit, or -1. */
static int
find_type(const struct profile *p, const char *prefix, size_t plen,
    const char *name, const char *unit)
{
	size_t	 i, n = strlen(name);

	for (i = 0; i < p->nsample_types; i++) {
		const struct pf_valuetype *t = &p->sample_types[i];

		if (strlen(t->type) == plen + n &&
		    strncmp(t->type, prefix, plen) == 0 &&
		    strcmp(t->type + plen, name) == 0 &&
		    strcmp(t->unit, unit) == 0)
			return (int)i;
	}
	return -1;
}

/* Does name end in suffix?  Then *plen is the length before it. */
static int
suffix(const char *name, const char *suffix, size_t *plen)
{
	size_t	 n = strlen(name), k = strlen(suffix);

	if (n < k || strcmp(name + n - k, suffix) != 0)
		return 0;
	*plen = n - k;
	return *plen == 0 || name[*plen - 1] == '_';
}

/*
 * Is this Go's heap writer's profile, which truncates what it scales?
 * It always writes both pairs, alloc_objects/alloc_space and
 * inuse_objects/inuse_space; V8's writers (Google's pprof for Node.js,
 * @datadog/pprof), which round, write one pair, named objects/space or
 * inuse_objects/inuse_space.
 */
static int
go_heap(const struct profile *p)
{
	return find_type(p, "alloc_", 6, "objects", "count") >= 0 &&
	    find_type(p, "alloc_", 6, "space", "bytes") >= 0 &&
	    find_type(p, "inuse_", 6, "objects", "count") >= 0 &&
	    find_type(p, "inuse_", 6, "space", "bytes") >= 0;
}

/*
 * Counts a profiler scaled up, that can be recovered (facts.h): a heap
 * profile's pair of objects and bytes, or contentions times a period.
 * A heap profile is known by what it is, not by one producer's name for
 * its period: a period in bytes (a sample per so many bytes allocated)
 * and a pair of objects and bytes.  Go names the period "space",
 * @datadog/pprof "inuse_space"; either way the pair's counts are
 * scaled.
 * Go's heap writer (runtime/pprof's scaleHeapSample()) truncates what
 * it scales; V8's (SamplingHeapProfiler::ScaleSample(), behind the
 * Node.js objects/space profiles) rounds.
 */
static int
unsample_source(const struct profile *p, int vi, struct agg_src *src,
    const char **why)
{
	const char	*name = p->sample_types[vi].type;
	size_t		 plen;
	int		 oi, bi, ci;

	if (p->period > 1 && strcmp(p->period_type.unit, "bytes") == 0 &&
	    (suffix(name, "objects", &plen) || suffix(name, "space", &plen)) &&
	    (oi = find_type(p, name, plen, "objects", "count")) >= 0 &&
	    (bi = find_type(p, name, plen, "space", "bytes")) >= 0) {
		src->unsample = go_heap(p) ? AGG_UNSAMPLE_TRUNC :
		    AGG_UNSAMPLE_ROUND;
		src->un_count = oi;
		src->un_bytes = bi;
		src->un_rate = p->period;
		*why = "samples recovered from objects and bytes";
		return 1;
	}
	if (p->period > 1 &&
	    is_type(&p->period_type, "contentions", "count") &&
	    (ci = find_type(p, "", 0, "contentions", "count")) >= 0) {
		src->unsample = AGG_UNSAMPLE_DIV;
		src->un_count = src->un_bytes = ci;
		src->un_rate = p->period;
		*why = "samples recovered as contentions / period";
		return 1;
	}
	return 0;
}

void
facts_count_source(const struct profile *p, int vi, struct agg_src *src,
    const char **why)
{
	const struct pf_valuetype *v = &p->sample_types[vi];
	size_t	 i, plen, ncount = 0;
	int	 only = -1, own;

	memset(src, 0, sizeof(*src));
	src->value_index = vi;
	src->count_index = -1;
	src->count_divisor = 0;
	src->keep = NULL;
	if (unsample_source(p, vi, src, why))
		return;
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
	if ((own = find_type(p, v->type, strlen(v->type), "_samples",
	    "count")) >= 0) {
		src->count_index = own;
		*why = "the type's own count of samples";
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

/* A rate in bytes as people write it: 512 KiB, 4 MiB, 1000 bytes. */
static void
bytes_str(char *buf, size_t len, int64_t n)
{
	if (n % (1024 * 1024) == 0)
		snprintf(buf, len, "%" PRId64 " MiB", n / (1024 * 1024));
	else if (n % 1024 == 0)
		snprintf(buf, len, "%" PRId64 " KiB", n / 1024);
	else
		snprintf(buf, len, "%" PRId64 " bytes", n);
}

/*
 * Say what was recovered, or why the counts are estimates that could
 * not be: heap profiles whose sample types are no pair that Go or V8
 * writes, and Go's mutex and block profiles.  Those two are written
 * with a period of 1 (runtime/pprof's printCountCycleProfile()): a
 * mutex profile's contentions are the events sampled times the
 * fraction (SetMutexProfileFraction), a block profile's count an event
 * shorter than the rate (SetBlockProfileRate) as rate / its length,
 * and the file holds neither the fraction nor the rate.
 */
static void
count_note(const struct profile *p, const struct agg_src *src,
    struct facts *f)
{
	const char	*ct = f->count_type;
	char		 rate[32];
	size_t		 len;

	f->count_note[0] = '\0';
	if (src->unsample == AGG_UNSAMPLE_TRUNC ||
	    src->unsample == AGG_UNSAMPLE_ROUND) {
		bytes_str(rate, sizeof(rate), src->un_rate);
		snprintf(f->count_note, sizeof(f->count_note), "sample counts "
		    "recovered from %s and %s at 1 sample per %s, undoing "
		    "%s's scaling", p->sample_types[src->un_count].type,
		    p->sample_types[src->un_bytes].type, rate,
		    src->unsample == AGG_UNSAMPLE_TRUNC ? "Go" : "V8");
		f->counts_recovered = 1;
		/*
		 * Go's heap profile is as of the last collection; V8's holds
		 * what is alive at the moment it is taken, garbage not yet
		 * collected among it, whose amount depends on when the
		 * collector last ran.  Its counts are the samples taken, but
		 * two processes differ by more than they show.
		 */
		if (src->unsample == AGG_UNSAMPLE_ROUND) {
			f->counts_scaled = 1;
			len = strlen(f->count_note);
			snprintf(f->count_note + len, sizeof(f->count_note) -
			    len, "; but V8's heap profile holds what was alive "
			    "when it was taken, uncollected garbage among it, "
			    "which varies between processes by more than these "
			    "counts show");
		}
	} else if (src->unsample == AGG_UNSAMPLE_DIV) {
		snprintf(f->count_note, sizeof(f->count_note), "sample counts "
		    "recovered as %s / %" PRId64 ", the sampling period", ct,
		    src->un_rate);
		f->counts_recovered = 1;
	} else if (src->count_index >= 0 &&
	    strcmp(p->period_type.unit, "bytes") == 0 && p->period > 1) {
		snprintf(f->count_note, sizeof(f->count_note), "the %s counts "
		    "are estimates scaled up for sampling (a period in bytes), "
		    "and the sample types are no pair of objects and bytes "
		    "that Go or V8 writes, so the samples taken cannot be "
		    "recovered: the test is approximate", ct);
		f->counts_scaled = 1;
	} else if (src->count_index >= 0 && strcmp(ct, "contentions") == 0 &&
	    find_type(p, "", 0, "delay", "nanoseconds") >= 0) {
		snprintf(f->count_note, sizeof(f->count_note), "the %s counts "
		    "may be estimates (Go scales a mutex profile's by its "
		    "sampling fraction, a block profile's short events by its "
		    "rate) and the file records neither: the test is "
		    "approximate", ct);
		f->counts_scaled = 1;
	}
}

void
facts_begin(struct facts_run *r, const struct profile *p, int vi,
    struct facts *f)
{
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

	facts_count_source(p, vi, &r->src, &f->count_source);
	if (r->src.count_index >= 0)
		strlcpy(f->count_type, p->sample_types[r->src.count_index].type,
		    sizeof(f->count_type));
	else if (r->src.unsample != AGG_UNSAMPLE_NONE)
		strlcpy(f->count_type, p->sample_types[r->src.un_count].type,
		    sizeof(f->count_type));
	count_note(p, &r->src, f);
	for (i = 0; i < p->nsample_types; i++) {
		const struct pf_valuetype *t = &p->sample_types[i];

		if (strcmp(t->unit, "nanoseconds") != 0)
			continue;
		if (strcmp(t->type, "cpu") == 0)
			r->cpu_vi = (int)i;
		else if (f->wall_type[0] == '\0' &&
		    kind_wall(t->type, p->period_type.type))
			strlcpy(f->wall_type, t->type, sizeof(f->wall_type));
	}
	f->is_cpu = r->cpu_vi >= 0 || strcmp(p->period_type.type, "cpu") == 0;
	f->samples = f->count_source != NULL ? 0 : -1;
	r->roots = roots_judged(p);
	r->all = p->nsample_types >= 64 ? UINT64_MAX :
	    (UINT64_C(1) << p->nsample_types) - 1;
}

int
facts_sample(struct facts_run *r, const struct pf_sample *s)
{
	struct facts	*f = r->f;
	const int64_t	*v = s->values;
	size_t		 i;
	int64_t		 w = 1;

	if (r->overflow)
		return -1;
	if (__builtin_add_overflow(f->total, v[r->vi], &f->total))
		return r->overflow = -1;
	if (f->count_source != NULL && (w = agg_sample_count(&r->src, v),
	    __builtin_add_overflow(f->samples, w, &f->samples)))
		return r->overflow = -1;
	/* Weighed as the samples are; a sum of counts cannot overflow here. */
	if (r->roots && w > 0)
		switch (roots_of(s)) {
		case ROOT_CUT:
			f->stacks_cut += w;
			/* FALLTHROUGH */
		case ROOT_ENTRY:
			f->stacks_judged += w;
			break;
		case ROOT_LONE:
			r->lone += w;
			break;
		default:
			break;
		}
	if (s->nlocs >= 2)
		r->chains = 1;
	if (r->src.count_divisor > 0 && v[r->vi] != 0 &&
	    v[r->vi] > -r->src.count_divisor && v[r->vi] < r->src.count_divisor)
		f->subperiod++;
	/* Once every type has had a value, nothing more to learn. */
	for (i = 0; r->nonzero != r->all && i < r->p->nsample_types &&
	    i < 64; i++)
		if (v[i] != 0)
			r->nonzero |= UINT64_C(1) << i;
	if (r->cpu_vi >= 0 &&
	    __builtin_add_overflow(r->cpu, v[r->cpu_vi], &r->cpu))
		return r->overflow = -1;
	return 0;
}

/*
 * When no value of the chosen type is other than 0, which types have
 * one: the chosen type may be pprof's default (the last), empty in a
 * profile of several kinds, as .NET's cpu/alloc/lock profiles are.
 */
static void
others(struct facts_run *r)
{
	const struct profile	*p = r->p;
	struct facts		*f = r->f;
	size_t			 i, n, k = 0, len;

	f->others[0] = '\0';
	f->empty = r->vi < 64 && !(r->nonzero & UINT64_C(1) << r->vi);
	if (!f->empty)
		return;
	n = (size_t)__builtin_popcountll(r->nonzero);
	for (i = 0; i < p->nsample_types && i < 64; i++) {
		if (!(r->nonzero & UINT64_C(1) << i))
			continue;
		len = strlen(f->others);
		snprintf(f->others + len, sizeof(f->others) - len, "%s%s",
		    k == 0 ? "" : k + 1 == n ? " and " : ", ",
		    p->sample_types[i].type[0] != '\0' ?
		    p->sample_types[i].type : "(unnamed)");
		k++;
	}
}

int
facts_end(struct facts_run *r)
{
	const struct profile	*p = r->p;
	struct facts		*f = r->f;
	int64_t			 cpu;

	if (r->overflow)
		return -1;
	/* A leaf alone, where other stacks have callers, lost them. */
	if (r->chains) {
		f->stacks_cut += r->lone;
		f->stacks_judged += r->lone;
	}
	if (f->subperiod > 0) {
		f->samples = -1;
		f->count_source = NULL;
	}
	others(r);
	f->cpu_ns = -1;
	f->cpu_util = -1;
	if (r->cpu_vi >= 0)
		f->cpu_ns = r->cpu;
	else if (f->is_cpu && strcmp(p->period_type.unit, "nanoseconds") == 0 &&
	    p->period > 0 && f->samples >= 0 &&
	    r->src.count_index >= 0 &&
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
	a->counts_recovered |= b->counts_recovered;
	if (a->count_note[0] == '\0')
		strlcpy(a->count_note, b->count_note, sizeof(a->count_note));
	if (a->cpu_ns >= 0 && b->cpu_ns >= 0)
		a->cpu_ns += b->cpu_ns;
	else
		a->cpu_ns = -1;
	a->cpu_util = a->cpu_ns >= 0 && a->duration_ns > 0 ?
	    (double)a->cpu_ns / (double)a->duration_ns : -1;
	if (a->period != b->period)
		a->period = -1;
	a->subperiod += b->subperiod;
	a->stacks_judged += b->stacks_judged;
	a->stacks_cut += b->stacks_cut;
	if (a->empty && !b->empty)
		a->others[0] = '\0';
	else if (a->empty && a->others[0] == '\0')
		strlcpy(a->others, b->others, sizeof(a->others));
	a->empty &= b->empty;
	return 0;
}

/*
 * Loading one side of a comparison: each profile is decoded, checked
 * against the first (same sample type and unit), folded into the side's
 * aggregate, and freed before the next is read.  CLI layer: errors are
 * printed here as "profdiff: path: kind: detail".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "cli.h"
#include "diag.h"
#include "facts.h"
#include "load.h"
#include "profile.h"
#include "xmalloc.h"

static int
fail(const struct diag *d)
{
	char buf[512];

	diag_format(d, buf, sizeof(buf));
	cli_warn("%s", buf);
	return -1;
}

int
side_load_ex(struct side *s, char *const *paths, size_t n,
    const struct opts *o, const char *want_type, int keep_each)
{
	struct agg_src	 src;
	struct diag	 d;
	struct profile	*p;
	const char	*why, *want;
	size_t		 i;
	int		 vi;

	memset(s, 0, sizeof(*s));
	s->agg = agg_new(&o->agg);
	s->facts = xcalloc(n, sizeof(*s->facts));
	if (keep_each)
		s->each = xcalloc(n, sizeof(*s->each));
	s->has_counts = 1;
	for (i = 0; i < n; i++) {
		diag_init(&d, paths[i]);
		if ((p = pprof_load(paths[i], &o->limits, &d)) == NULL)
			return fail(&d);
		want = want_type != NULL ? want_type :
		    s->sample_type != NULL ? s->sample_type : o->sample_index;
		if ((vi = profile_sample_index(p, want, &d)) < 0) {
			profile_free(p);
			return fail(&d);
		}
		if (s->sample_type == NULL) {
			s->sample_type = xstrdup(p->sample_types[vi].type);
			s->unit = xstrdup(p->sample_types[vi].unit);
		} else if (strcmp(s->unit, p->sample_types[vi].unit) != 0) {
			diag_set(&d, DIAG_USAGE, -1, "sample type %s is in %s "
			    "here but in %s in %s", s->sample_type,
			    p->sample_types[vi].unit, s->unit, paths[0]);
			profile_free(p);
			return fail(&d);
		}
		if (p->nsamples == 0) {
			diag_set(&d, DIAG_EMPTY, -1, "the profile has no samples");
			profile_free(p);
			return fail(&d);
		}
		if (facts_compute(p, vi, &s->facts[i]) == -1) {
			diag_set(&d, DIAG_LIMIT, -1, "the sum of %s values "
			    "overflows a 64-bit integer", s->sample_type);
			profile_free(p);
			return fail(&d);
		}
		s->facts[i].path = paths[i];
		facts_count_source(p, vi, &src, &why);
		if (why == NULL)
			s->has_counts = 0;
		if (agg_add(s->agg, p, &src, &d) == -1) {
			profile_free(p);
			return fail(&d);
		}
		if (keep_each) {
			s->each[i] = agg_new(&o->agg);
			if (agg_add(s->each[i], p, &src, &d) == -1) {
				profile_free(p);
				return fail(&d);
			}
		}
		if (i == 0)
			s->merged = s->facts[0];
		else if (facts_merge(&s->merged, &s->facts[i]) == -1) {
			diag_set(&d, DIAG_LIMIT, -1, "the sum of %s values "
			    "over all profiles overflows a 64-bit integer",
			    s->sample_type);
			profile_free(p);
			return fail(&d);
		}
		s->nprofiles = i + 1;
		profile_free(p);
	}
	s->merged.sample_type = s->sample_type;
	s->merged.unit = s->unit;
	for (i = 0; i < n; i++) {
		s->facts[i].sample_type = s->sample_type;
		s->facts[i].unit = s->unit;
	}
	if (n == 1)
		s->merged.path = paths[0];
	return 0;
}

int
side_load(struct side *s, char *const *paths, size_t n, const struct opts *o)
{
	return side_load_ex(s, paths, n, o, NULL, 0);
}

void
side_warn(const struct side *s, const char *tag)
{
	const struct facts *m = &s->merged;
	size_t i;

	if (m->samples >= 0 && m->samples < PD_FEW_SAMPLES)
		cli_warn("%s%s: only %lld samples: shares are uncertain by up "
		    "to ±%.1f points (95%%); collect a longer profile",
		    tag, s->nprofiles == 1 ? m->path : "merged profiles",
		    (long long)m->samples, m->samples > 0 ?
		    100 * 1.959963984540054 * sqrt(0.25 / (double)m->samples) :
		    100.0);
	for (i = 0; i < s->nprofiles; i++) {
		const struct facts *f = &s->facts[i];

		if (f->duration_bogus)
			cli_warn("%s%s: duration_nanos is implausible (over a "
			    "week); the duration is ignored", tag, f->path);
		if (f->is_cpu && f->cpu_util >= 0 && f->cpu_util < PD_LOW_UTIL)
			cli_warn("%s%s: CPU utilization was %.1f%% of one core "
			    "over %.2fs: the process was mostly waiting, and a "
			    "CPU profile cannot explain time spent waiting; "
			    "take a wall-clock or off-CPU profile", tag,
			    f->path, 100 * f->cpu_util,
			    (double)f->duration_ns / 1e9);
	}
}

void
side_free(struct side *s)
{
	size_t i;

	agg_free(s->agg);
	if (s->each != NULL)
		for (i = 0; i < s->nprofiles; i++)
			agg_free(s->each[i]);
	free(s->each);
	free(s->facts);
	free(s->sample_type);
	free(s->unit);
	memset(s, 0, sizeof(*s));
}

/*
 * A sample's count when a profiler scaled it up (agg_unsample()), and
 * the second moments of agg_opts.moments (agg.h says what both are):
 * the per-node sums agg.c adds to as it folds each stack (agg_int.h).
 * No I/O here.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/agg_int.h"
#include "core/runtime.h"
#include "model/profile.h"
#include "support/xmalloc.h"

/*
 * The inverses of enum agg_unsample (agg.h says why each rounds as it
 * does).  -expm1(-x) is 1 - exp(-x) without its cancellation at the
 * small x of small objects.  The result is at least 1 where the count
 * is not 0 (the site was sampled) and never more than the count.
 */
int64_t
agg_unsample(enum agg_unsample how, int64_t count, int64_t bytes,
    int64_t rate)
{
	int64_t	 q, r, sign = count < 0 ? -1 : 1;
	double	 c, n;

	if (how == AGG_UNSAMPLE_NONE || count == 0 || rate <= 1 ||
	    count == INT64_MIN)
		return count;
	if (how == AGG_UNSAMPLE_DIV) {
		q = count / rate;
		r = count % rate;
		if (r < 0)
			r = -r;
		if (r != 0 && r >= rate - r)
			q += sign;
		return q;
	}
	if (bytes == 0 || (bytes < 0) != (count < 0) || bytes == INT64_MIN)
		return count;
	c = (double)(count * sign);
	n = c * -expm1(-((double)(bytes * sign) / c) / (double)rate);
	n = how == AGG_UNSAMPLE_TRUNC ? ceil(n - 1e-6) : floor(n + 0.5);
	if (n < 1)
		n = 1;
	if (n > c)
		n = c;
	return sign * (int64_t)n;
}

int64_t
agg_sample_count(const struct agg_src *src, const int64_t *v)
{
	if (src->count_index >= 0)
		return v[src->count_index];
	if (src->count_divisor > 0)
		return v[src->value_index] / src->count_divisor;
	if (src->unsample != AGG_UNSAMPLE_NONE)
		return agg_unsample(src->unsample, v[src->un_count],
		    v[src->un_bytes], src->un_rate);
	return 0;
}

int
agg_src_check(const struct agg_src *src, size_t nst)
{
	if (src->unsample == AGG_UNSAMPLE_NONE)
		return 0;
	if (src->unsample < 0 || src->unsample > AGG_UNSAMPLE_DIV ||
	    src->un_count < 0 || (size_t)src->un_count >= nst ||
	    src->un_bytes < 0 || (size_t)src->un_bytes >= nst)
		return -1;
	return 0;
}

struct aggmom *
aggmom_new(void)
{
	return xcalloc(1, sizeof(struct aggmom));
}

void
aggmom_free(struct aggmom *m)
{
	if (m == NULL)
		return;
	free(m->cum);
	free(m->flat);
	free(m);
}

struct aggmom *
aggmom_dup(const struct aggmom *m)
{
	struct aggmom	*d;

	if (m == NULL)
		return NULL;
	d = xcalloc(1, sizeof(*d));
	*d = *m;
	d->cum = NULL;
	d->flat = NULL;
	d->cap = 0;
	aggmom_reserve(d, m->cap);
	if (m->cap > 0) {
		memcpy(d->cum, m->cum, m->cap * sizeof(*d->cum));
		memcpy(d->flat, m->flat, m->cap * sizeof(*d->flat));
	}
	return d;
}

void
aggmom_reserve(struct aggmom *m, size_t n)
{
	size_t	 cap;

	if (n <= m->cap)
		return;
	cap = m->cap ? m->cap : 256;
	while (cap < n)
		cap *= 2;
	m->cum = xreallocarray(m->cum, cap, sizeof(*m->cum));
	m->flat = xreallocarray(m->flat, cap, sizeof(*m->flat));
	memset(&m->cum[m->cap], 0, (cap - m->cap) * sizeof(*m->cum));
	memset(&m->flat[m->cap], 0, (cap - m->cap) * sizeof(*m->flat));
	m->cap = cap;
}

static void
add(struct agg_moments *to, const struct agg_moments *m, double sign)
{
	to->c += sign * m->c;
	to->vv += sign * m->vv;
	to->vc += sign * m->vc;
	to->cc += sign * m->cc;
}

static void
scale(struct agg_moments *m, double g)
{
	m->vv *= g;
	m->vc *= g;
	m->cc *= g;
}

/*
 * The sample's value w[AGG_VALUE] spread over n = |w[AGG_COUNT]|
 * events (1 when it is 0), with c the sample type its count was read
 * or recovered from (agg.h).
 */
void
aggmom_sample(struct aggmom *m, const struct pf_sample *s,
    const struct agg_src *src, const int64_t *w)
{
	double	 v = (double)w[AGG_VALUE], n, c, sg;

	n = w[AGG_COUNT] == 0 ? 1 : fabs((double)w[AGG_COUNT]);
	/*
	 * A sample negated to subtract an earlier snapshot (--base) takes
	 * its events' moments out again: the window's events are the
	 * later snapshot's less the earlier one's.
	 */
	sg = w[AGG_VALUE] < 0 || w[AGG_COUNT] < 0 ? -1 : 1;
	if (src->count_index >= 0)
		c = (double)s->values[src->count_index];
	else if (src->count_divisor == 0 && src->unsample != AGG_UNSAMPLE_NONE)
		c = (double)s->values[src->un_count];
	else
		c = (double)w[AGG_COUNT];
	m->cur.c = c;
	/*
	 * A sample of no count that the profile counts (@datadog/pprof's
	 * CPU of threads it took no sample of) was not drawn: its value
	 * was measured, and adds nothing to the variance.
	 */
	if (src->count_index >= 0 && c == 0) {
		m->cur.vv = m->cur.vc = m->cur.cc = 0;
		m->uncounted += v;
		return;
	}
	m->cur.vv = sg * v * v * (1 + src->spread) / (n + src->spread);
	m->cur.vc = sg * v * c / n;
	m->cur.cc = sg * c * c / n;
	add(&m->total, &m->cur, 1);
}

/*
 * Counts divided by g (agg_divide_counts()): the events are g times
 * fewer and each g times bigger, so every sum of squares and products
 * over them is g times what it was; the sums of counts are not.
 */
void
aggmom_scale(struct aggmom *m, double g)
{
	size_t	 i;

	scale(&m->total, g);
	for (i = 0; i < m->cap; i++) {
		scale(&m->flat[i], g);
		scale(&m->cum[i].m, g);
	}
}

void
aggmom_since(struct aggmom *to, size_t n, const struct aggmom *now,
    const struct aggmom *then, size_t i)
{
	aggmom_reserve(to, n + 1);
	if (i < now->cap) {
		add(&to->flat[n], &now->flat[i], 1);
		add(&to->cum[n].m, &now->cum[i].m, 1);
	}
	if (then != NULL && i < then->cap) {
		add(&to->flat[n], &then->flat[i], -1);
		add(&to->cum[n].m, &then->cum[i].m, -1);
	}
}

void
aggmom_since_total(struct aggmom *to, const struct aggmom *now,
    const struct aggmom *then)
{
	to->total = now->total;
	to->uncounted = now->uncounted;
	if (then != NULL) {
		add(&to->total, &then->total, -1);
		to->uncounted -= then->uncounted;
	}
}

int
agg_moments(const struct agg *a, size_t n, struct agg_moments *flat,
    struct agg_moments *cum)
{
	static const struct agg_moments zero;
	const struct aggmom *m = agg_aggmom(a);

	if (m == NULL || n >= agg_nnodes(a))
		return -1;
	*flat = n < m->cap ? m->flat[n] : zero;
	*cum = n < m->cap ? m->cum[n].m : zero;
	return 0;
}

int
agg_total_moments(const struct agg *a, struct agg_moments *t)
{
	const struct aggmom *m = agg_aggmom(a);

	if (m == NULL)
		return -1;
	*t = m->total;
	return 0;
}

/*
 * Whether function f of p is V8's (idle), asked of its name once per
 * function, not once per location (the medium bench profiles have six
 * locations a function): kind[] holds 0 (not asked yet), 1 or 2 (idle).
 */
static int
idle_function(const struct profile *p, const struct pf_function *f,
    unsigned char *kind)
{
	uintptr_t	 at = (uintptr_t)f, lo = (uintptr_t)p->functions;
	size_t		 k;

	if (at < lo || at >= lo + p->nfunctions * sizeof(*f))
		return rt_frame_of(f->name) == RT_IDLE;
	k = (at - lo) / sizeof(*f);
	if (kind[k] == 0)
		kind[k] = rt_frame_of(f->name) == RT_IDLE ? 2 : 1;
	return kind[k] == 2;
}

unsigned char *
agg_idle_locs(const struct profile *p)
{
	unsigned char	*idle = NULL, *kind;
	size_t		 i;

	kind = xcalloc(p->nfunctions + 1, 1);
	for (i = 0; i < p->nlocations; i++) {
		const struct pf_location *l = &p->locations[i];

		if (l->nlines == 0 || l->lines[0].function == NULL ||
		    !idle_function(p, l->lines[0].function, kind))
			continue;
		if (idle == NULL)
			idle = xcalloc(p->nlocations, 1);
		idle[i] = 1;
	}
	free(kind);
	return idle;
}

int64_t
agg_idle(const struct agg *a, enum agg_col c)
{
	return a->idle[c];
}

size_t
agg_nidle(const struct agg *a)
{
	return a->nidle;
}

int
agg_uncounted(const struct agg *a, double *v)
{
	const struct aggmom *m = agg_aggmom(a);

	if (m == NULL)
		return -1;
	*v = m->uncounted;
	return 0;
}

void
agg_own_add(struct agg *a, size_t n)
{
	if (agg_node_own(a, n))
		return;
	if (a->nown == a->owncap) {
		a->owncap = a->owncap ? 2 * a->owncap : 16;
		a->own = xreallocarray(a->own, a->owncap, sizeof(*a->own));
	}
	a->own[a->nown++] = (uint32_t)n;
}

/* A profiler's own functions are few: a scan is enough. */
int
agg_node_own(const struct agg *a, size_t n)
{
	size_t	 i;

	for (i = 0; i < a->nown; i++)
		if (a->own[i] == n)
			return 1;
	return 0;
}

/*
 * Fuzz target: folded stacks -> a series (profdiff series): the points'
 * aggregates added, the changes computed, each change's levels drawn
 * and the gate asked, as cmd_series.c does.  The first byte chooses
 * rates or shares, the points' durations and whether their times run
 * backwards; the rest is split at form feeds into points (at most 12)
 * and each point at vertical tabs into its replicates (at most 4).  A
 * point folded_decode() refuses is left out.  Whatever the text, the
 * series must be computed or refused with a one-line diag, never crash,
 * overflow or leak, and what it says must hold together: p and q in
 * [0, 1], every level inside its own interval, a regression higher
 * after than before and an improvement lower.  Built with libFuzzer by
 * `make fuzz`; tests/fuzz/replay.c runs it on the seeds in `make check`.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "support/diag.h"
#include "core/facts.h"
#include "core/series.h"
#include "input/folded.h"
#include "profdiff.h"
#include "model/profile.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define MAXPTS	12
#define MAXREP	4

/* lo <= v <= hi, where all three are numbers. */
static void
inside(double v, double lo, double hi)
{
	if (isnan(v) || isnan(lo) || isnan(hi))
		return;
	/* Rounding of a level computed two ways: a relative ulp or so. */
	if (v < lo - 1e-9 * fabs(lo) - 1e-12 ||
	    v > hi + 1e-9 * fabs(hi) + 1e-12)
		abort();
}

static void
check_result(const struct series *s, const struct series_result *r)
{
	const struct series_change *c;
	double	*lv, *lo, *hi;
	size_t	 i, t;

	lv = calloc(s->npts * 3 + 1, sizeof(*lv));
	if (lv == NULL)
		abort();
	lo = lv + s->npts;
	hi = lo + s->npts;
	for (i = 0; i < r->nchanges; i++) {
		c = &r->changes[i];
		if (!(c->p >= 0 && c->p <= 1) || !(c->q >= 0 && c->q <= 1))
			abort();
		if (c->from > c->at || c->at > c->to || c->to > s->npts ||
		    c->until < c->at || c->fid >= s->nfuncs)
			abort();
		inside(c->before, c->before_lo, c->before_hi);
		inside(c->after, c->after_lo, c->after_hi);
		if ((c->verdict == SERIES_REGRESSED && !(c->after >
		    c->before)) || (c->verdict == SERIES_IMPROVED &&
		    !(c->after < c->before)))
			abort();
		series_levels(s, r, c, lv, lo, hi);
		for (t = 0; t < s->npts; t++)
			inside(lv[t], lo[t], hi[t]);
	}
	free(lv);
	(void)series_newest_regressed(s, r);
	(void)series_newest_mde(s, r, 0.05);
}

/* One point's replicates: each decoded and folded; NULL if none is. */
static struct agg *
point(const uint8_t *b, size_t len, struct agg **each, size_t *neach,
    int64_t *dur)
{
	struct pd_limits	 lim;
	struct agg_opts		 o = { 0 };
	struct agg_src		 src;
	struct diag		 d;
	struct profile		*p;
	struct agg		*m = NULL;
	const uint8_t		*e;
	const char		*why;
	size_t			 n;

	pd_limits_default(&lim);
	lim.max_inflated = 16u << 20;
	lim.max_depth = 1024;
	lim.max_functions = 1u << 14;
	*neach = 0;
	while (len > 0 && *neach < MAXREP) {
		e = memchr(b, '\v', len);
		n = e != NULL ? (size_t)(e - b) : len;
		diag_init(&d, "fuzz");
		if ((p = folded_decode(b, n, "fuzz", &lim, &d)) != NULL) {
			facts_count_source(p, 0, &src, &why);
			if (m == NULL)
				m = agg_new(&o);
			each[*neach] = agg_new(&o);
			if (agg_add(m, p, &src, &d) == -1 ||
			    agg_add(each[*neach], p, &src, &d) == -1)
				agg_free(each[*neach]);
			else
				(*neach)++;
			profile_free(p);
		}
		b += n;
		len -= n;
		if (len > 0) {
			b++;
			len--;
		}
	}
	*dur = (int64_t)*neach * 1000000000;
	return m;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct series		 s;
	struct series_opts	 so;
	struct series_result	 r;
	struct diag		 d;
	struct agg		*m, *each[MAXREP];
	const uint8_t		*b, *e;
	size_t			 n, k, neach, npts = 0;
	int64_t			 dur;
	int			 flags, ok = 1;

	if (len == 0)
		return 0;
	flags = data[0];
	series_init(&s);
	for (b = data + 1, len--; len > 0 && npts < MAXPTS; npts++) {
		e = memchr(b, '\f', len);
		n = e != NULL ? (size_t)(e - b) : len;
		if ((m = point(b, n, each, &neach, &dur)) != NULL) {
			diag_init(&d, "fuzz");
			if (flags & 2)
				dur *= (int64_t)npts + 1;
			if (series_add(&s, m, each, neach >= 2 ? neach : 0,
			    "p", "fuzz", (flags & 4 ? 100 - (int64_t)npts :
			    (int64_t)npts) * 1000000000, dur, &d) == -1) {
				if (strchr(d.msg, '\n') != NULL)
					abort();
				ok = 0;
			}
			for (k = 0; k < neach; k++)
				agg_free(each[k]);
			agg_free(m);
			if (!ok)
				break;
		}
		b += n;
		len -= n;
		if (len > 0) {
			b++;
			len--;
		}
	}
	if (ok && s.npts >= 2) {
		if (flags & 4)
			series_sort_time(&s);
		memset(&so, 0, sizeof(so));
		so.rates = flags & 1;
		so.alpha = 0.05;
		so.min_effect_pp = flags & 8 ? 1 : 0;
		so.min_effect_rel = flags & 16 ? 0.1 : 0;
		diag_init(&d, "fuzz");
		if (series_compute(&s, &so, &r, &d) == 0) {
			check_result(&s, &r);
			series_result_release(&r);
		} else if (strchr(d.msg, '\n') != NULL)
			abort();
	}
	series_release(&s);
	return 0;
}

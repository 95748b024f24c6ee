/*
 * Sample counts a side's files hide, recovered once its profiles are
 * folded (load.h): a mutex profile's contentions, which Go multiplied
 * by a sampling fraction it recorded nowhere, divided by their greatest
 * common divisor; and counts that values under one period lost, read
 * again from the values at the interval that divides them all.  Both
 * on every side compared alike.  No I/O here.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/agg.h"
#include "core/facts.h"
#include "load/load.h"
#include "model/profile.h"
#include "support/units.h"

static int64_t
gcd64(int64_t a, int64_t b)
{
	int64_t t;

	if (b < 0)
		b = -b;
	while (b != 0) {
		t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/*
 * Go multiplies a mutex profile's contentions by the sampling fraction
 * it ran with and records it nowhere (facts.c's "may be estimates"), so
 * every count is a multiple of it.  Dividing each by the greatest
 * common divisor of them all gives the samples taken, or fewer (when g
 * is a multiple of the fraction), never more: the test can only become
 * more cautious.  Between replicates, each profile's aggregate too.
 * Sides compared are divided alike, by the divisor of them all: each by
 * its own would scale one side's counts against the other's.
 */
static int
divisible(const struct side *s)
{
	return s->merged.counts_scaled &&
	    strcmp(s->merged.count_type, "contentions") == 0;
}

/* fn(agg, g) on each of the side's aggregates: merged, each, parts. */
static void
each_agg(struct side *s, void (*fn)(struct agg *, int64_t), int64_t g)
{
	size_t		 i;

	fn(s->agg, g);
	for (i = 0; s->each != NULL && i < s->nprofiles; i++)
		if (s->each[i] != NULL)
			fn(s->each[i], g);
	for (i = 0; s->parts != NULL && i < s->nparts; i++)
		fn(s->parts[i], g);
}

static void
divide_counts(struct side *s, int64_t g)
{
	size_t		 i;

	each_agg(s, agg_divide_counts, g);
	for (i = 0; i <= s->nprofiles; i++) {
		struct facts *f = i < s->nprofiles ? &s->facts[i] : &s->merged;

		if (f->samples > 0)
			f->samples /= g;
		f->counts_scaled = 0;
		f->counts_recovered = 1;
		snprintf(f->count_note, sizeof(f->count_note), "sample counts "
		    "recovered as %s / %lld, the greatest common divisor of "
		    "them all (Go multiplies a mutex profile's by its sampling "
		    "fraction and records it nowhere; if the fraction was "
		    "smaller, these are fewer than the samples taken)",
		    f->count_type, (long long)g);
	}
}

/* One more value of the type read, where counts are value / period. */
static void
quantum_add(struct side *s, int64_t v)
{
	s->quantum = gcd64(s->quantum, v);
	s->qrec++;
	if (s->qmin == 0 || v < s->qmin) {
		s->qmin = v;
		s->qmin_n = 0;
	}
	if (v == s->qmin)
		s->qmin_n++;
}

/*
 * Is side s one whose counts were lost to a period that its values do
 * not fit (facts.subperiod: a value under one period), while the values
 * are whole numbers of a smaller interval, the one the profiler sampled
 * at?  The pyroscope converter of async-profiler's JFR recordings
 * writes a period of 1 s over samples of 10 ms each: every value is a
 * multiple of 10 ms, and most stacks hold exactly one.  Taken as the
 * interval when the least value divides every other and at least a
 * tenth of the records hold just it: values that are measured times
 * (Datadog's cpu) have a divisor of a nanosecond or so, held by
 * almost none.
 */
static int
quantized(const struct side *s)
{
	return !s->has_counts && s->quanta && s->merged.subperiod > 0 &&
	    s->quantum > 1 && s->qmin == s->quantum &&
	    s->qmin_n * 10 >= s->qrec;
}

/*
 * Counts read again from the values, at the interval of every side
 * (each side's by the divisor of all, as divide_counts() says): when
 * every side compared is quantized(), or none is.
 */
static void
requantize(struct side *const *sides, size_t n)
{
	int64_t		 g = 0;
	size_t		 i, k;
	char		 per[32], by[32], why[64];

	for (i = 0; i < n; i++) {
		if (!quantized(sides[i]))
			return;
		g = gcd64(g, sides[i]->quantum);
	}
	for (i = 0; i < n; i++) {
		struct side *s = sides[i];

		each_agg(s, agg_counts_from_values, g);
		s->has_counts = 1;
		units_format(by, sizeof(by), g, s->unit);
		for (k = 0; k <= s->nprofiles; k++) {
			struct facts *f = k < s->nprofiles ? &s->facts[k] :
			    &s->merged;

			/* Merged profiles of periods that differ have -1. */
			if (f->period > 0) {
				units_format(per, sizeof(per), f->period,
				    f->period_unit);
				snprintf(why, sizeof(why), "the file's period, "
				    "%s, is", per);
			} else
				strlcpy(why, "the files' periods are",
				    sizeof(why));
			snprintf(f->count_note, sizeof(f->count_note), "sample "
			    "counts recovered as %s / %s, the interval that "
			    "every value is a whole number of (%s more than "
			    "%lld of its %zu samples hold)", s->sample_type, by,
			    why, (long long)f->subperiod, f->records);
			f->samples = f->total / g;
			f->count_source = "value / sampling interval";
			f->subperiod = 0;
			f->counts_scaled = 0;
			f->counts_recovered = 1;
		}
	}
}

int64_t
side_count_divisor(struct side *const *sides, size_t n)
{
	int64_t	 g = 0;
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (!divisible(sides[i]))
			return 0;
		g = gcd64(g, sides[i]->count_gcd);
	}
	return g;
}

void
side_divide(struct side *s, int64_t g)
{
	if (g > 1 && divisible(s))
		divide_counts(s, g);
}

void
side_divide_counts(struct side *const *sides, size_t n)
{
	int64_t	 g = side_count_divisor(sides, n);
	size_t	 i;

	requantize(sides, n);
	for (i = 0; i < n; i++)
		side_divide(sides[i], g);
}

/* One sample's values, as the side's divisors need them. */
void
side_count_sample(struct side *s, const struct pf_sample *smp, int gcd_of,
    int vi)
{
	if (gcd_of >= 0)
		s->count_gcd = gcd64(s->count_gcd, smp->values[gcd_of]);
	if (s->quanta && smp->values[vi] > 0)
		quantum_add(s, smp->values[vi]);
}

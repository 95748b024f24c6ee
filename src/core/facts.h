/*
 * Facts about a profile that an engineer must check before trusting it:
 * which sample types hold sample counts, how many samples there are, the
 * duration and, for CPU profiles, the CPU utilization.  No I/O here.
 */
#ifndef FACTS_H
#define FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/agg.h"

struct profile;

struct facts {
	const char	*path;
	const char	*sample_type;
	const char	*unit;
	int64_t		 total;		/* sum of the chosen values */
	int64_t		 samples;	/* sum of counts, or -1 if unknown */
	const char	*count_source;	/* how samples was found, for people */
	char		 count_type[64]; /* the count sample type, or "" */
	int		 counts_scaled;	/* counts are estimates scaled up by
					   sampling that could not be undone:
					   the test on them is approximate */
	int		 counts_recovered; /* the counts are the samples taken,
					   recovered from scaled estimates */
	char		 count_note[320]; /* for people: what was recovered,
					   or why the counts are approximate;
					   "" when neither */
	size_t		 records;	/* Sample messages in the file */
	int64_t		 time_ns;	/* 0 when unset */
	int64_t		 duration_ns;	/* 0 when unset or implausible */
	int		 duration_bogus; /* set but longer than a week */
	int64_t		 period;
	char		 period_type[64];	/* copies: facts outlive */
	char		 period_unit[64];	/*   the profile */
	int		 is_cpu;	/* a CPU-time profile */
	int64_t		 cpu_ns;	/* CPU time, or -1 if unknown */
	double		 cpu_util;	/* cpu_ns / duration_ns, or -1 */
	char		 wall_type[64];	/* a sample type of wall-clock time in
					   nanoseconds (kind_wall()), or "" */
	int64_t		 subperiod;	/* samples whose value is under one
					   period when the counts are value /
					   period: then they are not, and
					   samples is -1 */
	int		 empty;		/* every value of the chosen type is 0 */
	char		 others[192];	/* when empty, the sample types that
					   have a value, "a, b and c", or "" */
	int64_t		 stacks_judged;	/* samples (counts, else records)
					   whose root roots_of() judged */
	int64_t		 stacks_cut;	/* of them, those cut short */
};

/*
 * Choose where sample counts come from for sample type vi (struct
 * agg_src).  First, counts that a profiler scaled up are recovered
 * (enum agg_unsample): a heap profile (period type space/bytes, period
 * above 1) whose type is one of a pair P"objects"/count and
 * P"space"/bytes has its samples' counts recovered from the pair at
 * the period, as Go (P "alloc_" or "inuse_") or V8 (P "") scaled them;
 * contentions/count under a period type contentions/count with a period
 * above 1 (pprof's conversion of a legacy contention profile) are
 * divided by it.  Otherwise: the type itself when its unit is "count";
 * a "samples/count" type; a count type named TYPE"_samples" (perf
 * script's several events: cycles -> cycles_samples); a count type
 * sharing the name's prefix (alloc_space -> alloc_objects, lock_time ->
 * lock_count); the only other count type; else value / period when the
 * period type is the sample type and the period is above 1; else no
 * counts (count_index -1, divisor 0, no unsample).  *why says which
 * rule applied.
 * Value / period is checked on the samples (facts_sample()): a value
 * under one period is no whole number of periods, and then the profile
 * has no counts (facts.subperiod).
 */
void	facts_count_source(const struct profile *, int vi, struct agg_src *,
	    const char **why);

/*
 * Fill facts for sample type vi of one profile.  path, sample_type and
 * unit point into the profile; the rest is copied.  Returns -1 on
 * overflow.
 */
int	facts_compute(const struct profile *, int vi, struct facts *);

/*
 * The same, a sample at a time (pprof_next()): facts_begin() reads the
 * header, facts_sample() each sample, and facts_end() returns 0, or -1
 * if any sum overflowed (facts_sample() says so at once, too).
 */
struct facts_run {
	struct facts	*f;
	const struct profile *p;
	struct agg_src	 src;		/* where the counts come from */
	int		 vi, cpu_vi;
	int64_t		 cpu;
	uint64_t	 nonzero;	/* bit i: type i has a value (i < 64) */
	uint64_t	 all;		/* the bits of every type */
	int		 overflow;
	int		 roots;		/* roots_judged() of the profile */
	int		 chains;	/* a stack of two frames was seen */
	int64_t		 lone;		/* samples of ROOT_LONE stacks */
};

struct pf_sample;

void	facts_begin(struct facts_run *, const struct profile *, int vi,
	    struct facts *);
int	facts_sample(struct facts_run *, const struct pf_sample *);
int	facts_end(struct facts_run *);

/* Add b into a (merging profiles); path becomes NULL. -1 on overflow. */
int	facts_merge(struct facts *a, const struct facts *b);

#endif

/*
 * Facts about a profile that an engineer must check before trusting it:
 * which sample types hold sample counts, how many samples there are, the
 * duration and, for CPU profiles, the CPU utilization.  No I/O here.
 */
#ifndef FACTS_H
#define FACTS_H

#include <stddef.h>
#include <stdint.h>

struct profile;
struct agg_src;

struct facts {
	const char	*path;
	const char	*sample_type;
	const char	*unit;
	int64_t		 total;		/* sum of the chosen values */
	int64_t		 samples;	/* sum of counts, or -1 if unknown */
	const char	*count_source;	/* how samples was found, for people */
	char		 count_type[64]; /* the count sample type, or "" */
	int		 counts_scaled;	/* counts are estimates scaled up by
					   the sampling rate (Go heap, mutex) */
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
};

/*
 * Choose where sample counts come from for sample type vi (struct
 * agg_src): the type itself when its unit is "count"; a "samples/count"
 * type; a count type sharing the name's prefix (alloc_space ->
 * alloc_objects, lock_time -> lock_count); the only other count type;
 * else value / period when the period type is the sample type and the
 * period is above 1; else no counts (count_index -1, divisor 0).  *why
 * says which rule applied.
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
	int		 vi, cpu_vi, count_index;
	int64_t		 count_divisor;
	int64_t		 cpu;
	int		 overflow;
};

struct pf_sample;

void	facts_begin(struct facts_run *, const struct profile *, int vi,
	    struct facts *);
int	facts_sample(struct facts_run *, const struct pf_sample *);
int	facts_end(struct facts_run *);

/* Add b into a (merging profiles); path becomes NULL. -1 on overflow. */
int	facts_merge(struct facts *a, const struct facts *b);

#endif

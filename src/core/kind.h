/*
 * What a sample type measures, and so which quantity two windows of it
 * are compared by.  A profiler either slices time and takes a sample
 * per slice (CPU, wall-clock: a function's share of the samples is the
 * share of the time it took), counts events as they happen over the
 * window (allocations, lock contentions and their delay, blocking:
 * how many per second of window, since a share hides a tenfold rise of
 * everything), or takes a snapshot of a state (memory in use,
 * goroutines, threads: how much there is, at that moment).  Decided
 * from the names of the sample type and the period type, by the
 * conventions of Go's runtime/pprof, gperftools, async-profiler and
 * pprof itself.  No I/O here.
 */
#ifndef KIND_H
#define KIND_H

enum kind {
	KIND_SLICED = 0,	/* time-sliced samples: shares */
	KIND_EVENTS,		/* events over a window: rates */
	KIND_SNAPSHOT,		/* a state at one moment: absolutes */
};

/*
 * The kind of sample type `type` (unit `unit`) of a profile whose period
 * type is `period_type` (any may be "" or NULL), and in *why a phrase
 * that says why, for the report's header ("alloc_space counts
 * allocations as they happen").
 */
enum kind	 kind_of(const char *type, const char *unit,
		    const char *period_type, const char **why);
/*
 * Is the sample type a wait on others, lock contention or blocking (its
 * count or its time), whose rate rises and falls with load and
 * scheduling?  By the same names, or Go's events period "contentions".
 */
int		 kind_waits(const char *type, const char *period_type);
/*
 * Does the sample type measure wall-clock time, waiting included: a
 * type named wall (async-profiler, @datadog/pprof), or any type but cpu
 * under a period type wall (fgprof's samples and time, @datadog/pprof's
 * sample)?  Such a profile sees where a process waits, which CPU time
 * cannot.
 */
int		 kind_wall(const char *type, const char *period_type);
/*
 * May a time-sliced type's values be other than its samples' counts
 * times the period?  When the period is of another type, each sample's
 * value is what it measured over its slices: @datadog/pprof's cpu under
 * a period of wall time is the CPU the thread used, which differs from
 * sample to sample, and samples of no slice carry the CPU of other
 * threads.  A type named as the period, or a count, is a slice a count.
 */
int		 kind_valued(const char *type, const char *unit,
		    const char *period_type);

/*
 * Go writes one header on its mutex and block profiles (contentions/
 * count, delay/nanoseconds under a period type contentions/count), yet
 * they measure different things: a mutex profile records the holder
 * that delayed others, at its Unlock; a block profile the waiter, where
 * it waited (a channel, select, Cond.Wait, WaitGroup.Wait, Mutex.Lock).
 * Their leaf frames tell them apart.
 */
enum kind_wait {
	KIND_WAIT_UNKNOWN = 0,
	KIND_WAIT_MUTEX,
	KIND_WAIT_BLOCK,
};

/* Of a sample's leaf function, the family it belongs to, or UNKNOWN. */
enum kind_wait	 kind_wait_leaf(const char *function);
/*
 * Which profile it is, given the weights (contentions) of its samples
 * whose leaf is of the mutex family, of the block family, and of all:
 * the family of KIND_WAIT_SHARE or more of the weight, else UNKNOWN;
 * *sure when that share is KIND_WAIT_SURE or more and the other
 * family's under 1 - KIND_WAIT_SURE.
 */
#define KIND_WAIT_SHARE	0.5
#define KIND_WAIT_SURE	0.9
enum kind_wait	 kind_wait_of(double mutex, double block, double total,
		    int *sure);
/* "a mutex profile", "a block profile", or "" for UNKNOWN. */
const char	*kind_wait_name(enum kind_wait);

/* "shares", "rates" or "absolute values". */
const char	*kind_quantity(enum kind);

#endif

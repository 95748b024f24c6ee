/*
 * Which kind of quantity a sample type is (kind.h).  The names are
 * those the profilers write:
 *  - Go's runtime/pprof: cpu, samples (time-sliced); alloc_objects,
 *    alloc_space (every allocation since the process started, sampled);
 *    inuse_objects, inuse_space (the live heap at the snapshot);
 *    contentions and delay (mutex and block profiles, accumulated);
 *    goroutine and threadcreate (snapshots);
 *  - gperftools: objects and space in a heap profile are what is in use
 *    (snapshot), contention's contentions and delay accumulate;
 *  - async-profiler and JFR through pprof: cpu, wall, itimer, samples
 *    (time-sliced), alloc and allocations (events), lock and
 *    lock_count/lock_time (events), live (snapshot).
 */
#include <stddef.h>
#include <string.h>

#include "core/kind.h"

static int
prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static int
is(const char *s, const char *const *names)
{
	for (; *names != NULL; names++)
		if (strcmp(s, *names) == 0)
			return 1;
	return 0;
}

static const char *const snapshots[] = { "goroutine", "goroutines",
	"threadcreate", "objects", "space", "live", "inuse", NULL };
static const char *const events[] = { "contentions", "delay", "lock",
	"lock_count", "lock_time", "alloc", "allocations", "block", "mutex",
	NULL };

enum kind
kind_of(const char *type, const char *unit, const char *period_type,
    const char **why)
{
	const char *t = type != NULL ? type : "";

	(void)unit;
	if (period_type == NULL)
		period_type = "";
	if (prefix(t, "inuse_") || is(t, snapshots)) {
		*why = "is what was there at the moment of the snapshot";
		return KIND_SNAPSHOT;
	}
	if (prefix(t, "alloc_") || is(t, events)) {
		*why = "counts events as they happen over the window";
		return KIND_EVENTS;
	}
	/* A type not named above, under an events period: Go's block. */
	if (strcmp(period_type, "contentions") == 0) {
		*why = "is accumulated over the window, as its period says";
		return KIND_EVENTS;
	}
	*why = "takes a sample per slice of time";
	return KIND_SLICED;
}

int
kind_waits(const char *type, const char *period_type)
{
	static const char *const waits[] = { "contentions", "delay", "lock",
		"lock_count", "lock_time", "block", "mutex", NULL };

	return (type != NULL && is(type, waits)) || (period_type != NULL &&
	    strcmp(period_type, "contentions") == 0);
}

int
kind_wall(const char *type, const char *period_type)
{
	if (type != NULL && strcmp(type, "wall") == 0)
		return 1;
	return period_type != NULL && strcmp(period_type, "wall") == 0 &&
	    (type == NULL || strcmp(type, "cpu") != 0);
}

int
kind_valued(const char *type, const char *unit, const char *period_type)
{
	if (type == NULL || period_type == NULL || period_type[0] == '\0' ||
	    (unit != NULL && strcmp(unit, "count") == 0))
		return 0;
	return strcmp(type, period_type) != 0;
}

const char *
kind_quantity(enum kind k)
{
	return k == KIND_SLICED ? "shares" : k == KIND_EVENTS ? "rates" :
	    "absolute values";
}

/*
 * The leaves Go records.  A mutex profile: the unlock that woke a
 * waiter (sync's, internal/sync's since Go 1.24, the runtime's own
 * locks since 1.22).  A block profile: where a goroutine waited, Lock
 * included (a mutex profile never has it as a leaf).
 */
static const char *const mutex_leaves[] = { "sync.(*Mutex).Unlock",
	"sync.(*RWMutex).Unlock", "sync.(*RWMutex).RUnlock",
	"internal/sync.(*Mutex).Unlock", "runtime.unlock",
	"runtime._LostContendedRuntimeLock", NULL };
static const char *const block_leaves[] = { "runtime.chanrecv1",
	"runtime.chanrecv2", "runtime.chansend1", "runtime.selectgo",
	"sync.(*Cond).Wait", "sync.(*WaitGroup).Wait", "sync.(*Mutex).Lock",
	"sync.(*RWMutex).Lock", "sync.(*RWMutex).RLock",
	"internal/sync.(*Mutex).Lock", NULL };

enum kind_wait
kind_wait_leaf(const char *function)
{
	if (function == NULL)
		return KIND_WAIT_UNKNOWN;
	if (is(function, mutex_leaves))
		return KIND_WAIT_MUTEX;
	if (is(function, block_leaves))
		return KIND_WAIT_BLOCK;
	return KIND_WAIT_UNKNOWN;
}

enum kind_wait
kind_wait_of(double mutex, double block, double total, int *sure)
{
	double	 m, b;

	*sure = 0;
	if (!(total > 0))
		return KIND_WAIT_UNKNOWN;
	m = mutex / total;
	b = block / total;
	if (m >= KIND_WAIT_SHARE && m > b) {
		*sure = m >= KIND_WAIT_SURE && b < 1 - KIND_WAIT_SURE;
		return KIND_WAIT_MUTEX;
	}
	if (b >= KIND_WAIT_SHARE && b > m) {
		*sure = b >= KIND_WAIT_SURE && m < 1 - KIND_WAIT_SURE;
		return KIND_WAIT_BLOCK;
	}
	return KIND_WAIT_UNKNOWN;
}

const char *
kind_wait_name(enum kind_wait w)
{
	return w == KIND_WAIT_MUTEX ? "a mutex profile" :
	    w == KIND_WAIT_BLOCK ? "a block profile" : "";
}

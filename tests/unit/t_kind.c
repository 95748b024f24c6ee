/*
 * Tests for kind.c: the quantity each sample type is compared by, and
 * which types are waits.  The type and period names are those the
 * profiles of tests/data and ../shared/corpus carry (Go's runtime/pprof,
 * async-profiler, .NET, gperftools).
 */
#include "tap.h"
#include "core/kind.h"

static enum kind
kind(const char *type, const char *unit, const char *period)
{
	const char *why = NULL;
	enum kind k = kind_of(type, unit, period, &why);

	CHECK(why != NULL && why[0] != '\0');
	return k;
}

static void
test_kind_of(void)
{
	/* Go: CPU, allocs, heap, mutex, block, goroutine, threadcreate. */
	CHECK_INT(kind("cpu", "nanoseconds", "cpu"), KIND_SLICED);
	CHECK_INT(kind("samples", "count", "cpu"), KIND_SLICED);
	CHECK_INT(kind("alloc_objects", "count", "space"), KIND_EVENTS);
	CHECK_INT(kind("alloc_space", "bytes", "space"), KIND_EVENTS);
	CHECK_INT(kind("inuse_space", "bytes", "space"), KIND_SNAPSHOT);
	CHECK_INT(kind("contentions", "count", "contentions"), KIND_EVENTS);
	CHECK_INT(kind("delay", "nanoseconds", "contentions"), KIND_EVENTS);
	CHECK_INT(kind("goroutine", "count", "goroutine"), KIND_SNAPSHOT);
	CHECK_INT(kind("threadcreate", "count", "threadcreate"),
	    KIND_SNAPSHOT);
	/* Java's lock and wall, .NET's lock time; a wall-clock profile. */
	CHECK_INT(kind("lock", "nanoseconds", "lock"), KIND_EVENTS);
	CHECK_INT(kind("lock_time", "nanoseconds", ""), KIND_EVENTS);
	CHECK_INT(kind("wall", "nanoseconds", "wall"), KIND_SLICED);
	/* Names it does not know, under Go's events period: events. */
	CHECK_INT(kind("waits", "count", "contentions"), KIND_EVENTS);
	CHECK_INT(kind(NULL, NULL, NULL), KIND_SLICED);
	CHECK_STR(kind_quantity(KIND_SLICED), "shares");
	CHECK_STR(kind_quantity(KIND_EVENTS), "rates");
	CHECK_STR(kind_quantity(KIND_SNAPSHOT), "absolute values");
}

static void
test_waits(void)
{
	CHECK(kind_waits("contentions", "contentions"));
	CHECK(kind_waits("delay", "contentions"));
	CHECK(kind_waits("delay", ""));
	CHECK(kind_waits("lock", "lock"));
	CHECK(kind_waits("lock_count", NULL));
	CHECK(kind_waits("lock_time", NULL));
	CHECK(kind_waits("waits", "contentions"));
	/* Not waits: CPU, wall, allocations, memory, goroutines. */
	CHECK(!kind_waits("cpu", "cpu"));
	CHECK(!kind_waits("wall", "wall"));
	CHECK(!kind_waits("alloc_space", "space"));
	CHECK(!kind_waits("inuse_objects", "space"));
	CHECK(!kind_waits("goroutine", "goroutine"));
	CHECK(!kind_waits(NULL, NULL));
}

/*
 * Go's mutex and block profiles, one header: told apart by their leaves
 * (those of tests/data/types: mutex-* all end in sync.(*Mutex).Unlock,
 * block-* in runtime.selectgo, sync.(*Mutex).Lock, runtime.chanrecv1,
 * sync.(*WaitGroup).Wait).
 */
static void
test_wait_leaves(void)
{
	int	 sure;

	CHECK_INT(kind_wait_leaf("sync.(*Mutex).Unlock"), KIND_WAIT_MUTEX);
	CHECK_INT(kind_wait_leaf("sync.(*RWMutex).Unlock"), KIND_WAIT_MUTEX);
	CHECK_INT(kind_wait_leaf("sync.(*RWMutex).RUnlock"),
	    KIND_WAIT_MUTEX);
	CHECK_INT(kind_wait_leaf("runtime.chanrecv1"), KIND_WAIT_BLOCK);
	CHECK_INT(kind_wait_leaf("runtime.chanrecv2"), KIND_WAIT_BLOCK);
	CHECK_INT(kind_wait_leaf("runtime.chansend1"), KIND_WAIT_BLOCK);
	CHECK_INT(kind_wait_leaf("runtime.selectgo"), KIND_WAIT_BLOCK);
	CHECK_INT(kind_wait_leaf("sync.(*Cond).Wait"), KIND_WAIT_BLOCK);
	CHECK_INT(kind_wait_leaf("sync.(*WaitGroup).Wait"), KIND_WAIT_BLOCK);
	/* A block profile records the wait at Lock, a mutex one never. */
	CHECK_INT(kind_wait_leaf("sync.(*Mutex).Lock"), KIND_WAIT_BLOCK);
	CHECK_INT(kind_wait_leaf("main.handleQuote"), KIND_WAIT_UNKNOWN);
	CHECK_INT(kind_wait_leaf(NULL), KIND_WAIT_UNKNOWN);

	/* By the share of the contentions: sure, likely, unknown. */
	CHECK_INT(kind_wait_of(510, 0, 510, &sure), KIND_WAIT_MUTEX);
	CHECK(sure);
	CHECK_INT(kind_wait_of(0, 95, 100, &sure), KIND_WAIT_BLOCK);
	CHECK(sure);
	CHECK_INT(kind_wait_of(70, 20, 100, &sure), KIND_WAIT_MUTEX);
	CHECK(!sure);
	CHECK_INT(kind_wait_of(5, 60, 100, &sure), KIND_WAIT_BLOCK);
	CHECK(!sure);
	CHECK_INT(kind_wait_of(40, 40, 100, &sure), KIND_WAIT_UNKNOWN);
	CHECK(!sure);
	CHECK_INT(kind_wait_of(10, 0, 100, &sure), KIND_WAIT_UNKNOWN);
	CHECK_INT(kind_wait_of(0, 0, 0, &sure), KIND_WAIT_UNKNOWN);
	CHECK(!sure);
	CHECK_STR(kind_wait_name(KIND_WAIT_MUTEX), "a mutex profile");
	CHECK_STR(kind_wait_name(KIND_WAIT_BLOCK), "a block profile");
	CHECK_STR(kind_wait_name(KIND_WAIT_UNKNOWN), "");
}

int
main(void)
{
	test_kind_of();
	test_waits();
	test_wait_leaves();
	return tap_done();
}

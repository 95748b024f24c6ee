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

int
main(void)
{
	test_kind_of();
	test_waits();
	return tap_done();
}

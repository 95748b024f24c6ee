/*
 * Tests for runtime.c (what a pseudo-frame is) and for the idle samples
 * that agg.c keeps apart from the shares.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/runtime.h"
#include "model/profile.h"
#include "support/arena.h"
#include "support/diag.h"
#include "tap.h"
#include "tprofile.h"
#include "tdelta.h"

static void
t_names(void)
{
	CHECK_INT(rt_frame_of("(idle)"), RT_IDLE);
	CHECK_INT(rt_frame_of("(garbage collector)"), RT_GC);
	CHECK_INT(rt_frame_of("Garbage Collection"), RT_GC);
	CHECK_INT(rt_frame_of("(program)"), RT_VM);
	CHECK_INT(rt_frame_of("(root)"), RT_ROOT);
	CHECK_INT(rt_frame_of("Non JS threads activity"), RT_THREADS);
	/* Datadog's top frame over those two; not a module named so. */
	CHECK_INT(rt_frame_of("Node.js"), RT_THREADS);
	CHECK_INT(rt_frame_of("Node.jsx"), RT_CODE);
	CHECK_INT(rt_frame_of("lib/Node.js.render"), RT_CODE);
	/* As Pyroscope's Node.js export writes them: file:name:line. */
	CHECK_INT(rt_frame_of(":(idle):0"), RT_IDLE);
	CHECK_INT(rt_frame_of(":(garbage collector):0"), RT_GC);
	CHECK_INT(rt_frame_of("node:(idle)"), RT_IDLE);
	/* Code whose name merely holds one. */
	CHECK_INT(rt_frame_of("main.idle"), RT_CODE);
	CHECK_INT(rt_frame_of("my(idle)"), RT_CODE);
	CHECK_INT(rt_frame_of("(idle)x"), RT_CODE);
	CHECK_INT(rt_frame_of(":(idle):0x"), RT_CODE);
	CHECK_INT(rt_frame_of("(anonymous)"), RT_CODE);
	CHECK_INT(rt_frame_of("runtime.gcBgMarkWorker"), RT_GC);
	CHECK_INT(rt_frame_of("runtime.mallocgc"), RT_CODE);
	CHECK_INT(rt_frame_of("runtime.mcall"), RT_SCHED);
	CHECK_INT(rt_frame_of("runtime.asyncPreempt"), RT_SCHED);
	/* The C library's waits, alone or with a file; not their kin. */
	CHECK_INT(rt_frame_of("__clock_nanosleep"), RT_WAIT);
	CHECK_INT(rt_frame_of("epoll_wait"), RT_WAIT);
	CHECK_INT(rt_frame_of("libc.so.6:poll"), RT_WAIT);
	CHECK_INT(rt_frame_of("selectgo"), RT_CODE);
	CHECK_INT(rt_frame_of("main.select"), RT_CODE);
	CHECK_INT(rt_frame_of("sleep_sort"), RT_CODE);
	CHECK_INT(rt_frame_of("poller"), RT_CODE);
	CHECK_STR(rt_frame_what(RT_WAIT), "waiting");
	/* After a library, as a converter of JFR writes them. */
	CHECK_INT(rt_frame_of("libc.so.6.__GI___futex_abstimed_wait_"
	    "cancelable64"), RT_WAIT);
	CHECK_INT(rt_frame_of("libc.so.6.__libc_read"), RT_CODE);
	CHECK_INT(rt_frame_of("__GI___poll"), RT_WAIT);
	CHECK_INT(rt_frame_of("__GI_"), RT_CODE);
	CHECK_INT(rt_frame_of("libfoo.so.poll"), RT_WAIT);
	CHECK_INT(rt_frame_of("libfoo.so.1.2.poller"), RT_CODE);
	CHECK_INT(rt_frame_of("libfoo.so.1.2"), RT_CODE);
	CHECK_INT(rt_frame_of("my.so.called.poll"), RT_CODE);
	CHECK_INT(rt_frame_of("com.so.poll"), RT_CODE);
	CHECK_INT(rt_frame_of("libpython3.11.so.1.0.poll"), RT_WAIT);
	/* The kernel's idle loop, as perf script's frames are read. */
	CHECK_INT(rt_frame_of("pv_native_safe_halt_[k]"), RT_IDLE);
	CHECK_INT(rt_frame_of("intel_idle"), RT_IDLE);
	CHECK_INT(rt_frame_of("intel_idle_[k]"), RT_IDLE);
	CHECK_INT(rt_frame_of("do_idle_[k]"), RT_CODE);
	CHECK_INT(rt_frame_of("default_idle_call_[k]"), RT_CODE);
	CHECK_INT(rt_frame_of("main.default_idle"), RT_CODE);
	/* HotSpot's collector and compiler threads. */
	CHECK_INT(rt_frame_of("GangWorker::run"), RT_GC);
	CHECK_INT(rt_frame_of("libjvm.so.GangWorker::loop"), RT_GC);
	CHECK_INT(rt_frame_of("ConcurrentGCThread::run"), RT_GC);
	CHECK_INT(rt_frame_of("ConcurrentGCThread::run_service"), RT_CODE);
	CHECK_INT(rt_frame_of("CompileBroker::compiler_thread_loop"), RT_VM);
	CHECK_INT(rt_frame_of("Thread::call_run"), RT_CODE);
	CHECK_INT(rt_frame_of("runtime.gcAssistAlloc.func1"), RT_GC);
	CHECK_INT(rt_frame_of("runtime.gcBgMarkWorker.func2.1"), RT_GC);
	CHECK_INT(rt_frame_of("runtime.gcAssistAlloc.funcx"), RT_CODE);
	CHECK_INT(rt_frame_of("main.gcBgMarkWorker.func1"), RT_CODE);
	CHECK_INT(rt_frame_of("runtime.mstart"), RT_SCHED);
	CHECK_INT(rt_frame_of("runtime.findRunnable"), RT_SCHED);
	CHECK_STR(rt_frame_what(RT_SCHED), "the runtime's scheduler");
	/* Not the scheduler: a goroutine that yields, code calling it. */
	CHECK_INT(rt_frame_of("runtime.Gosched"), RT_CODE);
	CHECK_INT(rt_frame_of(""), RT_CODE);
	CHECK_INT(rt_frame_of(NULL), RT_CODE);
	CHECK_STR(rt_frame_what(RT_IDLE), "idle");
	CHECK(rt_frame_what(RT_CODE) == NULL);
}

/* Idle samples are in no node and none of the totals, and counted apart. */
static void
t_idle(void)
{
	static const char *const stacks[] = {
		"(root);main;work", "(root);(idle)", "(root);main;(idle)",
		"(root);(garbage collector)",
	};
	static const int64_t counts[] = { 6, 3, 1, 2 };
	struct profile	*p = t_build(stacks, counts, 4);
	struct agg_opts	 o = { .gran = AGG_FUNCTIONS, .idle_apart = 1 };
	struct agg_src	 src = { .value_index = 1, .count_index = 0 };
	struct diag	 d;
	struct agg	*a = agg_new(&o);
	long		 i;

	diag_init(&d, "test");
	CHECK_INT(agg_add(a, p, &src, &d), 0);
	CHECK_INT(agg_total(a, AGG_COUNT), 8);
	CHECK_INT(agg_idle(a, AGG_COUNT), 4);
	CHECK_INT(agg_nidle(a), 2);
	CHECK(agg_find(a, "(idle)") < 0);
	CHECK((i = agg_find(a, "(root)")) >= 0);
	if (i >= 0)
		CHECK_INT(agg_node(a, (size_t)i)->cum[AGG_COUNT], 8);
	CHECK((i = agg_find(a, "(garbage collector)")) >= 0);
	agg_free(a);
	/* top shows what pprof shows: idle is a function there. */
	o.idle_apart = 0;
	a = agg_new(&o);
	CHECK_INT(agg_add(a, p, &src, &d), 0);
	CHECK_INT(agg_total(a, AGG_COUNT), 12);
	CHECK_INT(agg_nidle(a), 0);
	CHECK(agg_find(a, "(idle)") >= 0);
	agg_free(a);
	/*
	 * An idle sample with no value of the type read is idle all the
	 * same (Datadog's "(idle)": CPU time, no wall time): counted apart,
	 * in no row.
	 */
	p->samples[1].values[1] = 0;
	o.idle_apart = 1;
	a = agg_new(&o);
	CHECK_INT(agg_add(a, p, &src, &d), 0);
	CHECK_INT(agg_idle(a, AGG_COUNT), 4);
	CHECK_INT(agg_nidle(a), 2);
	CHECK_INT(agg_total(a, AGG_COUNT), 8);
	agg_free(a);
	profile_free(p);
}

/*
 * The profiler's own work: Go's runtime/pprof writing a profile, by
 * name (not pprof.Do, which runs the program's code under labels), and
 * a Node.js profiler's package, by the file of its functions, which the
 * aggregate keeps per node (agg_node_own()), through agg_dup() too.
 */
static void
t_profiler(void)
{
	static const char *const stacks[] = { "main;serve;render",
		"timer;encode;varint" };
	static const int64_t counts[] = { 6, 3 };
	static const char pf[] =
	    "/srv/app/node_modules/pprof-format/dist/commonjs/index.js";
	struct profile	*p = t_build(stacks, counts, 2);
	struct agg	*a, *b;
	size_t		 i;
	long		 k;

	CHECK_INT(rt_frame_of("runtime/pprof.(*profileBuilder).build"),
	    RT_PROFILER);
	CHECK_INT(rt_frame_of("runtime/pprof.profileWriter"), RT_PROFILER);
	CHECK_INT(rt_frame_of("runtime/pprof.Do"), RT_CODE);
	CHECK_INT(rt_frame_of("runtime/pprof.Do.func1"), RT_CODE);
	CHECK_INT(rt_frame_of("runtime.pprof"), RT_CODE);
	CHECK_INT(rt_frame_of("gopkg.in/DataDog/dd-trace-go.v1/profiler."
	    "(*profiler).collect"), RT_PROFILER);
	CHECK_INT(rt_frame_of("github.com/DataDog/dd-trace-go/v2/profiler/"
	    "internal/immutable.StringSlice.Slice"), RT_PROFILER);
	CHECK_INT(rt_frame_of("github.com/DataDog/dd-trace-go/v2/profilerx."
	    "Start"), RT_CODE);
	CHECK_INT(rt_frame_of("github.com/DataDog/dd-trace-go/v2/ddtrace/"
	    "tracer.StartSpan"), RT_CODE);
	CHECK(rt_frame_load(RT_PROFILER));
	CHECK_STR(rt_frame_what(RT_PROFILER), "the profiler's own work");
	CHECK(rt_profiler_file(pf));
	CHECK(rt_profiler_file("/x/node_modules/@datadog/pprof/out/src/"
	    "profile-serializer.js"));
	CHECK(rt_profiler_file("node_modules/pprof/out/src/index.js"));
	CHECK(rt_profiler_file("/app/node_modules/dd-trace/packages/dd-trace/"
	    "src/profiling/profiler.js"));
	CHECK(rt_profiler_file("/usr/lib/python3/site-packages/ddtrace/"
	    "profiling/collector/stack.pyx"));
	CHECK(!rt_profiler_file("/app/node_modules/dd-trace/packages/"
	    "dd-trace/src/tracer.js"));
	CHECK(!rt_profiler_file("/srv/app/node_modules/pprofx/index.js"));
	CHECK(!rt_profiler_file("/srv/app/service.js"));
	CHECK(!rt_profiler_file(NULL));
	for (i = 0; i < p->nfunctions; i++)
		if (strcmp(p->functions[i].name, "encode") == 0 ||
		    strcmp(p->functions[i].name, "varint") == 0)
			p->functions[i].filename = pf;
	a = t_aggregate(p, 0);
	b = agg_dup(a);
	CHECK((k = agg_find(b, "encode")) >= 0 && agg_node_own(b, (size_t)k));
	CHECK((k = agg_find(a, "varint")) >= 0 && agg_node_own(a, (size_t)k));
	CHECK((k = agg_find(a, "render")) >= 0 && !agg_node_own(a, (size_t)k));
	CHECK((k = agg_find(b, "timer")) >= 0 && !agg_node_own(b, (size_t)k));
	agg_free(a);
	agg_free(b);
	profile_free(p);
}

int
main(void)
{
	t_names();
	t_idle();
	t_profiler();
	return tap_done();
}

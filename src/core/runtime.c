/*
 * Pseudo-frames (runtime.h): the names runtimes' profilers give the
 * frames that are no function of the program.  No I/O here.
 */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "core/runtime.h"

static const struct {
	const char	*name;
	enum rt_frame	 what;
} pseudo[] = {
	{ "(idle)",			RT_IDLE },
	/*
	 * The Linux kernel's idle loop, where a CPU with nothing to run
	 * halts or waits (a whole-system profile, perf record -a, holds
	 * it as the swapper task's samples): the instruction it stops at,
	 * by the idle driver that ran it.
	 */
	{ "native_safe_halt",		RT_IDLE },
	{ "pv_native_safe_halt",	RT_IDLE },
	{ "arch_safe_halt",		RT_IDLE },
	{ "acpi_safe_halt",		RT_IDLE },
	{ "acpi_idle_do_entry",		RT_IDLE },
	{ "default_idle",		RT_IDLE },
	{ "mwait_idle",			RT_IDLE },
	{ "mwait_idle_with_hints",	RT_IDLE },
	{ "intel_idle",			RT_IDLE },
	{ "intel_idle_irq",		RT_IDLE },
	{ "intel_idle_ibrs",		RT_IDLE },
	{ "intel_idle_xstate",		RT_IDLE },
	{ "amd_e400_idle",		RT_IDLE },
	{ "poll_idle",			RT_IDLE },
	{ "cpu_idle_poll",		RT_IDLE },
	{ "cpu_do_idle",		RT_IDLE },
	{ "(garbage collector)",	RT_GC },
	{ "Garbage Collection",		RT_GC },
	{ "(program)",			RT_VM },
	{ "(root)",			RT_ROOT },
	{ "Non JS threads activity",	RT_THREADS },
	/* Datadog's top frame over its collector and other threads. */
	{ "Node.js",			RT_THREADS },
	{ "(non-JS threads)",		RT_THREADS },
	/* Go's collector, run apart from the goroutines that allocate. */
	{ "runtime.gcBgMarkWorker",	RT_GC },
	{ "runtime.bgsweep",		RT_GC },
	{ "runtime.bgscavenge",		RT_GC },
	/*
	 * The collector's work an allocating goroutine is made to do, and
	 * the collector's own functions where a stack starts at them (Go's
	 * profiler stops at runtime.systemstack's switch).
	 */
	{ "runtime.gcAssistAlloc",	RT_GC },
	{ "runtime.gcAssistAlloc1",	RT_GC },
	{ "runtime.gcDrain",		RT_GC },
	{ "runtime.gcDrainN",		RT_GC },
	{ "runtime.(*pageAlloc).scavenge", RT_GC },
	/*
	 * Go's scheduler, on the system stack: runtime.mcall parks or
	 * yields a goroutine and runs the scheduler; runtime.mstart starts
	 * a thread's scheduler loop and sysmon.  The rest are named for
	 * stacks a profiler cut short above them.
	 */
	{ "runtime.mcall",		RT_SCHED },
	{ "runtime.mstart",		RT_SCHED },
	{ "runtime.park_m",		RT_SCHED },
	{ "runtime.schedule",		RT_SCHED },
	{ "runtime.findRunnable",	RT_SCHED },
	{ "runtime.findrunnable",	RT_SCHED },
	{ "runtime.sysmon",		RT_SCHED },
	/*
	 * A goroutine preempted by a signal: the frame lands on top of
	 * whatever code ran, as often as the scheduler (or the collector
	 * stopping the world) preempts, which follows the load.
	 */
	{ "runtime.asyncPreempt",	RT_SCHED },
	/*
	 * The C library's ways to wait, as native profilers (perf,
	 * gperftools) name them: the CPU a thread spends going to sleep
	 * and waking up, with the kernel's frames under it, which grows
	 * with how often it waits (a paced loop that falls behind stops
	 * sleeping), not with any code of the program.
	 */
	{ "__clock_nanosleep",		RT_WAIT },
	{ "clock_nanosleep",		RT_WAIT },
	{ "__nanosleep",		RT_WAIT },
	{ "nanosleep",			RT_WAIT },
	{ "usleep",			RT_WAIT },
	{ "__poll",			RT_WAIT },
	{ "poll",			RT_WAIT },
	{ "ppoll",			RT_WAIT },
	{ "__select",			RT_WAIT },
	{ "select",			RT_WAIT },
	{ "pselect",			RT_WAIT },
	{ "epoll_wait",			RT_WAIT },
	{ "epoll_pwait",		RT_WAIT },
	{ "___pthread_cond_wait",	RT_WAIT },
	{ "__pthread_cond_wait",	RT_WAIT },
	{ "pthread_cond_wait",		RT_WAIT },
	{ "pthread_cond_timedwait",	RT_WAIT },
	{ "__futex_abstimed_wait_common", RT_WAIT },
	{ "sem_wait",			RT_WAIT },
	{ "sched_yield",		RT_WAIT },
	/* glibc 2.34 and later, under the condition variables and locks. */
	{ "__futex_abstimed_wait_common64", RT_WAIT },
	{ "__futex_abstimed_wait_cancelable64", RT_WAIT },
	{ "__pthread_cond_timedwait64",	RT_WAIT },
	{ "___pthread_cond_timedwait64", RT_WAIT },
	/*
	 * HotSpot's collector threads, as async-profiler names their
	 * frames (and pyroscope's converter of its JFR recordings, after
	 * the library: "libjvm.so.GangWorker::run"): the parallel workers
	 * (GangWorker up to JDK 18, WorkerThread since, GCTaskThread in
	 * JDK 8's parallel collector) and the concurrent threads, whose
	 * work follows how much the program allocates.
	 */
	{ "GangWorker::run",		RT_GC },
	{ "GangWorker::loop",		RT_GC },
	{ "WorkerThread::run",		RT_GC },
	{ "GCTaskThread::run",		RT_GC },
	{ "ConcurrentGCThread::run",	RT_GC },
	{ "ConcurrentMarkThread::run",	RT_GC },
	{ "ConcurrentG1RefineThread::run", RT_GC },
	/* Its JIT compiler's threads: the runtime itself, compiling. */
	{ "CompileBroker::compiler_thread_loop", RT_VM },
};

/*
 * Does name hold tok, alone or as "file:tok" or "file:tok:line"?  The
 * file part may not hold a colon-free copy of tok's start, so that a
 * function merely named like one ("my(idle)") is code.
 */
static int
holds(const char *name, const char *tok)
{
	size_t	 n = strlen(name), k = strlen(tok);
	const char *p, *end;

	if (strcmp(name, tok) == 0)
		return 1;
	for (p = name; (p = strstr(p, tok)) != NULL; p++) {
		if (p != name && p[-1] != ':')
			continue;
		end = p + k;
		if (*end == '\0')
			return 1;
		if (*end != ':' || end + 1 == name + n)
			continue;
		for (end++; *end != '\0' && isdigit((unsigned char)*end); end++)
			;
		if (*end == '\0')
			return 1;
	}
	return 0;
}

/*
 * A Go closure is its function's: "runtime.gcAssistAlloc.func1" (and
 * ".func1.2" for one inside it) is the collector's as its function is.
 */
static enum rt_frame
closure_of(const char *name)
{
	char		 fn[128];
	const char	*p = strstr(name, ".func"), *q;
	size_t		 n;

	if (p == NULL || strncmp(name, "runtime.", 8) != 0)
		return RT_CODE;
	for (q = p + 5; *q != '\0' && (isdigit((unsigned char)*q) ||
	    *q == '.'); q++)
		;
	n = (size_t)(p - name);
	if (*q != '\0' || q == p + 5 || n >= sizeof(fn))
		return RT_CODE;
	memcpy(fn, name, n);
	fn[n] = '\0';
	return rt_frame_of(fn);
}

/*
 * Go's profilers writing a profile: runtime/pprof's (profileBuilder,
 * protobuf, writeHeap, profileWriter, ...), but not pprof.Do, whose
 * function runs the program's code under labels; and Datadog's, which
 * collects runtime/pprof's profiles and uploads them, in either of its
 * import paths (and its internal packages).
 */
static int
go_profiler(const char *name)
{
	static const char rt[] = "runtime/pprof.";
	static const char *const dd[] = {
		"gopkg.in/DataDog/dd-trace-go.v1/profiler",
		"github.com/DataDog/dd-trace-go/v2/profiler" };
	size_t	 i, n;

	if (strncmp(name, rt, sizeof(rt) - 1) == 0)
		return strncmp(name + sizeof(rt) - 1, "Do", 2) != 0;
	for (i = 0; i < sizeof(dd) / sizeof(dd[0]); i++) {
		n = strlen(dd[i]);
		if (strncmp(name, dd[i], n) == 0 &&
		    (name[n] == '.' || name[n] == '/'))
			return 1;
	}
	return 0;
}

/*
 * The profilers' packages by file: Node.js's (@datadog/pprof and its
 * encoder pprof-format, Google's pprof, dd-trace's profiling) and
 * Python's dd-trace (ddtrace/profiling).
 */
int
rt_profiler_file(const char *file)
{
	static const char *const pkgs[] = { "node_modules/@datadog/pprof/",
		"node_modules/pprof-format/", "node_modules/pprof/",
		"node_modules/dd-trace/packages/dd-trace/src/profiling/",
		"/ddtrace/profiling/" };
	size_t	 i;

	if (file == NULL)
		return 0;
	for (i = 0; i < sizeof(pkgs) / sizeof(pkgs[0]); i++)
		if (strstr(file, pkgs[i]) != NULL)
			return 1;
	return 0;
}

/*
 * A native function's name without what a converter put before it: the
 * shared library (lib*.so or ld-*.so, and its version), as pyroscope's
 * converter of JFR recordings writes it ("libc.so.6.__poll",
 * "libjvm.so.GangWorker::run"), and glibc's own alias of a function it
 * calls inside itself ("__GI___poll").
 */
static const char *
bare(const char *name)
{
	const char	*p = NULL, *q;

	/* The library's name first: most names are no library's. */
	if ((strncmp(name, "lib", 3) == 0 || strncmp(name, "ld-", 3) == 0) &&
	    (p = strstr(name, ".so.")) != NULL &&
	    strcspn(name, " :(/") > (size_t)(p - name)) {
		for (q = p + 4; isdigit((unsigned char)*q); ) {
			while (isdigit((unsigned char)*q))
				q++;
			if (*q != '.')
				break;
			q++;
		}
		if (*q != '\0' && !isdigit((unsigned char)*q))
			name = q;
	}
	if (strncmp(name, "__GI_", 5) == 0 && name[5] != '\0')
		name += 5;
	return name;
}

/*
 * Is name tok, alone or marked as the kernel's ("_[k]" after it, as
 * perf script's frames are read: perfscript.c), or, with a colon, as
 * holds() says?  Without a colon only the first two can be: no file
 * part, so no strstr() over every name of a large profile.
 */
static int
names(const char *name, const char *tok, int colon)
{
	size_t	 k;

	if (name[0] != tok[0] && !colon)
		return 0;
	k = strlen(tok);
	if (strncmp(name, tok, k) == 0 && (name[k] == '\0' ||
	    strcmp(name + k, "_[k]") == 0))
		return 1;
	return colon && holds(name, tok);
}

enum rt_frame
rt_frame_of(const char *name)
{
	size_t	 i;
	int	 colon;

	if (name == NULL || name[0] == '\0')
		return RT_CODE;
	name = bare(name);
	if ((name[0] == 'r' || name[0] == 'g') && go_profiler(name))
		return RT_PROFILER;
	/* Each name below starts with one of these, or has a ":". */
	colon = strchr(name, ':') != NULL;
	if (strchr("(CGNWr_acdeimnpsu", name[0]) == NULL && !colon)
		return RT_CODE;
	/* Without a file part, a name starts as the one it is. */
	for (i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if (names(name, pseudo[i].name, colon))
			return pseudo[i].what;
	return closure_of(name);
}

const char *
rt_frame_what(enum rt_frame f)
{
	switch (f) {
	case RT_IDLE:
		return "idle";
	case RT_GC:
		return "garbage collection";
	case RT_SCHED:
		return "the runtime's scheduler";
	case RT_VM:
		return "the runtime itself";
	case RT_ROOT:
		return "the root of every stack";
	case RT_THREADS:
		return "threads that run no code of the program";
	case RT_PROFILER:
		return "the profiler's own work";
	case RT_WAIT:
		return "waiting";
	default:
		return NULL;
	}
}

int
rt_frame_load(enum rt_frame f)
{
	return f == RT_GC || f == RT_SCHED || f == RT_THREADS ||
	    f == RT_PROFILER || f == RT_WAIT;
}

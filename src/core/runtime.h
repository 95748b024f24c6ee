/*
 * Frames that are not code: the pseudo-frames a runtime's profiler puts
 * on a stack to say what the thread was doing when it ran none of the
 * program's functions.  V8 (and so both Node.js profilers) writes
 * "(idle)", "(program)", "(garbage collector)" and "(root)";
 * @datadog/pprof names its collector "Garbage Collection" and adds a
 * frame for the CPU of threads that run no JavaScript.  Idle time is not work: samples whose innermost frame is
 * idle are kept apart from the shares (agg.c).  The others are work of
 * the runtime, and the reports say so.  No I/O here.
 */
#ifndef RUNTIME_H
#define RUNTIME_H

enum rt_frame {
	RT_CODE = 0,		/* a function of the program or a library */
	RT_IDLE,		/* the thread had nothing to run */
	RT_GC,			/* the runtime's garbage collector, or
				   the root of its work apart (Go's
				   runtime.gcBgMarkWorker) */
	RT_SCHED,		/* the runtime's scheduler: parking,
				   waking and finding work for threads
				   (Go's runtime.mcall, runtime.mstart) */
	RT_VM,			/* the runtime itself: compiling, its C++ */
	RT_ROOT,		/* the root every stack starts from */
	RT_THREADS,		/* threads that run no code of the program */
	RT_PROFILER,		/* the profiler's own work in the process:
				   writing its profiles (Go's
				   runtime/pprof, @datadog/pprof and
				   pprof-format's encoders) */
	RT_WAIT,		/* a thread going to sleep or waking: the
				   C library's waits (nanosleep, poll,
				   epoll_wait, a condition variable), whose
				   CPU follows how often it waits */
	RT_NCLASS
};

/*
 * What the frame of this function name is.  A name matches a
 * pseudo-frame's alone or as a converter writes it with a file and a
 * line around it ("file:(idle):0", as Pyroscope's Node.js export does).
 */
enum rt_frame	 rt_frame_of(const char *name);
/*
 * Is a function of this source file the profiler's own, by the package
 * it lies in (node_modules' @datadog/pprof, pprof-format, pprof)?  A
 * Node.js profiler runs in the process it profiles, and its encoder's
 * time and garbage follow when it wrote its last profile, not the code.
 */
int		 rt_profiler_file(const char *file);
/* What the frame is, in words, for a report ("idle", ...); NULL for code. */
const char	*rt_frame_what(enum rt_frame);
/*
 * Is it the runtime's work apart from the code, moving with the load
 * (of allocation, of scheduling) rather than with any code of its own:
 * the collector, the scheduler, threads that run no code of the
 * program, the profiler's own work, and the C library's waits?
 */
int		 rt_frame_load(enum rt_frame);

#endif

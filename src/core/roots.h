/*
 * Where a stack starts: at its thread's entry (main, _start, a thread's
 * start routine, the kernel), or cut short, where an unwinder walking
 * frame pointers stopped in code built without them and lost the
 * callers.  Only stacks a native unwinder walked are judged: frames
 * with machine addresses, from perf, gperftools or pprof's conversions
 * of them.  No I/O here.
 */
#ifndef ROOTS_H
#define ROOTS_H

struct profile;
struct pf_sample;

enum root_kind {
	ROOT_UNJUDGED = 0,	/* nothing to tell either way */
	ROOT_ENTRY,		/* the stack reaches its thread's entry */
	ROOT_CUT,		/* it stops short of it */
	ROOT_LONE,		/* one frame, no entry: cut short if the
				   profile has call chains (a stack of two
				   frames or more), else it has none */
};

/*
 * Are this profile's stacks to be judged at all?  Not a Go program's
 * (a function whose file ends in ".go"): Go's runtime walks its own
 * stacks exactly, and a goroutine's stack starts at the function the
 * go statement named, which no list of entries can know.
 */
int		 roots_judged(const struct profile *);

/*
 * The stack of sample s, by its outermost frame (its root): unjudged
 * when it has no frame, when the root has no address (a runtime's own
 * frames, V8's or the JVM's, or folded stacks, which no machine
 * unwinder walked), or when it has an address in a mapping and no name
 * (unsymbolized: it may be _start); an entry when the root is a kernel
 * frame (the kernel unwinds itself reliably; a stack that ends there
 * has no user part recorded, which no remedy here changes), Go's
 * runtime, or a name of roots_entry(); cut otherwise, and when the root
 * has no name and either no address (the zero perf prints where a walk
 * read no return address) or one in no mapping (perf's "[unknown]"
 * dso).  A stack of one frame that would be cut is ROOT_LONE: perf
 * prints the leaf alone where its walk found no caller at all, and a
 * profile recorded without call chains has nothing but such stacks,
 * which the caller tells apart.
 */
enum root_kind	 roots_of(const struct pf_sample *s);

/* Is name a thread's or a process's entry, as roots_of() says? */
int		 roots_entry(const char *name);

#endif

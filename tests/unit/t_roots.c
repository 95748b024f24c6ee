/*
 * Stacks cut short (roots.c): the entries, each rule of roots_of() on a
 * hand-built stack, and what facts.c sums from them, weighed by the
 * samples' counts: perf script text (a chain that reaches
 * __libc_start_call_main, one that ends in perf's zero frame, a leaf
 * alone, a kernel stack), a profile recorded without call chains, a Go
 * profile (never judged), V8's frames (no addresses: never judged), and
 * unsymbolized addresses (in a mapping: unjudged; in none: cut).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/facts.h"
#include "core/roots.h"
#include "input/perfscript.h"
#include "model/profile.h"
#include "support/arena.h"
#include "support/diag.h"
#include "tap.h"
#include "tprofile.h"

static void
t_entries(void)
{
	CHECK(roots_entry("_start"));
	CHECK(roots_entry("__libc_start_call_main"));
	CHECK(roots_entry("__libc_start_main"));
	CHECK(roots_entry("main"));
	CHECK(roots_entry("start_thread"));
	CHECK(roots_entry("clone3"));
	CHECK(roots_entry("_dl_start_user"));
	CHECK(roots_entry("runtime.goexit"));
	CHECK(roots_entry("runtime.mstart"));
	CHECK(!roots_entry("mix_hash"));
	CHECK(!roots_entry("msort_with_tmp.part.0"));
	CHECK(!roots_entry("main2"));
	CHECK(!roots_entry(""));
	CHECK(!roots_entry(NULL));
}

/* The facts of perf script text, on its first sample type. */
static int
text_facts(const char *text, struct facts *f)
{
	struct profile	*p;
	struct diag	 d;
	int		 rc;

	diag_init(&d, "t.perf");
	if ((p = perfscript_decode(text, strlen(text), "t.perf", NULL, &d)) ==
	    NULL)
		return -1;
	rc = facts_compute(p, 0, f);
	profile_free(p);
	return rc;
}

#define HDR(n)	"prog 10/10 1.0000" #n ":     250000 cpu-clock: \n"
#define FR(frame, dso) "\t" frame " (" dso ")\n"
#define LIBC	"/usr/lib/x86_64-linux-gnu/libc.so.6"

static void
t_perf(void)
{
	struct facts	 f;
	/* Reaches the entry; cut in libc; perf's zero; a leaf alone. */
	static const char text[] =
	    HDR(1)
	    FR("            1139 mix_hash+0x9", "/bin/prog")
	    FR("            1200 main+0x20", "/bin/prog")
	    FR("           2724a __libc_start_call_main+0x7a", LIBC) "\n"
	    HDR(2)
	    FR("            1139 cmp_records+0x3", "/bin/prog")
	    FR("           4a0e3 msort_with_tmp.part.0+0xe3", LIBC) "\n"
	    HDR(3)
	    FR("           51a96 _itoa_word+0xd0", LIBC)
	    FR("               0 [unknown]", "[unknown]") "\n"
	    HDR(4)
	    FR("           53f5e _IO_default_xsputn+0xf5", LIBC) "\n"
	    HDR(5)
	    FR("ffffffff8164f344 kmem_cache_free+0x114", "[kernel.kallsyms]")
	    FR("ffffffff81000130 entry_SYSCALL_64_after_hwframe+0x76",
	    "[kernel.kallsyms]") "\n"
	    HDR(6)
	    FR("            1139 mix_hash+0x9", "/bin/prog")
	    FR("    7f1770c9f8a8 [unknown]", "[unknown]") "\n";

	CHECK_INT(text_facts(text, &f), 0);
	/* 2, 3, 4 (alone, under chains) and 6 cut; 1 and 5 reach. */
	CHECK_INT(f.stacks_judged, 6);
	CHECK_INT(f.stacks_cut, 4);
}

/* Without call chains, a leaf alone is all there is: nothing judged. */
static void
t_nochain(void)
{
	struct facts	 f;
	static const char text[] =
	    "prog 10/10 1.000001:     250000 cpu-clock:            1139 "
	    "mix_hash+0x9 (/bin/prog)\n"
	    "prog 10/10 1.000002:     250000 cpu-clock:           53f5e "
	    "_IO_default_xsputn+0xf5 (" LIBC ")\n";

	CHECK_INT(text_facts(text, &f), 0);
	CHECK_INT(f.stacks_judged, 0);
	CHECK_INT(f.stacks_cut, 0);
}

/* Hand-built: the weights are the counts, and Go and V8 are not judged. */
static void
t_built(void)
{
	struct profile		*p;
	struct pf_mapping	*m;
	struct pf_function	*leaf, *entry, *gofn, *v8;
	struct pf_location	*l1, *l2, *l3, *noname, *nomap, *l4, *l5;
	struct facts		 f;
	const int64_t		 three[] = { 3, 30 }, one[] = { 1, 10 };

	p = t_new(2, "samples", "count", "cpu", "nanoseconds");
	m = t_map(p, 0x1000, 0x9000, "/bin/prog", "");
	leaf = t_fn(p, "leaf", "prog.c");
	entry = t_fn(p, "_start", "start.S");
	l1 = t_loc(p, m, 0x1100, 1, leaf, 3);
	l2 = t_loc(p, m, 0x1200, 1, entry, 1);
	l3 = t_loc(p, m, 0x1300, 1, leaf, 4);
	noname = t_loc(p, m, 0x1400, 0);
	nomap = t_loc(p, NULL, 0x77001400, 0);
	t_sample(p, three, 2, l1, l2);		/* reaches: 3 */
	t_sample(p, one, 2, l1, l3);		/* cut: 1 */
	t_sample(p, three, 2, l1, noname);	/* unjudged */
	t_sample(p, one, 2, l1, nomap);		/* cut: 1 */
	CHECK(roots_judged(p));
	CHECK_INT(roots_of(&p->samples[0]), ROOT_ENTRY);
	CHECK_INT(roots_of(&p->samples[1]), ROOT_CUT);
	CHECK_INT(roots_of(&p->samples[2]), ROOT_UNJUDGED);
	CHECK_INT(roots_of(&p->samples[3]), ROOT_CUT);
	CHECK_INT(facts_compute(p, 1, &f), 0);
	CHECK_INT(f.samples, 8);
	CHECK_INT(f.stacks_judged, 5);
	CHECK_INT(f.stacks_cut, 2);

	/* Inlined frames: the outermost line of the root is what counts. */
	l4 = t_loc(p, m, 0x1500, 2, leaf, 9, entry, 2);
	t_sample(p, one, 2, l1, l4);
	CHECK_INT(roots_of(&p->samples[4]), ROOT_ENTRY);

	/* V8: frames with names and no addresses, never judged. */
	v8 = t_fn(p, "processTimers", "node:internal/timers");
	l5 = t_loc(p, NULL, 0, 1, v8, 1);
	t_sample(p, one, 2, l1, l5);
	CHECK_INT(roots_of(&p->samples[5]), ROOT_UNJUDGED);

	/* A Go program's: its goroutines start anywhere. */
	gofn = t_fn(p, "main.main.func1", "/src/main.go");
	(void)gofn;
	CHECK(!roots_judged(p));
	CHECK_INT(facts_compute(p, 1, &f), 0);
	CHECK_INT(f.stacks_judged, 0);
	profile_free(p);
}

int
main(void)
{
	t_entries();
	t_perf();
	t_nochain();
	t_built();
	return tap_done();
}

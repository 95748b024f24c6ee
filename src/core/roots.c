/*
 * The entries a native stack starts from, and the judging of a stack's
 * root against them (roots.h).  The list is of what starts a thread of
 * machine code on Linux, whatever the language: the C library's
 * process start (_start, __libc_start_main and, since glibc 2.34,
 * __libc_start_call_main; musl's _start_c), main itself (a walk that
 * reaches main has every caller of the program's code), the dynamic
 * loader's start (_dl_start, _dl_start_user: constructors of shared
 * libraries run under it), and a thread's start (start_thread under
 * clone or clone3 in glibc, musl's start and start_c11 under __clone).
 * Rust, C++, the JVM's and Node.js's native threads all start there
 * too.  Go's frames are the runtime's ("runtime.goexit",
 * "runtime.mstart"), and a kernel frame ends a stack with no user part.
 * No I/O here.
 */
#include <stdint.h>
#include <string.h>

#include "core/roots.h"
#include "model/profile.h"

#define KERNEL_MARK	"_[k]"		/* perfscript.c's kernel frames */
#define KERNEL_START	UINT64_C(0xffff800000000000)

int
roots_entry(const char *name)
{
	static const char *const entries[] = {
		"_start", "__start", "_start_c", "__libc_start_main",
		"__libc_start_main_impl", "__libc_start_call_main", "main",
		"_dl_start", "_dl_start_user", "_dl_start_final",
		"start_thread", "__start_thread", "thread_start", "start",
		"start_c11", "clone", "clone3", "__clone", "__clone3",
		"__GI___clone", "__GI___clone3", "__clone_internal",
	};
	size_t i;

	if (name == NULL)
		return 0;
	/* Go: the runtime starts every goroutine and thread. */
	if (strncmp(name, "runtime.", 8) == 0)
		return 1;
	for (i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (strcmp(name, entries[i]) == 0)
			return 1;
	return 0;
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

int
roots_judged(const struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nfunctions; i++)
		if (p->functions[i].filename != NULL &&
		    ends_with(p->functions[i].filename, ".go"))
			return 0;
	return 1;
}

/* A stack that stops short: alone, or under callers. */
static enum root_kind
cut(const struct pf_sample *s)
{
	return s->nlocs == 1 ? ROOT_LONE : ROOT_CUT;
}

enum root_kind
roots_of(const struct pf_sample *s)
{
	const struct pf_location *l;
	const char	*name = NULL;

	if (s->nlocs == 0 || (l = s->locs[s->nlocs - 1]) == NULL)
		return ROOT_UNJUDGED;
	/* The outermost of its inlined frames is where the walk ended. */
	if (l->nlines > 0 && l->lines[l->nlines - 1].function != NULL)
		name = l->lines[l->nlines - 1].function->name;
	if (name != NULL && name[0] == '\0')
		name = NULL;
	if (l->address == 0)
		return name == NULL ? cut(s) : ROOT_UNJUDGED;
	if (l->address >= KERNEL_START ||
	    (name != NULL && ends_with(name, KERNEL_MARK)))
		return ROOT_ENTRY;
	/* An address in no mapping is no return address: the walk erred. */
	if (name == NULL)
		return l->mapping == NULL || (l->mapping->filename != NULL &&
		    strcmp(l->mapping->filename, "[unknown]") == 0) ?
		    cut(s) : ROOT_UNJUDGED;
	return roots_entry(name) ? ROOT_ENTRY : cut(s);
}

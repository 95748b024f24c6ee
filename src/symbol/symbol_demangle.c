/*
 * C++ and Rust names demangled by libiberty, GCC's own demangler (the
 * one binutils' c++filt and addr2line -C use), as its cplus_demangle()
 * does in its automatic style: Rust's schemes (legacy and v0) first,
 * then the Itanium C++ ABI's; a name that is neither is not demangled.
 * The two are called directly: cplus_demangle() would link libiberty's
 * xmalloc(), which profdiff's support room defines too.  A file of its
 * own, as libiberty's headers declare xasprintf() too.
 */
#include <libiberty/demangle.h>
#include <stddef.h>

#include "symbol/symbol.h"

char *
sym_demangle(const char *name)
{
	char *s;

	if (name == NULL || name[0] != '_')
		return NULL;
	if ((s = rust_demangle(name, DMGL_PARAMS | DMGL_ANSI)) != NULL)
		return s;
	return cplus_demangle_v3(name, DMGL_PARAMS | DMGL_ANSI);
}

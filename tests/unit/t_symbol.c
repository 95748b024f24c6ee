/*
 * Tests for the symbol room: the address arithmetic of sym_elf_addr()
 * on the layouts of a PIE, a fixed executable and a shared library
 * (segments as readelf -l prints them for Debian 12's gcc output and
 * libc.so.6), the demangler (C++ names as c++filt writes them; Rust's
 * without the hash and crate disambiguator c++filt adds), and
 * symbol_profile() on this test's own binary, mapped as /proc/self/maps
 * says: a function named with its file and line, the functions moved
 * into the profile's array, a mapping of another build id refused, one
 * that says it has functions left alone, and the mappings with no file,
 * no binary or no load address said so.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "model/profile.h"
#include "support/arena.h"
#include "symbol/symbol.h"

static void
test_addr(void)
{
	/* A PIE: readelf -l of a gcc -O2 binary, text at 0x1000. */
	static const struct sym_seg pie[] = {
		{ 0x0, 0x628, 0x0 },
		{ 0x1000, 0x1dd, 0x1000 },
		{ 0x2000, 0x14c, 0x2000 },
		{ 0x2de8, 0x248, 0x3de8 },
	};
	/* A fixed executable (-no-pie), loaded at 0x400000. */
	static const struct sym_seg exe[] = {
		{ 0x0, 0x4f8, 0x400000 },
		{ 0x1000, 0x1c5, 0x401000 },
	};
	/* libc.so.6: text at file offset 0x26000. */
	static const struct sym_seg lib[] = {
		{ 0x0, 0x25f50, 0x0 },
		{ 0x26000, 0x155b5d, 0x26000 },
	};
	uint64_t a = 0;

	CHECK(sym_elf_addr(0x555555555139, 0x555555555000, 0x555555556000,
	    0x1000, pie, 4, &a) == 0 && a == 0x1139);
	/* The data segment, whose address is not its offset. */
	CHECK(sym_elf_addr(0x555555557df0, 0x555555557000, 0x555555558000,
	    0x2000, pie, 4, &a) == 0 && a == 0x3df0);
	CHECK(sym_elf_addr(0x401136, 0x401000, 0x402000, 0x1000, exe, 2,
	    &a) == 0 && a == 0x401136);
	CHECK(sym_elf_addr(0x7f1a972e2249, 0x7f1a972e1000, 0x7f1a97437000,
	    0x26000, lib, 2, &a) == 0 && a == 0x27249);
	/* Outside the mapping, or in no segment. */
	CHECK(sym_elf_addr(0x555555554fff, 0x555555555000, 0x555555556000,
	    0x1000, pie, 4, &a) == -1);
	CHECK(sym_elf_addr(0x555555556000, 0x555555555000, 0x555555556000,
	    0x1000, pie, 4, &a) == -1);
	CHECK(sym_elf_addr(0x5555555551f0, 0x555555555000, 0x555555556000,
	    0x1000, pie, 4, &a) == -1);
	CHECK(sym_elf_addr(UINT64_MAX, 0x10, 0, UINT64_MAX - 4, pie, 4,
	    &a) == -1);
	/* pprof's mapping of no range: the address is the file's. */
	CHECK(sym_elf_addr(0x401136, 0, 0, 0, exe, 2, &a) == 0 &&
	    a == 0x401136);
	CHECK(sym_elf_addr(0x1234, 0, UINT64_MAX, 0, NULL, 0, &a) == 0 &&
	    a == 0x1234);
}

static void
check_demangle(const char *in, const char *want)
{
	char *got = sym_demangle(in);

	if (want == NULL) {
		CHECK(got == NULL);
		if (got != NULL)
			printf("#   %s demangled as %s\n", in, got);
	} else
		CHECK_STR(got != NULL ? got : "(null)", want);
	free(got);
}

static void
test_demangle(void)
{
	check_demangle("_ZN3foo3barEi", "foo::bar(int)");
	check_demangle("_ZNSt6vectorIiSaIiEE9push_backERKi",
	    "std::vector<int, std::allocator<int> >::push_back(int const&)");
	/* Rust, legacy (its hash dropped) and v0. */
	check_demangle("_ZN4core3fmt5write17h0123456789abcdefE",
	    "core::fmt::write");
	check_demangle("_RNvCs15kBYyAo9fc_7mycrate7example",
	    "mycrate::example");
	check_demangle("main", NULL);
	check_demangle("_Znotmangled", NULL);
	check_demangle("", NULL);
}

/* The function the profile's location points into. */
__attribute__((noinline)) unsigned
t_symbol_target(unsigned x)
{
	return x * 2654435761u + (x >> 7);
}

/* This binary's executable mapping, from /proc/self/maps. */
static int
self_map(char *path, size_t len, uint64_t *start, uint64_t *limit,
    uint64_t *off)
{
	char		 line[4096], perm[8], file[4096];
	unsigned long long s, e, o;
	ssize_t		 n;
	FILE		*fp;
	int		 found = 0;

	if ((n = readlink("/proc/self/exe", path, len - 1)) <= 0)
		return -1;
	path[n] = '\0';
	if ((fp = fopen("/proc/self/maps", "r")) == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e,
		    perm, &o, file) == 5 && perm[2] == 'x' &&
		    strcmp(file, path) == 0) {
			*start = s, *limit = e, *off = o;
			found = 1;
		}
	fclose(fp);
	return found ? 0 : -1;
}

static struct profile *
self_profile(const char *exe, uint64_t start, uint64_t limit, uint64_t off,
    const char *build_id)
{
	struct profile	*p = profile_new();
	struct pf_function *f;
	struct pf_mapping *m;
	struct pf_location *l;

	m = arena_calloc(p->arena, 4, sizeof(*m));
	m[0] = (struct pf_mapping){ .id = 1, .memory_start = start,
	    .memory_limit = limit, .file_offset = off, .filename = exe,
	    .build_id = build_id };
	m[1] = (struct pf_mapping){ .id = 2, .memory_start = 0x7fff0000,
	    .memory_limit = 0x7fff2000, .filename = "[vdso]",
	    .build_id = "" };
	m[2] = (struct pf_mapping){ .id = 3, .memory_start = 0x10000,
	    .memory_limit = 0x20000, .filename = "/nonexistent/libx.so",
	    .build_id = "" };
	m[3] = (struct pf_mapping){ .id = 4, .filename = exe, .build_id = "" };
	p->mappings = m;
	p->nmappings = 4;
	/* One function already named, which must move with the array. */
	f = arena_calloc(p->arena, 1, sizeof(*f));
	*f = (struct pf_function){ .id = 7, .name = "already",
	    .system_name = "already", .filename = "" };
	p->functions = f;
	p->nfunctions = 1;
	l = arena_calloc(p->arena, 5, sizeof(*l));
	l[0] = (struct pf_location){ .id = 1, .mapping = &m[0],
	    .address = (uintptr_t)t_symbol_target + 4 };
	l[1] = (struct pf_location){ .id = 2, .mapping = &m[1],
	    .address = 0x7fff0100 };
	l[2] = (struct pf_location){ .id = 3, .mapping = &m[2],
	    .address = 0x10100 };
	l[3] = (struct pf_location){ .id = 4, .mapping = &m[0],
	    .address = (uintptr_t)t_symbol_target,
	    .lines = arena_calloc(p->arena, 1, sizeof(struct pf_line)),
	    .nlines = 1 };
	l[3].lines[0].function = f;
	l[4] = (struct pf_location){ .id = 5, .mapping = &m[3],
	    .address = 0x1000 };
	p->locations = l;
	p->nlocations = 5;
	return p;
}

static const struct sym_map *
entry(const struct sym_summary *s, const char *mapping)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i].mapping, mapping) == 0)
			return &s->v[i];
	return NULL;
}

static void
test_profile(void)
{
	char			 exe[4096];
	uint64_t		 start, limit, off;
	struct sym_opts		 o = { NULL, 0 };
	struct sym_cache	*c;
	struct sym_summary	 sum = { NULL, 0 };
	struct profile		*p;
	const struct pf_location *l;
	const struct sym_map	*e;
	size_t			 i, k, inside = 1;

	if (self_map(exe, sizeof(exe), &start, &limit, &off) == -1) {
		CHECK(!"this binary's mapping in /proc/self/maps");
		return;
	}
	c = sym_cache_new(&o);
	p = self_profile(exe, start, limit, off, "");
	/* Its own mapping and the one of no range share one file. */
	CHECK_INT(symbol_profile(c, p, &sum), 1);
	l = &p->locations[0];
	CHECK(l->nlines >= 1 && l->lines[0].function != NULL);
	if (l->nlines >= 1 && l->lines[0].function != NULL) {
		const struct pf_function *f = l->lines[l->nlines - 1].function;
		size_t fl = strlen(f->filename);

		CHECK_STR(f->name, "t_symbol_target");
		CHECK(fl >= 10 && strcmp(f->filename + fl - 10,
		    "t_symbol.c") == 0);
		CHECK(l->lines[l->nlines - 1].line > 0);
		CHECK(f->start_line > 0);
	}
	for (i = 0; i < p->nlocations; i++)
		for (k = 0; k < p->locations[i].nlines; k++)
			inside &= p->locations[i].lines[k].function >=
			    p->functions && p->locations[i].lines[k].function <
			    p->functions + p->nfunctions;
	CHECK(inside);
	CHECK_STR(p->locations[3].lines[0].function->name, "already");
	CHECK(p->locations[1].nlines == 0 && p->locations[2].nlines == 0);
	CHECK((e = entry(&sum, exe)) != NULL);
	if (e != NULL) {
		/* The first mapping of exe named; the second, of no range
		 * in a PIE (no load address), not. */
		CHECK(e->state == SYM_NAMED && e->naddrs == 2 &&
		    e->nnamed == 1);
		CHECK_STR(e->file, exe);
	}
	CHECK((e = entry(&sum, "[vdso]")) != NULL &&
	    e->state == SYM_SYSTEM && e->naddrs == 1 && e->nnamed == 0);
	CHECK((e = entry(&sum, "/nonexistent/libx.so")) != NULL &&
	    e->state == SYM_MISSING);
	profile_free(p);
	sym_summary_release(&sum);

	/* The same binary, said to be of another build id: refused. */
	p = self_profile(exe, start, limit, off,
	    "00112233445566778899aabbccddeeff00112233");
	CHECK_INT(symbol_profile(c, p, &sum), 0);
	CHECK(p->locations[0].nlines == 0);
	CHECK((e = entry(&sum, exe)) != NULL &&
	    e->state == SYM_MISMATCH && e->file_id != NULL &&
	    e->file_id[0] != '\0' && strcmp(e->file_id,
	    "00112233445566778899aabbccddeeff00112233") != 0);
	profile_free(p);
	sym_summary_release(&sum);

	/* A mapping that says it has functions is left alone, as pprof. */
	p = self_profile(exe, start, limit, off, "");
	p->mappings[0].has_functions = 1;
	CHECK_INT(symbol_profile(c, p, &sum), 0);
	CHECK(p->locations[0].nlines == 0 && entry(&sum, exe) != NULL &&
	    entry(&sum, exe)->naddrs == 1);
	profile_free(p);
	sym_summary_release(&sum);
	sym_cache_free(c);
}

int
main(void)
{
	test_addr();
	test_demangle();
	test_profile();
	return tap_done();
}

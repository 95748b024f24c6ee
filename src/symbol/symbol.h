/*
 * Symbolization from local binaries, as pprof does it: the locations of
 * a profile that have an address but no function (gperftools' legacy
 * CPU profiles, pprof protobufs written unsymbolized, perf script's
 * [unknown] frames) are named from the ELF file of their mapping, found
 * where pprof looks for it, through elfutils: DWARF's functions,
 * inlined frames and lines, else the ELF symbol tables.  It rewrites the
 * model's locations and functions and says, mapping by mapping, what it
 * did (struct sym_summary), for loading to warn of and the reports to
 * show.  It knows no wire format, no statistics and no output format,
 * and fails no load: a binary it cannot use is a mapping left unnamed,
 * and said so.
 */
#ifndef SYMBOL_H
#define SYMBOL_H

#include <stddef.h>
#include <stdint.h>

struct profile;

/* What became of one mapping's addresses. */
enum sym_state {
	SYM_NAMED = 0,	/* read from a file (nnamed may still be < naddrs) */
	SYM_MISSING,	/* no file at any place looked */
	SYM_MISMATCH,	/* files found, each of another build id */
	SYM_SYSTEM,	/* [vdso], [kernel.kallsyms] ...: no file, as pprof */
	SYM_NOFILE,	/* the profile names no file for the mapping */
	SYM_NOBASE,	/* a relocatable file (a shared object, PIE) and a
			   mapping with no address range: where it was
			   loaded is unknown (perf script's dsos) */
};

/*
 * One mapping of a side (the mappings of its profiles merged by file
 * name and build id), all strings owned by the summary.
 */
struct sym_map {
	char		*mapping;	/* its file name, as the profile has it */
	char		*build_id;	/* "" if the profile has none */
	char		*file;		/* the file read (SYM_NAMED), or the
					   first refused (SYM_MISMATCH) */
	char		*file_id;	/* that refused file's build id */
	enum sym_state	 state;
	uint64_t	 naddrs;	/* locations with an address, no name */
	uint64_t	 nnamed;	/* ... of which this named */
};

struct sym_summary {
	struct sym_map	*v;
	size_t		 n;
};

/*
 * Where to look, in order, besides the mapping's own path and
 * /usr/lib/debug/.build-id: --binary-path's folders, then those of
 * PPROF_BINARY_PATH (or $HOME/pprof/binaries), as the CLI gives them.
 * Borrowed.
 */
struct sym_opts {
	char *const	*dirs;
	size_t		 ndirs;
};

/*
 * The files opened for one side, each once (one elfutils session per
 * file, shared by every mapping and profile that uses it).  Not to be
 * shared between threads: each side has its own.
 */
struct sym_cache;

struct sym_cache *sym_cache_new(const struct sym_opts *);
void		 sym_cache_free(struct sym_cache *);	/* NULL is a no-op */

/*
 * Name the locations of p that have an address and no lines, mapping by
 * mapping, with the cache's files, and add what became of each mapping
 * to sum (merged with what earlier profiles of the side added).  The
 * new functions and lines are in p's arena; p->functions is replaced
 * by a longer array and every line's function pointer moved to it.
 * Returns how many locations were named.
 */
size_t		 symbol_profile(struct sym_cache *, struct profile *,
		    struct sym_summary *);
void		 sym_summary_release(struct sym_summary *);
/* Add from's mappings to into's, as another profile of the side would. */
void		 sym_summary_merge(struct sym_summary *into,
		    const struct sym_summary *from);
/* Whether any mapping of the summary had addresses without names. */
int		 sym_summary_any(const struct sym_summary *);

/*
 * The address arithmetic, apart for its tests.  One loadable segment of
 * an ELF file (PT_LOAD): its file offset, size in the file, and virtual
 * address.
 */
struct sym_seg {
	uint64_t	 off;
	uint64_t	 filesz;
	uint64_t	 vaddr;
};

/*
 * The ELF virtual address of runtime address addr in a mapping of
 * [start, limit) at file offset offset: its file offset
 * (addr - start + offset), in the loadable segment that holds it, at
 * that segment's address; as pprof, a mapping of no range (start,
 * limit and offset 0, or limit all ones) means addr is that address
 * already.  Returns 0 with *out set, or -1 when addr is outside the
 * mapping or no segment holds its offset.
 */
int		 sym_elf_addr(uint64_t addr, uint64_t start, uint64_t limit,
		    uint64_t offset, const struct sym_seg *, size_t nseg,
		    uint64_t *out);

/*
 * A C++ or Rust symbol demangled by libiberty (with its parameters),
 * malloc'd; or NULL when it is not a mangled name.
 */
char		*sym_demangle(const char *);

#endif

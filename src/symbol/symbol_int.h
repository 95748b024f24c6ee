/*
 * What symbol.c (the profile's side: mappings, candidates, functions)
 * asks of symbol_elf.c (the files' side: elfutils).  For this room only.
 */
#ifndef SYMBOL_INT_H
#define SYMBOL_INT_H

#include <elfutils/libdw.h>
#include <stddef.h>
#include <stdint.h>

#include "symbol/symbol.h"

/* One frame of an address, innermost first; strings malloc'd. */
struct sym_frame {
	char		*name;		/* demangled, or as the file has it */
	char		*system_name;	/* as the file has it */
	char		*file;		/* the function's source file, or "" */
	int64_t		 start_line;
	int64_t		 line;		/* 0 when unknown */
};

#define SYM_MAX_FRAMES	64	/* inlined frames kept per address */

/* An ELF file opened once: its elfutils session and what it says. */
struct sym_file;

/*
 * The file at path, opened the first time it is asked for (a regular
 * file only, never a FIFO or a device): NULL when it is not there or is
 * no ELF file elfutils reads.  The cache owns it.
 */
struct sym_file	*sym_file_get(struct sym_cache *, const char *path);
/* Its path as opened, and its build id in lower-case hex ("" if none). */
const char	*sym_file_path(const struct sym_file *);
const char	*sym_file_build_id(const struct sym_file *);
/* Whether it is loaded at its own addresses (ET_EXEC), not relocated. */
int		 sym_file_fixed(const struct sym_file *);
/*
 * The frames of runtime address addr of a mapping [start, limit) at
 * offset, into fr (at most SYM_MAX_FRAMES): their count, 0 when the file
 * has no name for it.  The caller frees them with sym_frames_free().
 */
size_t		 sym_file_frames(struct sym_file *, uint64_t addr,
		    uint64_t start, uint64_t limit, uint64_t offset,
		    struct sym_frame *fr);
void		 sym_frames_free(struct sym_frame *, size_t n);

const struct sym_opts *sym_cache_opts(const struct sym_cache *);

/*
 * Where a mapping's file was looked for (symbol.c, find_file()), kept in
 * the cache so that each file and build id is looked for once, however
 * many mappings and profiles name it: the file found (NULL: none), and
 * the first passed over for another build id (NULL: none).  The files
 * are the cache's.
 */
struct sym_found {
	struct sym_file	*file;
	struct sym_file	*other;
};
/* The answer kept for file and build id into *out: 1, or 0 if none. */
int		 sym_found_get(const struct sym_cache *, const char *file,
		    const char *build_id, struct sym_found *out);
void		 sym_found_put(struct sym_cache *, const char *file,
		    const char *build_id, const struct sym_found *);

/*
 * A module's DWARF indexed once (symbol_dwarf.c): its functions and
 * inlined instances by address.  sym_dwarf_chain() gives the frames
 * that hold address a (the file's DWARF address), innermost first, up
 * to the function: their count, at most max, 0 when none holds it.
 * The DIEs are the index's, valid while it and the Dwarf live.
 */
struct sym_dwarf;
struct sym_dwarf *sym_dwarf_new(Dwarf *);
void		 sym_dwarf_free(struct sym_dwarf *);
size_t		 sym_dwarf_chain(const struct sym_dwarf *, uint64_t a,
		    Dwarf_Die **chain, size_t max);

#endif

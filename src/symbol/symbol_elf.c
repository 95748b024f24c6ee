/*
 * The files' side of symbolization: each ELF file opened once with
 * elfutils (libdwfl, one offline session per file), its build id, its
 * loadable segments, and the frames of an address: from DWARF, the
 * function and the functions inlined into it at that address with
 * their lines, else the ELF symbol table's name (.symtab, or .dynsym).
 * Separate debug information is looked for under
 * /usr/lib/debug/.build-id by the file's build id, and nowhere else:
 * never through debuginfod, which would reach the network.  C++ and
 * Rust names are demangled by libiberty (symbol_demangle.c).  Reads
 * files, prints nothing.
 */
#include <sys/stat.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/symbol_int.h"
#include "support/xmalloc.h"

#define SYM_MAX_SEGS	64	/* PT_LOAD segments read per file */

struct sym_file {
	char		*path;
	int		 ok;		/* opened and an ELF file */
	Dwfl		*dwfl;
	Dwfl_Module	*mod;
	Dwarf_Addr	 bias;		/* session address - ELF address */
	struct sym_dwarf *dx;		/* its DWARF indexed, once asked */
	Dwarf_Addr	 dbias;		/* session address - DWARF's */
	int		 dx_made;
	int		 fixed;		/* ET_EXEC: loaded at its addresses */
	char		 build_id[2 * 64 + 1];
	struct sym_seg	 segs[SYM_MAX_SEGS];
	size_t		 nsegs;
};

/* find_file()'s answer for one file and build id (sym_found_get()). */
struct found {
	char		*file;
	char		*build_id;
	struct sym_found f;
};

struct sym_cache {
	struct sym_opts	 opts;
	struct sym_file	**files;
	size_t		 n;
	struct found	*found;
	size_t		 nfound;
};

const struct sym_opts *
sym_cache_opts(const struct sym_cache *c)
{
	return &c->opts;
}

struct sym_cache *
sym_cache_new(const struct sym_opts *o)
{
	struct sym_cache *c = xcalloc(1, sizeof(*c));

	if (o != NULL)
		c->opts = *o;
	return c;
}

static void
file_free(struct sym_file *f)
{
	sym_dwarf_free(f->dx);
	if (f->dwfl != NULL)
		dwfl_end(f->dwfl);
	free(f->path);
	free(f);
}

void
sym_cache_free(struct sym_cache *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++)
		file_free(c->files[i]);
	free(c->files);
	for (i = 0; i < c->nfound; i++) {
		free(c->found[i].file);
		free(c->found[i].build_id);
	}
	free(c->found);
	free(c);
}

int
sym_found_get(const struct sym_cache *c, const char *file,
    const char *build_id, struct sym_found *out)
{
	size_t i;

	for (i = 0; i < c->nfound; i++)
		if (strcmp(c->found[i].file, file) == 0 &&
		    strcmp(c->found[i].build_id, build_id) == 0) {
			*out = c->found[i].f;
			return 1;
		}
	return 0;
}

void
sym_found_put(struct sym_cache *c, const char *file, const char *build_id,
    const struct sym_found *f)
{
	struct found *x;

	c->found = xreallocarray(c->found, c->nfound + 1, sizeof(*c->found));
	x = &c->found[c->nfound++];
	x->file = xstrdup(file);
	x->build_id = xstrdup(build_id);
	x->f = *f;
}

/*
 * A regular file we may read, so that opening it cannot block; its size
 * into *size if not NULL.
 */
static int
regular(const char *path, uint64_t *size)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    access(path, R_OK) != 0)
		return 0;
	if (size != NULL)
		*size = (uint64_t)st.st_size;
	return 1;
}

/*
 * libdwfl's hook for a module's DWARF when the file itself has none:
 * /usr/lib/debug/.build-id/xx/rest.debug only.
 */
static int
find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
    Dwarf_Addr base, const char *file_name, const char *debuglink_file,
    GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const unsigned char *id;
	GElf_Addr	 vaddr;
	char		*path, *p;
	int		 n, i, fd;

	(void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc;
	if ((n = dwfl_module_build_id(mod, &id, &vaddr)) < 2)
		return -1;
	path = xmalloc(sizeof("/usr/lib/debug/.build-id//.debug") + 2 * n);
	p = path + sprintf(path, "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (i = 1; i < n; i++)
		p += sprintf(p, "%02x", id[i]);
	strcpy(p, ".debug");
	if (!regular(path, NULL) || (fd = open(path, O_RDONLY)) == -1) {
		free(path);
		return -1;
	}
	*debuginfo_file_name = path;
	return fd;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/*
 * Open f->path as a session of one offline module; 0 or -1.  A file cut
 * short (a loadable segment past its end) is refused: elfutils would
 * read what is there and name nothing.
 */
static int
file_open(struct sym_file *f)
{
	const unsigned char *id;
	GElf_Addr	 vaddr;
	GElf_Phdr	 ph;
	GElf_Ehdr	 eh;
	Elf		*elf;
	uint64_t	 size = 0;
	size_t		 i, nph;
	int		 n;

	if (!regular(f->path, &size) || (f->dwfl = dwfl_begin(&offline_callbacks))
	    == NULL)
		return -1;
	if ((f->mod = dwfl_report_offline(f->dwfl, f->path, f->path, -1)) ==
	    NULL || dwfl_report_end(f->dwfl, NULL, NULL) != 0)
		return -1;
	if ((elf = dwfl_module_getelf(f->mod, &f->bias)) == NULL ||
	    elf_getphdrnum(elf, &nph) != 0 || gelf_getehdr(elf, &eh) == NULL)
		return -1;
	f->fixed = eh.e_type == ET_EXEC;
	for (i = 0; i < nph && f->nsegs < SYM_MAX_SEGS; i++)
		if (gelf_getphdr(elf, (int)i, &ph) != NULL &&
		    ph.p_type == PT_LOAD) {
			if (ph.p_offset > size || ph.p_filesz > size -
			    ph.p_offset)
				return -1;
			f->segs[f->nsegs].off = ph.p_offset;
			f->segs[f->nsegs].filesz = ph.p_filesz;
			f->segs[f->nsegs].vaddr = ph.p_vaddr;
			f->nsegs++;
		}
	if ((n = dwfl_module_build_id(f->mod, &id, &vaddr)) > 0 && n <= 64)
		for (i = 0; i < (size_t)n; i++)
			snprintf(f->build_id + 2 * i, 3, "%02x", id[i]);
	return 0;
}

struct sym_file *
sym_file_get(struct sym_cache *c, const char *path)
{
	struct sym_file	*f;
	size_t		 i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->files[i]->path, path) == 0)
			return c->files[i]->ok ? c->files[i] : NULL;
	f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->ok = file_open(f) == 0;
	if (!f->ok && f->dwfl != NULL) {
		dwfl_end(f->dwfl);
		f->dwfl = NULL;
	}
	c->files = xreallocarray(c->files, c->n + 1, sizeof(*c->files));
	c->files[c->n++] = f;
	return f->ok ? f : NULL;
}

const char *
sym_file_path(const struct sym_file *f)
{
	return f->path;
}

int
sym_file_fixed(const struct sym_file *f)
{
	return f->fixed;
}

const char *
sym_file_build_id(const struct sym_file *f)
{
	return f->build_id;
}

int
sym_elf_addr(uint64_t addr, uint64_t start, uint64_t limit, uint64_t offset,
    const struct sym_seg *segs, size_t nseg, uint64_t *out)
{
	uint64_t	 fo;
	size_t		 i;

	if (start == 0 && offset == 0 && (limit == 0 || limit == UINT64_MAX)) {
		*out = addr;
		return 0;
	}
	if (addr < start || (limit > start && addr >= limit) ||
	    addr - start > UINT64_MAX - offset)
		return -1;
	fo = addr - start + offset;
	for (i = 0; i < nseg; i++)
		if (fo >= segs[i].off && fo - segs[i].off < segs[i].filesz) {
			*out = fo - segs[i].off + segs[i].vaddr;
			return 0;
		}
	return -1;
}

/* A DIE's name: its linkage name if it has one, else its name. */
static const char *
die_name(Dwarf_Die *d, int linkage)
{
	Dwarf_Attribute	 a;
	const char	*s = NULL;

	if (linkage && (dwarf_attr_integrate(d, DW_AT_linkage_name, &a) !=
	    NULL || dwarf_attr_integrate(d, DW_AT_MIPS_linkage_name, &a) !=
	    NULL))
		s = dwarf_formstring(&a);
	if (s == NULL && dwarf_attr_integrate(d, DW_AT_name, &a) != NULL)
		s = dwarf_formstring(&a);
	return s;
}

static void
frame_set(struct sym_frame *fr, const char *sys, const char *file,
    int64_t start_line, int64_t line)
{
	char *dm = sym_demangle(sys);

	fr->system_name = xstrdup(sys);
	fr->name = dm != NULL ? dm : xstrdup(sys);
	fr->file = xstrdup(file != NULL ? file : "");
	fr->start_line = start_line;
	fr->line = line;
}

/*
 * The frames DWARF gives, from the file's index (symbol_dwarf.c, made
 * the first time): the innermost function or inlined instance that
 * holds the address, then the frames that hold it, each inlined
 * subroutine and the function that ends them, innermost first.  Each
 * frame's line is where the frame inside it was called (its
 * DW_AT_call_line), the innermost's the line table's.
 */
static size_t
dwarf_frames(struct sym_file *f, Dwarf_Addr a, int64_t line0,
    const char *file0, struct sym_frame *fr)
{
	Dwarf_Die	*chain[SYM_MAX_FRAMES];
	Dwarf_Attribute	 at;
	Dwarf_Word	 w;
	const char	*name, *file;
	int64_t		 line = line0;
	size_t		 n = 0, nc, i;
	int		 dl;

	if (!f->dx_made) {
		f->dx_made = 1;
		f->dx = sym_dwarf_new(dwfl_module_getdwarf(f->mod, &f->dbias));
	}
	if (a < f->dbias || (nc = sym_dwarf_chain(f->dx, a - f->dbias, chain,
	    SYM_MAX_FRAMES)) == 0)
		return 0;
	for (i = 0; i < nc; i++) {
		if ((name = die_name(chain[i], 1)) == NULL)
			name = "";
		if ((file = dwarf_decl_file(chain[i])) == NULL)
			file = n == 0 && file0 != NULL ? file0 : "";
		if (dwarf_decl_line(chain[i], &dl) != 0)
			dl = 0;
		frame_set(&fr[n++], name, file, dl, line);
		line = dwarf_attr(chain[i], DW_AT_call_line, &at) != NULL &&
		    dwarf_formudata(&at, &w) == 0 && w <= INT64_MAX ?
		    (int64_t)w : 0;
	}
	return n;
}

size_t
sym_file_frames(struct sym_file *f, uint64_t addr, uint64_t start,
    uint64_t limit, uint64_t offset, struct sym_frame *fr)
{
	Dwfl_Line	*ln;
	GElf_Off	 off;
	GElf_Sym	 sym;
	uint64_t	 va;
	Dwarf_Addr	 a;
	const char	*name, *file0 = NULL;
	int		 line0 = 0;
	size_t		 n;

	if (sym_elf_addr(addr, start, limit, offset, f->segs, f->nsegs,
	    &va) == -1 || va > UINT64_MAX - f->bias)
		return 0;
	a = va + f->bias;
	if ((ln = dwfl_module_getsrc(f->mod, a)) != NULL)
		file0 = dwfl_lineinfo(ln, NULL, &line0, NULL, NULL, NULL);
	if ((n = dwarf_frames(f, a, line0, file0, fr)) > 0 &&
	    fr[0].name[0] != '\0')
		return n;
	sym_frames_free(fr, n);
	if ((name = dwfl_module_addrinfo(f->mod, a, &off, &sym, NULL, NULL,
	    NULL)) == NULL || name[0] == '\0')
		return 0;
	frame_set(&fr[0], name, file0, 0, line0);
	return 1;
}

void
sym_frames_free(struct sym_frame *fr, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(fr[i].name);
		free(fr[i].system_name);
		free(fr[i].file);
	}
}

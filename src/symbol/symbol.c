/*
 * The profile's side of symbolization: which mappings need names (those
 * with locations that have an address and no lines, unless the mapping
 * says it has functions, files or lines already, or pprof counts it
 * unsymbolizable: [vdso], [kernel.kallsyms], //anon ...), where each
 * one's binary is looked for, in pprof's order (internal/driver's
 * locateBinaries(), then the mapping's own path,
 * then /usr/lib/debug/.build-id), which file is refused for another
 * build id, and the model rewritten: a location's lines from its
 * frames, functions made once per (name, system name, file, start
 * line), appended to the profile's.  What became of each mapping goes
 * to the side's summary.  No I/O here but the files' (symbol_elf.c).
 */
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/profile.h"
#include "support/arena.h"
#include "support/hash.h"
#include "support/xmalloc.h"
#include "symbol/symbol_int.h"

/* pprof's Mapping.Unsymbolizable(): no file to read, in principle. */
static int
unsymbolizable(const char *file)
{
	const char *base = strrchr(file, '/');

	base = base != NULL ? base + 1 : file;
	return base[0] == '[' || strncmp(base, "linux-vdso", 10) == 0 ||
	    strncmp(file, "/dev/dri/", 9) == 0 || strcmp(file, "//anon") == 0 ||
	    strncmp(file, "/memfd:", 7) == 0;
}

/* A mapping whose build id, if it has one, the file's must be. */
static int
same_id(const char *want, const char *got)
{
	return want[0] == '\0' || got[0] == '\0' || strcasecmp(want, got) == 0;
}

struct cands {
	char	**v;
	size_t	 n;
};

static void
cand_add(struct cands *c, char *path)
{
	c->v = xreallocarray(c->v, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = path;
}

static void
cand_fmt(struct cands *c, const char *fmt, const char *a, const char *b,
    const char *d)
{
	char *s;

	xasprintf(&s, fmt, a, b, d);
	cand_add(c, s);
}

/*
 * The places pprof looks under one folder of its search path, in its
 * order: by build id (DIR/ID/BASE, every file in DIR/ID, DIR/FILE/ID, DIR/ID[:2]/
 * ID[2:].debug), then by name (DIR/BASE, DIR/FILE, DIR/FILE.debug,
 * DIR/DIRNAME/.debug/BASE.debug, DIR/usr/lib/debug/DIRNAME/BASE.debug).
 */
static void
cands_dir(struct cands *c, const char *dir, const char *file, const char *id)
{
	const char	*base = strrchr(file, '/');
	char		*dname, *pat;
	glob_t		 g;
	size_t		 i;

	base = base != NULL ? base + 1 : file;
	dname = xstrdup(file);
	if (strrchr(dname, '/') != NULL)
		*strrchr(dname, '/') = '\0';
	else
		dname[0] = '\0';
	if (id[0] != '\0') {
		cand_fmt(c, "%s/%s/%s", dir, id, base);
		xasprintf(&pat, "%s/%s/*", dir, id);
		if (glob(pat, 0, NULL, &g) == 0)
			for (i = 0; i < g.gl_pathc; i++)
				cand_add(c, xstrdup(g.gl_pathv[i]));
		globfree(&g);
		free(pat);
		cand_fmt(c, "%s/%s/%s", dir, file, id);
		if (strlen(id) >= 2) {
			char two[3] = { id[0], id[1], '\0' };

			cand_fmt(c, "%s/%s/%s.debug", dir, two, id + 2);
		}
	}
	if (file[0] != '\0') {
		cand_fmt(c, "%s/%s%s", dir, base, "");
		cand_fmt(c, "%s/%s%s", dir, file, "");
		cand_fmt(c, "%s/%s%s", dir, file, ".debug");
		cand_fmt(c, "%s/%s/.debug/%s.debug", dir, dname, base);
		cand_fmt(c, "%s/usr/lib/debug/%s/%s.debug", dir, dname, base);
	}
	free(dname);
}

static void
cands_of(struct cands *c, const struct sym_opts *o, const char *file,
    const char *id)
{
	size_t i;

	for (i = 0; i < o->ndirs; i++)
		if (o->dirs[i][0] != '\0')
			cands_dir(c, o->dirs[i], file, id);
	cand_add(c, xstrdup(file));
	if (strlen(id) >= 2) {
		char two[3] = { id[0], id[1], '\0' };

		cand_fmt(c, "/usr/lib/debug/.build-id/%s/%s.debug%s", two,
		    id + 2, "");
	}
}

static void
cands_free(struct cands *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
}

/* The summary's entry for mapping m, made if new. */
static struct sym_map *
summary_of(struct sym_summary *s, const struct pf_mapping *m)
{
	struct sym_map	*e;
	size_t		 i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i].mapping, m->filename) == 0 &&
		    strcmp(s->v[i].build_id, m->build_id) == 0)
			return &s->v[i];
	s->v = xreallocarray(s->v, s->n + 1, sizeof(*s->v));
	e = &s->v[s->n++];
	memset(e, 0, sizeof(*e));
	e->mapping = xstrdup(m->filename);
	e->build_id = xstrdup(m->build_id);
	e->state = SYM_MISSING;
	return e;
}

/*
 * The file for mapping m: the first place that holds an ELF file of
 * its build id; a file of another id is noted in e (the first) and
 * passed over, as pprof does.  The places are looked at once per file
 * and build id, and the answer kept in the cache for the next mapping
 * or profile that names them (a process maps a file several times).
 */
static struct sym_file *
find_file(struct sym_cache *cache, const struct pf_mapping *m,
    struct sym_map *e)
{
	struct sym_found k = { NULL, NULL };
	struct cands	 c = { NULL, 0 };
	struct sym_file	*f;
	size_t		 i;

	if (!sym_found_get(cache, m->filename, m->build_id, &k)) {
		cands_of(&c, sym_cache_opts(cache), m->filename, m->build_id);
		for (i = 0; i < c.n && k.file == NULL; i++) {
			if ((f = sym_file_get(cache, c.v[i])) == NULL)
				continue;
			if (same_id(m->build_id, sym_file_build_id(f)))
				k.file = f;
			else if (k.other == NULL)
				k.other = f;
		}
		cands_free(&c);
		sym_found_put(cache, m->filename, m->build_id, &k);
	}
	if (e->file == NULL && k.other != NULL) {
		e->file = xstrdup(sym_file_path(k.other));
		e->file_id = xstrdup(sym_file_build_id(k.other));
	}
	return k.file;
}

/* The functions made for a profile, found by their four fields. */
struct fntab {
	struct pf_function **slot;	/* open addressing, or NULL */
	size_t		 cap;
	struct pf_function **made;	/* in the order made */
	size_t		 n;
};

static uint64_t
fn_hash(const struct sym_frame *fr)
{
	uint64_t h = hash_bytes((const unsigned char *)fr->name,
	    strlen(fr->name));

	h ^= hash_bytes((const unsigned char *)fr->system_name,
	    strlen(fr->system_name)) * 31;
	h ^= hash_bytes((const unsigned char *)fr->file, strlen(fr->file)) *
	    131;
	return h ^ (uint64_t)fr->start_line * 0x9e3779b97f4a7c15ull;
}

static int
fn_same(const struct pf_function *f, const struct sym_frame *fr)
{
	return f->start_line == fr->start_line &&
	    strcmp(f->name, fr->name) == 0 &&
	    strcmp(f->system_name, fr->system_name) == 0 &&
	    strcmp(f->filename, fr->file) == 0;
}

static void
fntab_grow(struct fntab *t)
{
	struct pf_function **old = t->slot;
	size_t		 oc = t->cap, i, j;

	t->cap = oc ? 2 * oc : 256;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	for (i = 0; i < t->n; i++) {
		struct sym_frame k = {
			(char *)t->made[i]->name,
			(char *)t->made[i]->system_name,
			(char *)t->made[i]->filename,
			t->made[i]->start_line, 0
		};

		for (j = fn_hash(&k) & (t->cap - 1); t->slot[j] != NULL;
		    j = (j + 1) & (t->cap - 1))
			continue;
		t->slot[j] = t->made[i];
	}
	free(old);
}

static struct pf_function *
fntab_get(struct fntab *t, struct arena *a, const struct sym_frame *fr)
{
	struct pf_function *f;
	size_t		 j;

	if (2 * (t->n + 1) > t->cap)
		fntab_grow(t);
	for (j = fn_hash(fr) & (t->cap - 1); (f = t->slot[j]) != NULL;
	    j = (j + 1) & (t->cap - 1))
		if (fn_same(f, fr))
			return f;
	f = arena_calloc(a, 1, sizeof(*f));
	f->name = arena_strndup(a, fr->name, strlen(fr->name));
	f->system_name = arena_strndup(a, fr->system_name,
	    strlen(fr->system_name));
	f->filename = arena_strndup(a, fr->file, strlen(fr->file));
	f->start_line = fr->start_line;
	t->slot[j] = f;
	t->made = xreallocarray(t->made, t->n + 1, sizeof(*t->made));
	t->made[t->n++] = f;
	return f;
}

/* Name location l from f; 1 if it was named. */
static int
name_location(struct sym_file *f, struct profile *p, struct pf_location *l,
    struct fntab *t)
{
	const struct pf_mapping *m = l->mapping;
	struct sym_frame fr[SYM_MAX_FRAMES];
	struct pf_line	*ln;
	size_t		 n, i;

	if ((n = sym_file_frames(f, l->address, m->memory_start,
	    m->memory_limit, m->file_offset, fr)) == 0)
		return 0;
	ln = arena_calloc(p->arena, n, sizeof(*ln));
	for (i = 0; i < n; i++) {
		ln[i].function = fntab_get(t, p->arena, &fr[i]);
		ln[i].line = fr[i].line;
	}
	sym_frames_free(fr, n);
	l->lines = ln;
	l->nlines = n;
	l->is_folded = n > 1;
	return 1;
}

/*
 * The made functions appended to p->functions, with ids after its
 * largest, and every line moved to the new array.
 */
static void
append_functions(struct profile *p, struct fntab *t)
{
	struct pf_function *nf, *old = p->functions;
	uint64_t	 id = 0;
	size_t		 i, k, n = p->nfunctions;

	if (t->n == 0)
		return;
	nf = arena_calloc(p->arena, n + t->n, sizeof(*nf));
	for (i = 0; i < n; i++) {
		nf[i] = old[i];
		if (old[i].id > id)
			id = old[i].id;
	}
	for (i = 0; i < t->n; i++) {
		nf[n + i] = *t->made[i];
		nf[n + i].id = ++id;
		t->made[i]->id = n + i;		/* its index, for the move */
	}
	for (i = 0; i < p->nlocations; i++)
		for (k = 0; k < p->locations[i].nlines; k++) {
			const struct pf_function *f =
			    p->locations[i].lines[k].function;

			if (f == NULL)
				continue;
			if (n > 0 && f >= old && f < old + n)
				p->locations[i].lines[k].function =
				    &nf[f - old];
			else if (f->id >= n && f->id < n + t->n &&
			    t->made[f->id - n] == f)
				p->locations[i].lines[k].function =
				    &nf[f->id];
		}
	p->functions = nf;
	p->nfunctions = n + t->n;
}

/*
 * Whether m says where it was loaded: pprof takes a mapping of no range
 * (start and offset 0, limit 0 or all ones) for addresses that are the
 * file's own already, which is only so for a file loaded at its own
 * addresses (ET_EXEC); a shared object's or PIE's are not named then,
 * rather than named wrong.
 */
static int
ranged(const struct pf_mapping *m)
{
	return !(m->memory_start == 0 && m->file_offset == 0 &&
	    (m->memory_limit == 0 || m->memory_limit == UINT64_MAX));
}

/*
 * Whether location l is one to name: it has an address, no lines, and
 * a mapping of p that does not say it was symbolized already (pprof
 * leaves a mapping alone that has functions, file names or line
 * numbers, as a Go profile's own).
 */
static int
needs_name(const struct profile *p, const struct pf_location *l)
{
	const struct pf_mapping *m = l->mapping;

	return l->nlines == 0 && l->address != 0 && m != NULL &&
	    m >= p->mappings && m < p->mappings + p->nmappings &&
	    !m->has_functions && !m->has_filenames && !m->has_line_numbers;
}

/*
 * The locations that have an address and no lines, grouped by mapping:
 * mapping k's are order[at[k]] to order[at[k + 1] - 1].  Returns order
 * (NULL when there are none), at allocated with it; one pass over the
 * locations, so that a profile with nothing to name costs one.
 */
static size_t *
needy(const struct profile *p, size_t **atp)
{
	const struct pf_location *l;
	size_t		*at, *order, *fill, i, k, n = 0;

	at = xcalloc(p->nmappings + 2, sizeof(*at));
	for (i = 0; i < p->nlocations; i++) {
		l = &p->locations[i];
		if (!needs_name(p, l))
			continue;
		at[l->mapping - p->mappings + 1]++;
		n++;
	}
	if (n == 0) {
		free(at);
		return NULL;
	}
	for (k = 0; k < p->nmappings; k++)
		at[k + 1] += at[k];
	order = xreallocarray(NULL, n, sizeof(*order));
	fill = xreallocarray(NULL, p->nmappings + 1, sizeof(*fill));
	memcpy(fill, at, (p->nmappings + 1) * sizeof(*fill));
	for (i = 0; i < p->nlocations; i++) {
		l = &p->locations[i];
		if (!needs_name(p, l))
			continue;
		order[fill[l->mapping - p->mappings]++] = i;
	}
	free(fill);
	*atp = at;
	return order;
}

size_t
symbol_profile(struct sym_cache *cache, struct profile *p,
    struct sym_summary *sum)
{
	struct fntab	 t = { NULL, 0, NULL, 0 };
	struct sym_file	*f;
	struct sym_map	*e;
	size_t		*order, *at = NULL, mi, i, n, named = 0, done;

	if ((order = needy(p, &at)) == NULL)
		return 0;
	for (mi = 0; mi < p->nmappings; mi++) {
		const struct pf_mapping *m = &p->mappings[mi];

		if ((n = at[mi + 1] - at[mi]) == 0)
			continue;
		e = summary_of(sum, m);
		e->naddrs += n;
		if (m->filename[0] == '\0') {
			e->state = SYM_NOFILE;
			continue;
		}
		if (unsymbolizable(m->filename)) {
			e->state = SYM_SYSTEM;
			continue;
		}
		if ((f = find_file(cache, m, e)) == NULL) {
			if (e->state != SYM_NAMED)
				e->state = e->file != NULL ? SYM_MISMATCH :
				    SYM_MISSING;
			continue;
		}
		if (e->state != SYM_NAMED) {
			free(e->file);
			free(e->file_id);
			e->file_id = NULL;
			e->file = xstrdup(sym_file_path(f));
		}
		if (!ranged(m) && !sym_file_fixed(f)) {
			if (e->state != SYM_NAMED)
				e->state = SYM_NOBASE;
			continue;
		}
		e->state = SYM_NAMED;
		for (i = at[mi], done = 0; i < at[mi + 1]; i++)
			done += name_location(f, p, &p->locations[order[i]],
			    &t);
		e->nnamed += done;
		named += done;
	}
	append_functions(p, &t);
	free(t.slot);
	free(t.made);
	free(order);
	free(at);
	return named;
}

void
sym_summary_release(struct sym_summary *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].mapping);
		free(s->v[i].build_id);
		free(s->v[i].file);
		free(s->v[i].file_id);
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

void
sym_summary_merge(struct sym_summary *into, const struct sym_summary *from)
{
	const struct sym_map	*f;
	struct sym_map		*e;
	struct pf_mapping	 m;
	size_t			 i;

	for (i = 0; i < from->n; i++) {
		f = &from->v[i];
		m.filename = f->mapping;
		m.build_id = f->build_id;
		e = summary_of(into, &m);
		e->naddrs += f->naddrs;
		e->nnamed += f->nnamed;
		if (e->state == SYM_NAMED && f->state != SYM_NAMED)
			continue;
		if (e->state != f->state || e->file == NULL) {
			free(e->file);
			free(e->file_id);
			e->file = f->file != NULL ? xstrdup(f->file) : NULL;
			e->file_id = f->file_id != NULL ? xstrdup(f->file_id) :
			    NULL;
		}
		e->state = f->state;
	}
}

int
sym_summary_any(const struct sym_summary *s)
{
	return s != NULL && s->n > 0;
}

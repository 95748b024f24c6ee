/*
 * pprof's view of a profile before it builds a graph (pview.h): the
 * names frames print as, drop_frames pruning, and the mapping keys of
 * profile.Merge, each as go tool pprof's driver has it.  agg.c calls
 * these once per location, profile or mapping, never per sample.  No
 * I/O here, and nothing about folding, statistics or output.
 */
#include <inttypes.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "support/arena.h"
#include "core/itab.h"
#include "model/profile.h"
#include "core/pview.h"
#include "support/xmalloc.h"

/* Hand-built profiles may leave strings NULL; pprof's are never. */
static const char *
str(const char *s)
{
	return s != NULL ? s : "";
}

static void
buf_reserve(struct pview_buf *b, size_t more)
{
	size_t cap;

	if (more <= b->cap - b->len)
		return;
	cap = b->cap ? b->cap : 256;
	while (more > cap - b->len)
		cap *= 2;
	b->s = xreallocarray(b->s, cap, 1);
	b->cap = cap;
}

void
pview_buf_add(struct pview_buf *b, const char *s, size_t n)
{
	buf_reserve(b, n + 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
pview_buf_release(struct pview_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

static void
buf_sep(struct pview_buf *b)
{
	if (b->len > 0)
		pview_buf_add(b, " ", 1);
}

/*
 * Append Go's filepath.Clean(path) (the Unix rules: collapse slashes,
 * drop "." elements, fold ".." into its parent) to the buffer.  The
 * result is never longer than path, except that "" becomes ".".
 */
static void
buf_add_clean(struct pview_buf *b, const char *path, size_t n)
{
	char	*out;
	size_t	 r = 0, w = 0, dotdot = 0;
	int	 rooted = n > 0 && path[0] == '/';

	buf_reserve(b, n + 2);
	out = b->s + b->len;
	if (rooted) {
		out[w++] = '/';
		r = dotdot = 1;
	}
	while (r < n) {
		if (path[r] == '/')
			r++;
		else if (path[r] == '.' && (r + 1 == n || path[r + 1] == '/'))
			r++;
		else if (path[r] == '.' && r + 1 < n && path[r + 1] == '.' &&
		    (r + 2 == n || path[r + 2] == '/')) {
			r += 2;
			if (w > dotdot) {
				w--;
				while (w > dotdot && out[w] != '/')
					w--;
			} else if (!rooted) {
				if (w > 0)
					out[w++] = '/';
				out[w++] = '.';
				out[w++] = '.';
				dotdot = w;
			}
		} else {
			if ((rooted && w != 1) || (!rooted && w != 0))
				out[w++] = '/';
			for (; r < n && path[r] != '/'; r++)
				out[w++] = path[r];
		}
	}
	if (w == 0)
		out[w++] = '.';
	b->len += w;
	b->s[b->len] = '\0';
}

/* Append "[" + Go's filepath.Base(path) + "]"; path is not empty. */
static void
buf_add_objfile(struct pview_buf *b, const char *path)
{
	size_t	 n, i;

	n = strlen(path);
	while (n > 0 && path[n - 1] == '/')
		n--;
	for (i = n; i > 0 && path[i - 1] != '/'; i--)
		continue;
	pview_buf_add(b, "[", 1);
	if (n == 0)
		pview_buf_add(b, "/", 1);
	else
		pview_buf_add(b, path + i, n - i);
	pview_buf_add(b, "]", 1);
}

/*
 * The file name pprof's text report starts from: internal/report's
 * trimPath removes a leading "/proc/self/cwd/./" or "/proc/self/cwd/"
 * (with no -trim_path and no -source_path given).  graph.nodeInfo then
 * cleans what is left, unless nothing is.
 */
static const char *
trim_file(const char *file)
{
	static const char *const prefixes[] = {
		"/proc/self/cwd/./", "/proc/self/cwd/",
	};
	size_t i, n;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		n = strlen(prefixes[i]);
		if (strncmp(file, prefixes[i], n) == 0)
			return file + n;
	}
	return file;
}

/*
 * What the granularity clears is cleared first (profile.Aggregate),
 * then the parts are joined as graph.NodeInfo.PrintableName joins them.
 */
void
pview_name(struct pview_buf *b, enum agg_gran g, const struct pf_location *loc,
    const struct pf_line *ln, const char *objfile, uint64_t reloc)
{
	const char	*name = "", *file = "";
	int64_t		 line = 0;
	uint64_t	 addr = 0;
	char		 tmp[32];

	if (g == AGG_ADDRESSES)
		addr = loc->address + reloc;
	if (ln != NULL && ln->function != NULL) {
		if (g != AGG_FILES)
			name = str(ln->function->name);
		if (g != AGG_FUNCTIONS)
			file = trim_file(str(ln->function->filename));
		if (g == AGG_LINES || g == AGG_ADDRESSES)
			line = ln->line;
		/* nodeInfo keeps the object file only for nameless functions. */
		if (name[0] != '\0')
			objfile = "";
	}

	b->len = 0;
	buf_reserve(b, 1);
	b->s[0] = '\0';
	if (addr != 0) {
		snprintf(tmp, sizeof(tmp), "%016" PRIx64, addr);
		pview_buf_add(b, tmp, strlen(tmp));
	}
	if (name[0] != '\0') {
		buf_sep(b);
		pview_buf_add(b, name, strlen(name));
	}
	if (line != 0) {
		buf_sep(b);
		if (file[0] != '\0')
			buf_add_clean(b, file, strlen(file));
		snprintf(tmp, sizeof(tmp), ":%" PRId64, line);
		pview_buf_add(b, tmp, strlen(tmp));
	} else if (file[0] != '\0') {
		buf_sep(b);
		buf_add_clean(b, file, strlen(file));
	} else if (name[0] != '\0') {
		/* The function name says it all. */
	} else if (objfile[0] != '\0') {
		buf_sep(b);
		buf_add_objfile(b, objfile);
	} else {
		buf_sep(b);
		pview_buf_add(b, "<unknown>", 9);
	}
}

/*
 * pprof's simplifyFunc: drop a leading "." (PPC ELF v1), then cut the
 * name at the first "(" that does not belong to "(anonymous namespace)"
 * or "operator()".  Returns the length of the part of s to match.
 */
static size_t
simplify_func(const char **sp)
{
	static const char anon[] = "(anonymous namespace)";
	static const char oper[] = "operator()";
	const char	*s = *sp;
	size_t		 i;

	if (s[0] == '.')
		s++;
	*sp = s;
	for (i = 0; s[i] != '\0'; ) {
		if (strncmp(s + i, anon, sizeof(anon) - 1) == 0)
			i += sizeof(anon) - 1;
		else if (strncmp(s + i, oper, sizeof(oper) - 1) == 0)
			i += sizeof(oper) - 1;
		else if (s[i] == '(')
			return i;
		else
			i++;
	}
	return i;
}

static int
rx_full_match(struct pview_buf *b, const regex_t *rx, const char *name)
{
	size_t n;

	n = simplify_func(&name);
	b->len = 0;
	pview_buf_add(b, name, n);
	return regexec(rx, b->s, 0, NULL, 0) == 0;
}

static int
rx_compile(regex_t *rx, const char *pat)
{
	char	*full;
	int	 rc;

	xasprintf(&full, "^(%s)$", pat);
	rc = regcomp(rx, full, REG_EXTENDED | REG_NOSUB);
	free(full);
	return rc;
}

/*
 * A location whose line (scanning from the outermost) names a function
 * matching drop_frames and not keep_frames loses that line and
 * everything inlined into it; if that was its outermost line, the
 * whole location goes.  The patterns are compiled as POSIX extended
 * expressions, which agree with Go's RE2 syntax on everything but
 * Perl-style extensions.
 */
void
pview_prune(const struct profile *p, struct pview_buf *b,
    unsigned char **flags, size_t **lineoff)
{
	const struct pf_function *f;
	regex_t			 drop, keep;
	int			 havekeep = 0;
	size_t			 li, k;

	*flags = NULL;
	*lineoff = NULL;
	if (p->drop_frames == NULL || p->drop_frames[0] == '\0')
		return;
	if (rx_compile(&drop, p->drop_frames) != 0)
		return;
	if (p->keep_frames != NULL && p->keep_frames[0] != '\0') {
		if (rx_compile(&keep, p->keep_frames) != 0) {
			regfree(&drop);
			return;
		}
		havekeep = 1;
	}
	*flags = xcalloc(p->nlocations, sizeof(**flags));
	*lineoff = xcalloc(p->nlocations, sizeof(**lineoff));
	for (li = 0; li < p->nlocations; li++) {
		const struct pf_location *loc = &p->locations[li];

		for (k = loc->nlines; k > 0; k--) {
			f = loc->lines[k - 1].function;
			if (f == NULL || str(f->name)[0] == '\0')
				continue;
			if (rx_full_match(b, &drop, f->name) &&
			    (!havekeep || !rx_full_match(b, &keep, f->name)))
				break;
		}
		if (k == 0)
			continue;
		(*flags)[li] = PVIEW_PRUNE_BENEATH;
		if (k == loc->nlines)
			(*flags)[li] |= PVIEW_PRUNE_ALL;
		else
			(*lineoff)[li] = k;
	}
	regfree(&drop);
	if (havekeep)
		regfree(&keep);
}

/* What mkey_eq() looks for: the keys, and a key with its hash. */
struct mlook {
	const struct pview_maps *m;
	struct pview_mkey key;
};

static int
mkey_eq(const void *ctx, size_t i)
{
	const struct mlook	*l = ctx;
	const struct pview_mkey	*k = &l->m->keys[i];

	return k->hash == l->key.hash && k->size == l->key.size &&
	    k->offset == l->key.offset && strcmp(k->id, l->key.id) == 0;
}

static uint64_t
mkey_hash(const void *ctx, size_t i)
{
	return ((const struct pview_maps *)ctx)->keys[i].hash;
}

const struct pview_mkey *
pview_maps_get(struct pview_maps *mk, struct arena *names,
    const struct pf_mapping *m)
{
	struct pview_mkey	*k;
	struct mlook		 l;
	const char		*id;
	uint64_t		 size, h;
	size_t			 i;

	size = m->memory_limit - m->memory_start;
	size = size + 0xfff;
	size -= size % 0x1000;
	id = str(m->build_id)[0] != '\0' ? m->build_id : str(m->filename);
	h = itab_hash_bytes(id, strlen(id)) ^
	    itab_hash_pair(size, m->file_offset);
	l.m = mk;
	l.key.size = size;
	l.key.offset = m->file_offset;
	l.key.id = id;
	l.key.hash = h;
	if ((i = itab_find(&mk->tab, h, mkey_eq, &l)) != ITAB_NONE)
		return &mk->keys[i];
	if (mk->n == mk->cap) {
		mk->cap = mk->cap ? mk->cap * 2 : 16;
		mk->keys = xreallocarray(mk->keys, mk->cap, sizeof(*mk->keys));
	}
	k = &mk->keys[mk->n++];
	k->size = size;
	k->offset = m->file_offset;
	k->id = arena_strndup(names, id, strlen(id));
	k->start = m->memory_start;
	k->file = arena_strndup(names, str(m->filename),
	    strlen(str(m->filename)));
	k->hash = h;
	itab_add(&mk->tab, h, mk->n, 64, mkey_hash, mk);
	return k;
}

void
pview_maps_copy(struct pview_maps *dst, const struct pview_maps *src,
    struct arena *names)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	if (src->cap > 0) {
		dst->keys = xreallocarray(NULL, src->cap, sizeof(*dst->keys));
		memcpy(dst->keys, src->keys, src->n * sizeof(*dst->keys));
	}
	dst->n = src->n;
	dst->cap = src->cap;
	for (i = 0; i < dst->n; i++) {
		dst->keys[i].id = arena_strndup(names, src->keys[i].id,
		    strlen(src->keys[i].id));
		dst->keys[i].file = arena_strndup(names, src->keys[i].file,
		    strlen(src->keys[i].file));
	}
	itab_copy(&dst->tab, &src->tab);
}

void
pview_maps_release(struct pview_maps *mk)
{
	free(mk->keys);
	itab_release(&mk->tab);
	memset(mk, 0, sizeof(*mk));
}

/*
 * The memory map of a legacy profile -> its mappings, as pprof's
 * ParseMemoryMapFromScanner, massageMappings and remapMappingIDs make
 * them (profile/legacy_profile.go and profile.go in google/pprof): each
 * line loses a glog prefix, has the "$name" of earlier "name=value"
 * lines replaced, and is read as a /proc/self/maps line or the brief
 * form "start-end file (@offset) buildid"; mappings that are not
 * executable are left out, adjacent ones of one file are merged, the
 * main binary moves to the front, and each location gets the first
 * mapping that holds its address.  No I/O here.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "input/legacy.h"
#include "input/legacy_int.h"
#include "profdiff.h"
#include "model/profile.h"
#include "support/xmalloc.h"

/*
 * The memory map: pprof's ParseMemoryMapFromScanner.  Each line loses
 * a glog prefix, has the "$name" of earlier "name=value" lines replaced,
 * and is read as a /proc/self/maps line (procMapsRE) or the brief form
 * "start-end file (@offset) buildid" (briefMapsRE); a mapping that is not
 * executable is left out, and any other line is skipped.
 */


/* glog's "file:line] " prefix (logInfoRE), or 0. */
static size_t
log_prefix(const char *s, size_t n)
{
	size_t i, k, j;

	for (k = 0; k < n && s[k] != '[' && s[k] != ']'; k++)
		continue;
	if (k == n || s[k] != ']' || k + 1 >= n || !is_rspace(s[k + 1]))
		return 0;
	for (j = k; j > 0 && is_digit(s[j - 1]); j--)
		continue;
	if (j == k || j < 2 || s[j - 1] != ':')
		return 0;
	i = k + 2;
	return i;
}



static int
is_perm(int c)
{
	return c == '-' || c == 'r' || c == 'w' || c == 'x' || c == 'p';
}

/* \s+ then a run of class chars, from *i: 1 with the run, or 0. */
static int
spaced_run(const char *s, size_t n, size_t *i, int (*cls)(int),
    struct span *out)
{
	size_t a = skip_rspace(s, n, *i), b;

	if (a == *i)
		return 0;
	for (b = a; b < n && cls((unsigned char)s[b]); b++)
		continue;
	if (b == a)
		return 0;
	out->s = s + a;
	out->n = b - a;
	*i = b;
	return 1;
}

static int
cls_xdigit(int c)
{
	return is_xdigit(c);
}

static int
cls_digit(int c)
{
	return is_digit(c);
}

static int
cls_nonspace(int c)
{
	return !is_rspace(c);
}

/*
 * The hex range both expressions start with (cHexRange): up to three
 * ways to split it, in the order the expression tries them.  Each is
 * the start, the end and where the rest begins, past an optional ':'.
 */
struct hexrange {
	struct span	 start, end;
	size_t		 pos;
};

static size_t
hex_ranges(const char *s, size_t n, struct hexrange *r)
{
	size_t	 p, q, e, L, k = 0;

	p = skip_rspace(s, n, 0);
	if (p + 2 < n && s[p] == '0' && s[p + 1] == 'x' && is_xdigit(s[p + 2]))
		p += 2;
	if ((L = skip_xdigit(s, n, p) - p) == 0)
		return 0;
	q = p + L;
	if (q < n && (is_rspace(s[q]) || s[q] == '-'))
		q++;
	q = skip_rspace(s, n, q);
	if (q + 2 < n && s[q] == '0' && s[q + 1] == 'x' && is_xdigit(s[q + 2]))
		q += 2;
	if ((e = skip_xdigit(s, n, q)) > q) {
		r[k].start = (struct span){ s + p, L };
		r[k].end = (struct span){ s + q, e - q };
		r[k++].pos = e;
	}
	if (L >= 2 && s[p + L - 1] == '0' && p + L + 1 < n &&
	    s[p + L] == 'x' && is_xdigit(s[p + L + 1])) {
		e = skip_xdigit(s, n, p + L + 1);
		r[k].start = (struct span){ s + p, L - 1 };
		r[k].end = (struct span){ s + p + L + 1, e - p - L - 1 };
		r[k++].pos = e;
	}
	if (L >= 2) {
		r[k].start = (struct span){ s + p, L - 1 };
		r[k].end = (struct span){ s + p + L - 1, 1 };
		r[k++].pos = p + L;
	}
	for (q = 0; q < k; q++)
		if (r[q].pos < n && s[r[q].pos] == ':')
			r[q].pos++;
	return k;
}

struct mentry {
	struct span	 start, end, perm, offset, file, build_id;
};

/* The rest of procMapsRE from i: perm, offset, "dev inode", file. */
static int
proc_tail(const char *s, size_t n, size_t i, struct mentry *m)
{
	struct span	 perm, off, x;
	size_t		 q, q2;
	int		 tp, to;

	for (tp = 1; tp >= 0; tp--) {
		q = i;
		memset(&perm, 0, sizeof(perm));
		if (tp && !spaced_run(s, n, &q, is_perm, &perm))
			continue;
		for (to = 1; to >= 0; to--) {
			q2 = q;
			memset(&off, 0, sizeof(off));
			if (to && !spaced_run(s, n, &q2, cls_xdigit, &off))
				continue;
			if (!spaced_run(s, n, &q2, cls_xdigit, &x) ||
			    q2 >= n || s[q2] != ':')
				continue;
			q2++;
			if (q2 >= n || !is_xdigit(s[q2]))
				continue;
			q2 = skip_xdigit(s, n, q2);
			if (!spaced_run(s, n, &q2, cls_digit, &x))
				continue;
			m->perm = perm;
			m->offset = off;
			memset(&m->file, 0, sizeof(m->file));
			spaced_run(s, n, &q2, cls_nonspace, &m->file);
			return 1;
		}
	}
	return 0;
}

/* The rest of briefMapsRE from i, all of it optional. */
static void
brief_tail(const char *s, size_t n, size_t i, struct mentry *m)
{
	size_t q;

	spaced_run(s, n, &i, is_perm, &m->perm);
	spaced_run(s, n, &i, cls_nonspace, &m->file);
	q = skip_rspace(s, n, i);
	if (q > i && q + 2 < n && s[q] == '(' && s[q + 1] == '@' &&
	    is_xdigit(s[q + 2])) {
		size_t e = skip_xdigit(s, n, q + 2);

		if (e < n && s[e] == ')') {
			m->offset = (struct span){ s + q + 2, e - q - 2 };
			i = e + 1;
		}
	}
	spaced_run(s, n, &i, cls_xdigit, &m->build_id);
}

/* pprof's parseMappingEntry: 1 with *m, 0 to skip, -1 unrecognized. */
static int
map_entry(const char *s, size_t n, struct lmap *out, struct legacy *L)
{
	struct hexrange	 r[3];
	struct mentry	 m;
	size_t		 k, i;
	int		 ok = 0;

	memset(&m, 0, sizeof(m));
	k = hex_ranges(s, n, r);
	for (i = 0; i < k && !ok; i++)
		if (proc_tail(s, n, r[i].pos, &m)) {
			m.start = r[i].start;
			m.end = r[i].end;
			ok = 1;
		}
	if (!ok && k > 0) {
		memset(&m, 0, sizeof(m));
		m.start = r[0].start;
		m.end = r[0].end;
		brief_tail(s, n, r[0].pos, &m);
		ok = 1;
	}
	if (!ok)
		return -1;
	if (m.perm.n > 0 && memchr(m.perm.s, 'x', m.perm.n) == NULL)
		return 0;
	memset(out, 0, sizeof(*out));
	if (lg_parse_uint(m.start.s, m.start.n, 16, &out->start) == -1 ||
	    lg_parse_uint(m.end.s, m.end.n, 16, &out->limit) == -1 ||
	    (m.offset.n > 0 && lg_parse_uint(m.offset.s, m.offset.n, 16,
	    &out->offset) == -1))
		return -1;
	out->file = lg_str(L, m.file.s != NULL ? m.file.s : "", m.file.n);
	out->build_id = lg_str(L, m.build_id.s != NULL ? m.build_id.s : "",
	    m.build_id.n);
	return 1;
}

/* The "$name" -> value pairs of a memory map, first one first. */
struct attrs {
	struct span	 old[MAX_ATTRS], val[MAX_ATTRS];
	char		*own[MAX_ATTRS];
	size_t		 n;
	char		*buf;
	size_t		 cap;
};

/* strings.Replacer's Replace, into a->buf; the line if there is none. */
static struct span
attrs_replace(struct attrs *a, const char *s, size_t n)
{
	size_t	 i, j, len = 0, need;

	if (a->n == 0 || memchr(s, '$', n) == NULL)
		return (struct span){ s, n };
	for (i = 0; i < n; ) {
		for (j = 0; s[i] == '$' && j < a->n; j++)
			if (a->old[j].n <= n - i &&
			    memcmp(s + i, a->old[j].s, a->old[j].n) == 0)
				break;
		need = s[i] == '$' && j < a->n ? a->val[j].n : 1;
		while (a->cap - len < need + 1) {
			a->cap = a->cap ? a->cap * 2 : 4096;
			a->buf = xreallocarray(a->buf, a->cap, 1);
		}
		if (s[i] == '$' && j < a->n) {
			memcpy(a->buf + len, a->val[j].s, need);
			i += a->old[j].n;
		} else
			a->buf[len] = s[i++];
		len += need;
	}
	return (struct span){ a->buf, len };
}

static int
attrs_add(struct legacy *L, struct attrs *a, const char *s, size_t n)
{
	const char	*eq = memchr(s, '=', n), *k = s, *v;
	size_t		 kn, vn;
	char		*o;

	if (eq == NULL)
		return 0;
	if (a->n == MAX_ATTRS)
		return lg_fail(L, DIAG_LIMIT, "more than %d name=value lines in "
		    "the memory map", MAX_ATTRS);
	kn = (size_t)(eq - s);
	v = eq + 1;
	vn = n - kn - 1;
	lg_trim(&k, &kn);
	lg_trim(&v, &vn);
	o = xmalloc(kn + vn + 2);
	o[0] = '$';
	memcpy(o + 1, k, kn);
	memcpy(o + 1 + kn, v, vn);
	a->own[a->n] = o;
	a->old[a->n] = (struct span){ o, kn + 1 };
	a->val[a->n] = (struct span){ o + 1 + kn, vn };
	a->n++;
	return 0;
}

static void
add_map(struct legacy *L, const struct lmap *m)
{
	if (L->nmaps == L->capmaps) {
		L->capmaps = L->capmaps ? L->capmaps * 2 : 64;
		L->maps = xreallocarray(L->maps, L->capmaps, sizeof(*L->maps));
	}
	L->maps[L->nmaps++] = *m;
}

/* The mappings of the rest of sc's lines. */
int
lg_parse_maps(struct legacy *L, struct lscan *sc)
{
	struct attrs	*a;
	struct span	 ln;
	struct lmap	 m;
	size_t		 k, i;
	int		 rc = 0;

	a = xcalloc(1, sizeof(*a));
	while (rc == 0 && lg_scan(sc)) {
		k = log_prefix(sc->s, sc->n);
		ln = attrs_replace(a, sc->s + k, sc->n - k);
		switch (map_entry(ln.s, ln.n, &m, L)) {
		case 1:
			if (L->nmaps >= L->lim->max_locations) {
				L->lineno = sc->lineno;
				rc = lg_fail(L, DIAG_LIMIT, "more than %zu "
				    "mappings", L->lim->max_locations);
			} else
				add_map(L, &m);
			break;
		case -1:
			L->lineno = sc->lineno;
			rc = attrs_add(L, a, ln.s, ln.n);
			L->lineno = 0;
			break;
		}
	}
	for (i = 0; i < a->n; i++)
		free(a->own[i]);
	free(a->buf);
	free(a);
	return rc;
}

/* pprof's parseAdditionalSections: to the memory map, then read it. */
int
lg_more_sections(struct legacy *L, struct lscan *sc)
{
	while (!lg_map_sentinel(sc->s, sc->n) && lg_scan(sc))
		continue;
	return lg_parse_maps(L, sc);
}

/* Go's filepath.Base, as a span of s. */
struct span
lg_base_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return (struct span){ ".", 1 };
	while (n > 0 && s[n - 1] == '/')
		n--;
	if (n == 0)
		return (struct span){ "/", 1 };
	for (i = n; i > 0 && s[i - 1] != '/'; i--)
		continue;
	return (struct span){ s + i, n - i };
}

/* Does the name look like a shared library (pprof's libRx)? */
static int
is_lib(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 3 <= n; i++) {
		if (memcmp(s + i, ".so", 3) != 0)
			continue;
		if (i + 3 == n)
			return 1;
		if (i + 4 < n && (s[i + 3] == '.' || s[i + 3] == '_') &&
		    is_digit(s[i + 4]))
			return 1;
	}
	return 0;
}

/* Is m, with "(deleted)" taken out and trimmed, a main binary's name? */
static int
is_main(const struct lmap *m)
{
	char		 buf[4096];
	const char	*s = m->file, *d;
	size_t		 n = 0, len = strlen(s);

	/* A longer name is no library name pprof would know either. */
	while (len > 0 && n < sizeof(buf)) {
		if ((d = lg_find(s, len, "(deleted)")) == s) {
			s += 9;
			len -= 9;
			continue;
		}
		buf[n++] = *s++;
		len--;
	}
	s = buf;
	lg_trim(&s, &n);
	return n > 0 && !is_lib(s, n) && s[0] != '[';
}

/* pprof's adjacent(): can m2 be merged into m1? */
static int
adjacent(const struct lmap *m1, const struct lmap *m2)
{
	if (m1->file[0] != '\0' && m2->file[0] != '\0' &&
	    strcmp(m1->file, m2->file) != 0)
		return 0;
	if (m1->build_id[0] != '\0' && m2->build_id[0] != '\0' &&
	    strcmp(m1->build_id, m2->build_id) != 0)
		return 0;
	if (m1->limit != m2->start)
		return 0;
	if (m1->offset != 0 && m2->offset != 0 &&
	    m1->offset + (m1->limit - m1->start) != m2->offset)
		return 0;
	return 1;
}

/*
 * pprof's massageMappings: adjacent mappings of one file are merged, and
 * the first that looks like the main binary moves to the front.
 */
static void
massage_maps(struct legacy *L)
{
	struct lmap	 t, *lm;
	size_t		 i, k = 1;

	for (i = 1; i < L->nmaps; i++) {
		lm = &L->maps[k - 1];
		if (adjacent(lm, &L->maps[i])) {
			lm->limit = L->maps[i].limit;
			if (L->maps[i].file[0] != '\0')
				lm->file = L->maps[i].file;
			if (L->maps[i].build_id[0] != '\0')
				lm->build_id = L->maps[i].build_id;
			continue;
		}
		L->maps[k++] = L->maps[i];
	}
	if (L->nmaps > 0)
		L->nmaps = k;
	for (i = 0; i < L->nmaps; i++)
		if (is_main(&L->maps[i])) {
			t = L->maps[0];
			L->maps[0] = L->maps[i];
			L->maps[i] = t;
			break;
		}
}

/*
 * The mappings by start, when no two overlap: the one that holds an
 * address is then found by bisection, and it is the first in the list
 * that holds it, as pprof's walk of the list finds it.  With overlaps
 * (or once a mapping's start has moved) each look-up walks the list.
 */
struct mslot {
	uint64_t	 start, limit;
	size_t		 idx;
};

static int
slot_cmp(const void *x, const void *y)
{
	const struct mslot *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static struct mslot *
slots_new(const struct legacy *L, size_t *n)
{
	struct mslot	*ix;
	size_t		 i, k = 0;

	ix = xcalloc(L->nmaps > 0 ? L->nmaps : 1, sizeof(*ix));
	for (i = 0; i < L->nmaps; i++)
		if (L->maps[i].start < L->maps[i].limit) {
			ix[k].start = L->maps[i].start;
			ix[k].limit = L->maps[i].limit;
			ix[k++].idx = i;
		}
	qsort(ix, k, sizeof(*ix), slot_cmp);
	for (i = 1; i < k; i++)
		if (ix[i].start < ix[i - 1].limit) {
			free(ix);
			return NULL;
		}
	*n = k;
	return ix;
}

/* The index + 1 of the first mapping that holds a, or 0. */
static size_t
holder(const struct legacy *L, const struct mslot *ix, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n, mid, i;

	if (ix == NULL) {
		for (i = 0; i < L->nmaps; i++)
			if (L->maps[i].start <= a && a < L->maps[i].limit)
				return i + 1;
		return 0;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ix[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && a < ix[lo - 1].limit ? ix[lo - 1].idx + 1 : 0;
}

/*
 * The mapping of address a, made fake (all of memory) when none has
 * it.  Once the fake one is made it holds every address but the last,
 * as it does in pprof's list.  *ix goes when a mapping's start moves.
 */
static size_t
map_of(struct legacy *L, uint64_t a, size_t *fake, struct mslot **ix,
    size_t nix)
{
	struct lmap	*m, f;
	size_t		 i;

	if ((i = holder(L, *ix, nix, a)) != 0)
		return i;
	if (*fake != 0 && a != UINT64_MAX)
		return *fake;
	/* Legacy handlers failing to encode a mapping's first part. */
	for (i = 0; i < L->nmaps; i++) {
		m = &L->maps[i];
		if (m->offset != 0 && m->start - m->offset <= a &&
		    a < m->start) {
			m->start -= m->offset;
			m->offset = 0;
			free(*ix);
			*ix = NULL;
			return i + 1;
		}
	}
	if (*fake == 0) {
		memset(&f, 0, sizeof(f));
		f.limit = UINT64_MAX;
		f.file = "";
		f.build_id = "";
		add_map(L, &f);
		*fake = L->nmaps;
		/* It overlaps everything: holder() must not bisect. */
		free(*ix);
		*ix = NULL;
	}
	return *fake;
}

/*
 * pprof's massageMappings and remapMappingIDs, after the memory map is
 * read: each location the samples name, in their order, gets the first
 * mapping that holds its address.
 */
void
lg_finish_maps(struct legacy *L, int massage)
{
	struct lloc	*l;
	struct mslot	*ix;
	size_t		 i, j, fake = 0, nix = 0;

	if (massage)
		massage_maps(L);
	if (L->nmaps > 1 && lg_has_prefix(L->maps[0].file,
	    strlen(L->maps[0].file), "/anon_hugepage") &&
	    L->maps[0].limit == L->maps[1].start) {
		memmove(L->maps, L->maps + 1, (L->nmaps - 1) *
		    sizeof(*L->maps));
		L->nmaps--;
	}
	if (L->nmaps > 0 && L->maps[0].start - L->maps[0].offset == 0x400000) {
		L->maps[0].start = 0x400000;
		L->maps[0].offset = 0;
	}
	ix = slots_new(L, &nix);
	/* Java's named frames have lost their addresses by now. */
	for (i = 0; i < L->nsamples; i++)
		for (j = 0; j < L->samples[i].n; j++) {
			l = &L->locs[L->frames[L->samples[i].off + j]];
			if (l->map != 0 || l->addr == 0 || l->fn != 0)
				continue;
			l->map = map_of(L, l->addr, &fake, &ix, nix);
		}
	free(ix);
}


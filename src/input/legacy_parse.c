/*
 * pprof's legacy parsers, one format each (profile/legacy_profile.go
 * and legacy_java_profile.go in google/pprof): each says whether the
 * bytes are its format (L_UNRECOGNIZED passes them on to the next, as
 * pprof does), and if they are, reads them into the model legacy.c
 * builds, or says what is wrong with them.  pprof's regular
 * expressions are written out by hand, each with the choices its
 * leftmost-first matching makes, in time linear in the line.  No I/O
 * here.
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

/* The binary CPU profile. */

/* A word of the layout: 32 or 64 bits, little or big endian. */
static uint64_t
word(const unsigned char *b, int kind)
{
	uint64_t v = 0;
	int	 i, n = kind < 2 ? 4 : 8;

	for (i = 0; i < n; i++)
		v |= (uint64_t)b[(kind & 1) ? n - 1 - i : i] << (8 * i);
	return v;
}

/*
 * The samples pprof's cpuProfile drops a frame from: when most samples
 * share their second frame, it is the signal handler's, up to twice.
 */
static void
strip_handler(struct legacy *L)
{
	size_t	*cnt, i, k, margin = L->nsamples / 32, pick;
	struct lsample *s;
	int	 iter;

	cnt = xcalloc(L->nlocs > 0 ? L->nlocs : 1, sizeof(*cnt));
	for (iter = 0; iter < 2; iter++) {
		memset(cnt, 0, (L->nlocs > 0 ? L->nlocs : 1) * sizeof(*cnt));
		pick = SIZE_MAX;
		for (i = 0; i < L->nsamples; i++)
			if (L->samples[i].n > 1) {
				k = L->frames[L->samples[i].off + 1];
				if (++cnt[k] >= L->nsamples - margin)
					pick = k;
			}
		if (pick == SIZE_MAX)
			continue;
		for (i = 0; i < L->nsamples; i++) {
			s = &L->samples[i];
			if (s->n > 1 && L->frames[s->off + 1] == pick) {
				memmove(&L->frames[s->off + 1],
				    &L->frames[s->off + 2],
				    (s->n - 2) * sizeof(*L->frames));
				s->n--;
			}
		}
	}
	free(cnt);
}

/* pprof's cleanupDuplicateLocations: the leaf, again, adjusted by -1. */
static void
drop_dup_leaf(struct legacy *L)
{
	struct lsample	*s;
	size_t		 i;

	for (i = 0; i < L->nsamples; i++) {
		s = &L->samples[i];
		if (s->n > 1 && L->locs[L->frames[s->off]].addr ==
		    L->locs[L->frames[s->off + 1]].addr + 1) {
			memmove(&L->frames[s->off + 1], &L->frames[s->off + 2],
			    (s->n - 2) * sizeof(*L->frames));
			s->n--;
		}
	}
}

static int parse_java_locs(struct legacy *, const char *, size_t);
static int scan_done(struct legacy *, const struct lscan *, int);

/* The samples after the header; *pos ends past the end-of-data mark. */
static int
cpu_samples(struct legacy *L, const unsigned char *b, size_t len, int kind,
    size_t *pos, int64_t period, int java)
{
	size_t		 w = kind < 2 ? 4 : 8, p = *pos, i;
	uint64_t	 count, nstk, a;
	int64_t		 v[2];

	for (;;) {
		if (len - p < 2 * w)
			return lg_fail(L, DIAG_CORRUPT, "sample %zu: the file ends "
			    "before the end-of-data mark (truncated?)",
			    L->nsamples + 1);
		count = word(b + p, kind);
		nstk = word(b + p + w, kind);
		p += 2 * w;
		if (nstk > (len - p) / w)
			return lg_fail(L, DIAG_CORRUPT, "sample %zu: a stack of "
			    "%llu frames runs past the end of the file "
			    "(truncated?)", L->nsamples + 1,
			    (unsigned long long)nstk);
		if (nstk > L->lim->max_depth)
			return lg_fail(L, DIAG_LIMIT, "sample %zu: stack of %llu "
			    "frames, more than the limit of %zu (raise with "
			    "--max-depth)", L->nsamples + 1,
			    (unsigned long long)nstk, L->lim->max_depth);
		for (i = 0; i < nstk; i++, p += w) {
			a = word(b + p, kind);
			lg_addr_push(L, a);
		}
		if (count == 0 && nstk == 1 && L->addrs[0] == 0) {
			L->naddrs = 0;
			break;
		}
		if (count > INT64_MAX || lg_mul((int64_t)count, period, &v[1]))
			return lg_fail(L, DIAG_CORRUPT, "sample %zu: count %llu "
			    "overflows", L->nsamples + 1,
			    (unsigned long long)count);
		v[0] = (int64_t)count;
		if (lg_add_sample(L, java ? ADJ_NONE : ADJ_CALLERS, v, 2) == -1)
			return L_ERROR;
	}
	*pos = p;
	return 0;
}

int
lg_parse_cpu(struct legacy *L, const unsigned char *b, size_t len)
{
	static const char *const tu[] = { "samples", "count", "cpu",
	    "nanoseconds" };
	uint64_t	 n[5];
	size_t		 w = 0, pos;
	struct lscan	 sc;
	int		 kind, i, java = 0;

	for (kind = 0; kind < 4; kind++) {
		w = kind < 2 ? 4 : 8;
		if (len < 5 * w)
			continue;
		for (i = 0; i < 5; i++)
			n[i] = word(b + i * w, kind);
		if (n[0] == 0 && n[1] == 3 && n[2] <= 1 && n[3] > 0 &&
		    n[4] == 0)
			break;
	}
	if (kind == 4)
		return L_UNRECOGNIZED;
	java = L->java = n[2] == 1;
	L->what = java ? "legacy Java CPU profile" : "legacy CPU profile";
	if (n[3] > INT64_MAX / 1000)
		return lg_fail(L, DIAG_CORRUPT, "sampling period %llu "
		    "overflows", (unsigned long long)n[3]);
	L->p->period = (int64_t)n[3] * 1000;
	L->p->period_type.type = "cpu";
	L->p->period_type.unit = "nanoseconds";
	lg_set_types(L, tu, 2);
	pos = 5 * w;
	if (cpu_samples(L, b, len, kind, &pos, L->p->period, java) == -1)
		return L_ERROR;
	if (java) {
		if (parse_java_locs(L, (const char *)b + pos, len - pos) == -1)
			return L_ERROR;
		lg_finish_maps(L, 0);
		return L_OK;
	}
	strip_handler(L);
	lg_scan_init(&sc, (const char *)b + pos, len - pos);
	if (lg_parse_maps(L, &sc) == -1)
		return L_ERROR;
	lg_finish_maps(L, 1);
	drop_dup_leaf(L);
	return scan_done(L, &sc, L_OK);
}

/* The text formats. */

/* rc, unless a line was longer than bufio.Scanner reads. */
static int
scan_done(struct legacy *L, const struct lscan *sc, int rc)
{
	if (!sc->toolong)
		return rc;
	L->lineno = sc->lineno;
	return lg_fail(L, DIAG_CORRUPT, "longer than %d bytes, the longest "
	    "line pprof reads", SCAN_MAX);
}

/* A run of digits at i, or 0. */
static size_t
digits(const char *s, size_t n, size_t i)
{
	size_t j;

	for (j = i; j < n && is_digit(s[j]); j++)
		continue;
	return j - i;
}

static size_t
skip_sp(const char *s, size_t n, size_t i)
{
	while (i < n && s[i] == ' ')
		i++;
	return i;
}

/* The addresses of a stack from *i on: hex words and spaces, "0x" too. */
static struct span
addresses(const char *s, size_t n, size_t *i)
{
	struct span a = { s + *i, 0 };

	while (*i < n && (s[*i] == ' ' || s[*i] == 'x' || is_lhex(s[*i])))
		(*i)++;
	a.n = (size_t)(s + *i - a.s);
	return a;
}

/* Match a literal at *i. */
static int
lit(const char *s, size_t n, size_t *i, const char *l)
{
	size_t k = strlen(l);

	if (n - *i < k || memcmp(s + *i, l, k) != 0)
		return 0;
	*i += k;
	return 1;
}

/* (-?\d+) at *i when neg, else (\d+). */
static int
number(const char *s, size_t n, size_t *i, int neg, struct span *out)
{
	size_t a = *i, k;

	if (neg && a < n && s[a] == '-')
		a++;
	if ((k = digits(s, n, a)) == 0)
		return 0;
	out->s = s + *i;
	out->n = a + k - *i;
	*i = a + k;
	return 1;
}

/*
 * "heap profile: *(\d+): *(\d+) *\[ *(\d+): *(\d+) *\]" at i, the part
 * of the heap, growth and fragmentation headers they share.
 */
static int
heap_counts(const char *s, size_t n, size_t *i, struct span c[4])
{
	if (!lit(s, n, i, "heap profile:"))
		return 0;
	*i = skip_sp(s, n, *i);
	if (!number(s, n, i, 0, &c[0]) || !lit(s, n, i, ":"))
		return 0;
	*i = skip_sp(s, n, *i);
	if (!number(s, n, i, 0, &c[1]))
		return 0;
	*i = skip_sp(s, n, *i);
	if (!lit(s, n, i, "["))
		return 0;
	*i = skip_sp(s, n, *i);
	if (!number(s, n, i, 0, &c[2]) || !lit(s, n, i, ":"))
		return 0;
	*i = skip_sp(s, n, *i);
	if (!number(s, n, i, 0, &c[3]))
		return 0;
	*i = skip_sp(s, n, *i);
	return lit(s, n, i, "]");
}

static int
same_span(struct span a, struct span b)
{
	return a.n == b.n && memcmp(a.s, b.s, a.n) == 0;
}

/*
 * The heap header: the unsampling ("v2" or none) and period, and whether
 * the profile has allocation counts.  L_UNRECOGNIZED if it is not one.
 */
static int
heap_header(const char *s, size_t n, int *v2, int64_t *period,
    int *alloc)
{
	struct span	 c[4], t, r;
	const char	*h;
	size_t		 i, at;

	for (at = 0; (h = lg_find(s + at, n - at, "heap profile:")) != NULL;
	    at = (size_t)(h - s) + 1) {
		i = (size_t)(h - s);
		if (!heap_counts(s, n, &i, c))
			continue;
		*alloc = (!same_span(c[2], c[0]) && !(c[2].n == 1 &&
		    c[2].s[0] == '0')) || (!same_span(c[3], c[1]) &&
		    !(c[3].n == 1 && c[3].s[0] == '0'));
		if (lit(s, n, &i, " @ growth") ||
		    lit(s, n, &i, " @ fragmentation")) {
			*v2 = 0;
			*period = 1;
			*alloc = 0;
			return L_OK;
		}
		i = skip_sp(s, n, i);
		if (!lit(s, n, &i, "@"))
			continue;
		i = skip_sp(s, n, i);
		t.s = s + i;
		if (!lit(s, n, &i, "heap"))
			continue;
		while (i < n && (s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		    is_digit(s[i])))
			i++;
		t.n = (size_t)(s + i - t.s);
		if (i < n && s[i] == '/')
			i++;
		r.s = s + i;
		r.n = digits(s, n, i);
		*period = 0;
		if (r.n > 0 && lg_parse_int(r.s, r.n, 10, period) == -1)
			return L_UNRECOGNIZED;
		if (t.n == 8 && (memcmp(t.s, "heapz_v2", 8) == 0))
			*v2 = 1;
		else if (t.n == 7 && memcmp(t.s, "heap_v2", 7) == 0)
			*v2 = 1;
		else if (t.n == 11 && memcmp(t.s, "heapprofile", 11) == 0) {
			*v2 = 0;
			*period = 1;
		} else if (t.n == 4) {
			*v2 = 1;
			*period /= 2;
		} else
			return L_UNRECOGNIZED;
		return L_OK;
	}
	return L_UNRECOGNIZED;
}

/*
 * pprof's scaleHeapSample: a sample of average size S, taken by a
 * Poisson process of mean rate R, had probability 1 - exp(-S/R) of
 * being taken, so its values are divided by that.
 */
static int
unsample(int64_t *count, int64_t *size, int64_t rate)
{
	double	 avg, scale, c, s;

	if (*count == 0 || *size == 0) {
		*count = *size = 0;
		return 0;
	}
	if (rate <= 1)
		return 0;
	avg = (double)*size / (double)*count;
	scale = 1 / (1 - exp(-avg / (double)rate));
	c = (double)*count * scale;
	s = (double)*size * scale;
	if (!(c >= -9223372036854775808.0 && c < 9223372036854775808.0) ||
	    !(s >= -9223372036854775808.0 && s < 9223372036854775808.0))
		return -1;
	*count = (int64_t)c;
	*size = (int64_t)s;
	return 0;
}

/*
 * heapSampleRE, "(-?\d+): *(-?\d+) *\[ *(\d+): *(\d+) *] @([ x0-9a-f]*)",
 * leftmost: the four numbers and the addresses' span.
 */
static int
heap_sample_re(const char *s, size_t n, struct span c[5])
{
	size_t i, at;

	for (at = 0; at < n; at++) {
		if (!(is_digit(s[at]) || s[at] == '-') ||
		    (at > 0 && is_digit(s[at - 1]) && is_digit(s[at])))
			continue;
		i = at;
		if (!number(s, n, &i, 1, &c[0]) || !lit(s, n, &i, ":"))
			continue;
		i = skip_sp(s, n, i);
		if (!number(s, n, &i, 1, &c[1]))
			continue;
		i = skip_sp(s, n, i);
		if (!lit(s, n, &i, "["))
			continue;
		i = skip_sp(s, n, i);
		if (!number(s, n, &i, 0, &c[2]) || !lit(s, n, &i, ":"))
			continue;
		i = skip_sp(s, n, i);
		if (!number(s, n, &i, 0, &c[3]))
			continue;
		i = skip_sp(s, n, i);
		if (!lit(s, n, &i, "] @"))
			continue;
		c[4] = addresses(s, n, &i);
		return 1;
	}
	return 0;
}

/* One count and size pair of a heap sample (pprof's addValues). */
static int
heap_values(struct legacy *L, struct span cs, struct span ss,
    const char *what, int v2, int64_t rate, int64_t *v, int64_t *bytes)
{
	char x[EXCERPT + 4];

	if (lg_parse_int(cs.s, cs.n, 10, &v[0]) == -1 ||
	    lg_parse_int(ss.s, ss.n, 10, &v[1]) == -1)
		return lg_fail(L, DIAG_CORRUPT, "%s count or size does not fit "
		    "in 64 bits ('%s')", what, lg_excerpt(x, sizeof(x), cs.s,
		    (size_t)(ss.s + ss.n - cs.s)));
	if (v[0] == 0 && v[1] != 0)
		return lg_fail(L, DIAG_CORRUPT, "%s count was 0 but %s bytes "
		    "was %lld", what, what, (long long)v[1]);
	if (v[0] != 0) {
		*bytes = v[0] == -1 ? (v[1] == INT64_MIN ? v[1] : -v[1]) :
		    v[1] / v[0];
		if (v2 && unsample(&v[0], &v[1], rate) == -1)
			return lg_fail(L, DIAG_CORRUPT, "%s values overflow "
			    "when unsampled", what);
	}
	return 0;
}

int
lg_parse_heap(struct legacy *L, const char *buf, size_t len)
{
	static const char *const tu4[] = { "alloc_objects", "count",
	    "alloc_space", "bytes", "inuse_objects", "count", "inuse_space",
	    "bytes" };
	static const char *const tu2[] = { "objects", "count", "space",
	    "bytes" };
	struct lscan	 sc;
	struct span	 c[5];
	const char	*s;
	size_t		 n;
	int64_t		 period = 0, v[4];
	int		 v2 = 0, alloc = 0, nv;
	char		 x[EXCERPT + 4];

	lg_scan_init(&sc, buf, len);
	if (!lg_scan(&sc))
		return scan_done(L, &sc, L_UNRECOGNIZED);
	if (heap_header(sc.s, sc.n, &v2, &period, &alloc) != L_OK)
		return L_UNRECOGNIZED;
	L->what = "legacy heap profile";
	L->p->period = period;
	L->p->period_type.type = "space";
	L->p->period_type.unit = "bytes";
	lg_set_types(L, alloc ? tu4 : tu2, alloc ? 4 : 2);
	while (lg_scan(&sc)) {
		s = sc.s;
		n = sc.n;
		lg_trim(&s, &n);
		if (lg_blank(s, n))
			continue;
		if (lg_map_sentinel(s, n))
			break;
		L->lineno = sc.lineno;
		if (!heap_sample_re(s, n, c))
			return lg_fail(L, DIAG_CORRUPT, "not a heap sample: '%s'",
			    lg_excerpt(x, sizeof(x), s, n));
		nv = 0;
		if (alloc) {
			if (heap_values(L, c[2], c[3], "allocation", v2,
			    period, v, &L->addrs_bytes) == -1)
				return L_ERROR;
			nv = 2;
		}
		if (heap_values(L, c[0], c[1], "inuse", v2, period, v + nv,
		    &L->addrs_bytes) == -1 || lg_hex_addrs(L, c[4].s, c[4].n) == -1)
			return L_ERROR;
		if (lg_add_sample(L, ADJ_ALL, v, (size_t)nv + 2) == -1)
			return L_ERROR;
		L->samples[L->nsamples - 1].bytes = L->addrs_bytes;
		L->samples[L->nsamples - 1].has_bytes = 1;
		L->addrs_bytes = 0;
		L->lineno = 0;
	}
	if (lg_more_sections(L, &sc) == -1)
		return L_ERROR;
	lg_finish_maps(L, 1);
	return scan_done(L, &sc, L_OK);
}

/* Go's count profiles: goroutine and threadcreate. */

/* countStartRE, "\A(\S+) profile: total \d+\z": the type, or 0. */
static size_t
count_start(const char *s, size_t n)
{
	size_t t, i;

	for (t = 0; t < n && !is_rspace(s[t]); t++)
		continue;
	i = t;
	if (t == 0 || !lit(s, n, &i, " profile: total "))
		return 0;
	if (digits(s, n, i) == 0 || i + digits(s, n, i) != n)
		return 0;
	return t;
}

/* countRE, "\A(\d+) @(( 0x[0-9a-f]+)+)\z": the count, or 0. */
static int
count_line(const char *s, size_t n, struct span *cnt, size_t *addrs)
{
	size_t i, k;

	if ((k = digits(s, n, 0)) == 0)
		return 0;
	*cnt = (struct span){ s, k };
	i = k;
	if (!lit(s, n, &i, " @"))
		return 0;
	*addrs = i;
	if (i == n)
		return 0;
	while (i < n) {
		if (!lit(s, n, &i, " 0x") || i >= n || !is_lhex(s[i]))
			return 0;
		while (i < n && is_lhex(s[i]))
			i++;
	}
	return 1;
}

int
lg_parse_gocount(struct legacy *L, const char *buf, size_t len)
{
	struct lscan	 sc;
	struct span	 cnt;
	const char	*type;
	size_t		 t, at;
	int64_t		 v;
	char		 x[EXCERPT + 4];

	lg_scan_init(&sc, buf, len);
	while (lg_scan(&sc) && lg_blank(sc.s, sc.n))
		continue;
	if (sc.toolong)
		return scan_done(L, &sc, L_ERROR);
	if ((t = count_start(sc.s, sc.n)) == 0)
		return L_UNRECOGNIZED;
	L->what = "legacy count profile";
	type = lg_str(L, sc.s, t);
	L->types[0] = type;
	L->units[0] = "count";
	L->ntypes = 1;
	L->p->period = 1;
	L->p->period_type.type = type;
	L->p->period_type.unit = "count";
	while (lg_scan(&sc)) {
		if (lg_blank(sc.s, sc.n))
			continue;
		if (lg_has_prefix(sc.s, sc.n, "---"))
			break;
		L->lineno = sc.lineno;
		if (!count_line(sc.s, sc.n, &cnt, &at) ||
		    lg_parse_int(cnt.s, cnt.n, 0, &v) == -1)
			return lg_fail(L, DIAG_CORRUPT, "not a count sample: "
			    "'%s'", lg_excerpt(x, sizeof(x), sc.s, sc.n));
		if (lg_hex_addrs(L, sc.s + at, sc.n - at) == -1 ||
		    lg_add_sample(L, ADJ_ALL, &v, 1) == -1)
			return L_ERROR;
		L->lineno = 0;
	}
	if (lg_more_sections(L, &sc) == -1)
		return L_ERROR;
	lg_finish_maps(L, 1);
	return scan_done(L, &sc, L_OK);
}

/* threadz */

/* threadzStartRE, "--- threadz \d+ ---", anywhere in the line. */
static int
threadz_start(const char *s, size_t n)
{
	const char	*h;
	size_t		 i, at;

	for (at = 0; (h = lg_find(s + at, n - at, "--- threadz ")) != NULL;
	    at = (size_t)(h - s) + 1) {
		i = (size_t)(h - s) + 12;
		if (digits(s, n, i) > 0 && (i += digits(s, n, i),
		    lit(s, n, &i, " ---")))
			return 1;
	}
	return 0;
}

/*
 * threadStartRE, "--- Thread ([[:xdigit:]]+) \(name: (.*)/(\d+)\) stack:
 * ---", anywhere in the line.
 */
static int
thread_start(const char *s, size_t n)
{
	const char	*h, *q;
	size_t		 i, at, ns, e, j;

	for (at = 0; (h = lg_find(s + at, n - at, "--- Thread ")) != NULL;
	    at = (size_t)(h - s) + 1) {
		i = (size_t)(h - s) + 11;
		e = skip_xdigit(s, n, i);
		if (e == i)
			continue;
		i = e;
		if (!lit(s, n, &i, " (name: "))
			continue;
		ns = i;
		for (; (q = lg_find(s + i, n - i, ") stack: ---")) != NULL;
		    i = (size_t)(q - s) + 1) {
			e = (size_t)(q - s);
			for (j = e; j > ns && is_digit(s[j - 1]); j--)
				continue;
			if (j < e && j > ns && s[j - 1] == '/')
				return 1;
		}
	}
	return 0;
}

/*
 * One thread's stack (pprof's parseThreadSample), into L->addrs, which
 * is left empty for "same as previous thread".  *line is the line after
 * it, trimmed.
 */
static int
thread_sample(struct legacy *L, struct lscan *sc, struct span *line)
{
	int same = 0;

	*line = (struct span){ "", 0 };
	while (lg_scan(sc)) {
		line->s = sc->s;
		line->n = sc->n;
		lg_trim(&line->s, &line->n);
		if (line->n == 0)
			continue;
		if (lg_has_prefix(line->s, line->n, "---"))
			break;
		if (lg_find(line->s, line->n, "same as previous thread") != NULL) {
			same = 1;
			continue;
		}
		L->lineno = sc->lineno;
		if (lg_hex_addrs(L, line->s, line->n) == -1)
			return L_ERROR;
		L->lineno = 0;
	}
	if (same)
		L->naddrs = 0;
	return 0;
}

int
lg_parse_thread(struct legacy *L, const char *buf, size_t len)
{
	static const char *const tu[] = { "thread", "count" };
	struct lscan	 sc;
	struct span	 line;
	int64_t		 one = 1;

	lg_scan_init(&sc, buf, len);
	while (lg_scan(&sc) && lg_blank(sc.s, sc.n))
		continue;
	line = (struct span){ sc.s, sc.n };
	if (threadz_start(line.s, line.n)) {
		while (lg_scan(&sc)) {
			line = (struct span){ sc.s, sc.n };
			if (lg_map_sentinel(line.s, line.n) ||
			    lg_has_prefix(line.s, line.n, "-"))
				break;
		}
	} else if (!thread_start(line.s, line.n))
		return scan_done(L, &sc, L_UNRECOGNIZED);
	L->what = "legacy thread profile";
	lg_set_types(L, tu, 1);
	L->p->period = 1;
	L->p->period_type.type = "thread";
	L->p->period_type.unit = "count";
	while (!lg_map_sentinel(line.s, line.n)) {
		if (lg_has_prefix(line.s, line.n, "---- no stack trace for"))
			break;
		if (!thread_start(line.s, line.n))
			return scan_done(L, &sc, L_UNRECOGNIZED);
		if (thread_sample(L, &sc, &line) == -1)
			return L_ERROR;
		if (L->naddrs == 0) {
			/* "same as previous thread" */
			if (L->nsamples > 0)
				L->samples[L->nsamples - 1].v[0]++;
			continue;
		}
		if (lg_add_sample(L, ADJ_CALLERS, &one, 1) == -1)
			return L_ERROR;
	}
	if (lg_more_sections(L, &sc) == -1)
		return L_ERROR;
	lg_finish_maps(L, 1);
	drop_dup_leaf(L);
	return scan_done(L, &sc, L_OK);
}

/* Contention: C++ contentionz, Go's mutex and block dumps. */

/*
 * contentionSampleRE, "(\d+) *(\d+) @([ x0-9a-f]*)", leftmost.  When the
 * first run of digits is followed by " @", the expression splits it: its
 * last digit is the second number.
 */
static int
contention_re(const char *s, size_t n, struct span c[3])
{
	size_t at, e, i, k;

	for (at = 0; at < n; at++) {
		if (!is_digit(s[at]) || (at > 0 && is_digit(s[at - 1])))
			continue;
		e = at + digits(s, n, at);
		i = skip_sp(s, n, e);
		if (i > e && (k = digits(s, n, i)) > 0) {
			c[0] = (struct span){ s + at, e - at };
			c[1] = (struct span){ s + i, k };
			i += k;
		} else if (e - at >= 2) {
			c[0] = (struct span){ s + at, e - at - 1 };
			c[1] = (struct span){ s + e - 1, 1 };
			i = e;
		} else
			continue;
		if (!lit(s, n, &i, " @"))
			continue;
		c[2] = addresses(s, n, &i);
		return 1;
	}
	return 0;
}

/* The "name = value" lines before the samples: L_OK, or not this format. */
static int
contention_header(struct legacy *L, struct lscan *sc, int64_t *hz)
{
	const char	*s, *eq, *k, *v;
	size_t		 n, kn, vn;
	int64_t		 x;

	while (lg_scan(sc)) {
		s = sc->s;
		n = sc->n;
		lg_trim(&s, &n);
		if (lg_blank(s, n))
			continue;
		if (lg_has_prefix(s, n, "---") || (eq = memchr(s, '=', n)) == NULL)
			break;
		k = s;
		kn = (size_t)(eq - s);
		v = eq + 1;
		vn = n - kn - 1;
		lg_trim(&k, &kn);
		lg_trim(&v, &vn);
		if (kn == 13 && memcmp(k, "cycles/second", 13) == 0) {
			if (lg_parse_int(v, vn, 0, hz) == -1)
				return L_UNRECOGNIZED;
		} else if (kn == 15 && memcmp(k, "sampling period", 15) == 0) {
			if (lg_parse_int(v, vn, 0, &L->p->period) == -1)
				return L_UNRECOGNIZED;
		} else if (kn == 14 && memcmp(k, "ms since reset", 14) == 0) {
			if (lg_parse_int(v, vn, 0, &x) == -1)
				return L_UNRECOGNIZED;
			if (lg_mul(x, 1000000, &L->p->duration_nanos) == -1) {
				L->lineno = sc->lineno;
				return lg_fail(L, DIAG_CORRUPT, "ms since reset "
				    "overflows");
			}
		} else if (!(kn == 17 && memcmp(k, "discarded samples",
		    17) == 0))
			return L_UNRECOGNIZED;
	}
	return L_OK;
}

/* pprof's parseContentionSample: delays to nanoseconds. */
static int
contention_values(struct legacy *L, const struct span c[2], int64_t hz,
    int64_t v[2])
{
	int64_t	 v1, v2, period = L->p->period;
	double	 d;

	if (lg_parse_int(c[0].s, c[0].n, 10, &v1) == -1 ||
	    lg_parse_int(c[1].s, c[1].n, 10, &v2) == -1)
		return lg_fail(L, DIAG_CORRUPT, "a value does not fit in 64 "
		    "bits");
	if (period > 0) {
		if (hz > 0) {
			d = (double)v1 * (double)period / ((double)hz / 1e9);
			if (!(d >= -9223372036854775808.0 &&
			    d < 9223372036854775808.0))
				return lg_fail(L, DIAG_CORRUPT, "delay overflows "
				    "when scaled");
			v1 = (int64_t)d;
		}
		if (lg_mul(v2, period, &v2) == -1)
			return lg_fail(L, DIAG_CORRUPT, "count overflows when "
			    "scaled");
	}
	v[0] = v2;
	v[1] = v1;
	return 0;
}

int
lg_parse_contention(struct legacy *L, const char *buf, size_t len)
{
	static const char *const tu[] = { "contentions", "count", "delay",
	    "nanoseconds" };
	struct lscan	 sc;
	struct span	 c[3];
	const char	*s;
	size_t		 n;
	int64_t		 hz = 0, v[2];
	int		 rc;

	lg_scan_init(&sc, buf, len);
	if (!lg_scan(&sc))
		return scan_done(L, &sc, L_UNRECOGNIZED);
	if (!lg_has_prefix(sc.s, sc.n, "--- contentionz ") &&
	    !lg_has_prefix(sc.s, sc.n, "--- mutex:") &&
	    !lg_has_prefix(sc.s, sc.n, "--- contention:"))
		return L_UNRECOGNIZED;
	L->what = "legacy contention profile";
	lg_set_types(L, tu, 2);
	L->p->period = 1;
	L->p->period_type.type = "contentions";
	L->p->period_type.unit = "count";
	if ((rc = contention_header(L, &sc, &hz)) != L_OK)
		return scan_done(L, &sc, rc);
	for (;;) {
		s = sc.s;
		n = sc.n;
		lg_trim(&s, &n);
		if (lg_has_prefix(s, n, "---"))
			break;
		if (!lg_blank(s, n)) {
			L->lineno = sc.lineno;
			if (!contention_re(s, n, c))
				return scan_done(L, &sc, L_UNRECOGNIZED);
			if (contention_values(L, c, hz, v) == -1 ||
			    lg_hex_addrs(L, c[2].s, c[2].n) == -1 ||
			    lg_add_sample(L, ADJ_ALL, v, 2) == -1)
				return L_ERROR;
			L->lineno = 0;
		}
		if (!lg_scan(&sc))
			break;
	}
	if (lg_more_sections(L, &sc) == -1)
		return L_ERROR;
	lg_finish_maps(L, 1);
	return scan_done(L, &sc, L_OK);
}

/* Java's heapz and contentionz, and the frames of every Java profile. */

/* The next line of [*p, end) ending in LF, trimmed: 1, or 0 if none. */
static int
next_full_line(const char **p, const char *end, struct span *line,
    const char **start)
{
	const char *nl;

	if (*p >= end || (nl = memchr(*p, '\n', (size_t)(end - *p))) == NULL)
		return 0;
	*start = *p;
	line->s = *p;
	line->n = (size_t)(nl - *p);
	lg_trim(&line->s, &line->n);
	*p = nl + 1;
	return 1;
}

static int
is_attr(int c)
{
	return is_word(c) || c == ' ';
}

/* attributeRx, "([\w ]+)=([\w ]+)", leftmost. */
static int
attribute_re(const char *s, size_t n, struct span *k, struct span *v)
{
	size_t at, e, f;

	for (at = 0; at < n; at = e + 1) {
		if (!is_attr(s[at])) {
			e = at;
			continue;
		}
		for (e = at; e < n && is_attr(s[e]); e++)
			continue;
		if (e + 1 < n && s[e] == '=' && is_attr(s[e + 1])) {
			for (f = e + 1; f < n && is_attr(s[f]); f++)
				continue;
			*k = (struct span){ s + at, e - at };
			*v = (struct span){ s + e + 1, f - e - 1 };
			lg_trim(&k->s, &k->n);
			lg_trim(&v->s, &v->n);
			return 1;
		}
	}
	return 0;
}

static int
span_is(struct span s, const char *l)
{
	return s.n == strlen(l) && memcmp(s.s, l, s.n) == 0;
}

/* The attributes (pprof's parseJavaHeader); *p ends at the first other. */
static int
java_header(struct legacy *L, int heap, const char **p, const char *end)
{
	struct span	 line, k, v;
	const char	*start;
	int64_t		 x;
	char		*unit;

	while (next_full_line(p, end, &line, &start)) {
		if (line.n == 0)
			continue;
		if (!attribute_re(line.s, line.n, &k, &v)) {
			*p = start;
			break;
		}
		if (span_is(k, "format")) {
			if (!span_is(v, "java"))
				return L_UNRECOGNIZED;
		} else if (span_is(k, "resolution")) {
			unit = arena_strndup(L->a, v.s, v.n);
			L->types[0] = heap ? "inuse_objects" : "contentions";
			L->units[0] = "count";
			L->types[1] = heap ? "inuse_space" : "delay";
			L->units[1] = unit;
			L->ntypes = 2;
		} else if (!heap && span_is(k, "sampling period")) {
			L->p->period_type.type = "contentions";
			L->p->period_type.unit = "count";
			if (lg_parse_int(v.s, v.n, 0, &L->p->period) == -1)
				return lg_fail(L, DIAG_CORRUPT, "sampling period "
				    "is not a number");
		} else if (!heap && span_is(k, "ms since reset")) {
			if (lg_parse_int(v.s, v.n, 0, &x) == -1 ||
			    lg_mul(x, 1000000, &L->p->duration_nanos) == -1)
				return lg_fail(L, DIAG_CORRUPT, "ms since reset is "
				    "not a number of milliseconds");
		} else
			return L_UNRECOGNIZED;
	}
	return L_OK;
}

/* javaSampleRx, " *(\d+) +(\d+) +@ +([ x0-9a-f]*)", leftmost. */
static int
java_sample_re(const char *s, size_t n, struct span c[3])
{
	size_t at, i, e, k;

	for (at = 0; at < n; at++) {
		if (!is_digit(s[at]) || (at > 0 && is_digit(s[at - 1])))
			continue;
		e = at + digits(s, n, at);
		i = skip_sp(s, n, e);
		if (i == e || (k = digits(s, n, i)) == 0)
			continue;
		c[0] = (struct span){ s + at, e - at };
		c[1] = (struct span){ s + i, k };
		e = i + k;
		i = skip_sp(s, n, e);
		if (i == e || !lit(s, n, &i, "@") || i >= n || s[i] != ' ')
			continue;
		i = skip_sp(s, n, i);
		c[2] = addresses(s, n, &i);
		return 1;
	}
	return 0;
}

/* The samples (pprof's parseJavaSamples); *p ends at the first other. */
static int
java_samples(struct legacy *L, int heap, const char **p, const char *end)
{
	struct span	 line, c[3];
	const char	*start;
	int64_t		 v[2];
	char		 x[EXCERPT + 4];

	while (next_full_line(p, end, &line, &start)) {
		if (line.n == 0)
			continue;
		if (!java_sample_re(line.s, line.n, c)) {
			*p = start;
			break;
		}
		if (lg_parse_int(c[1].s, c[1].n, 0, &v[0]) == -1 ||
		    lg_parse_int(c[0].s, c[0].n, 0, &v[1]) == -1)
			return lg_fail(L, DIAG_CORRUPT, "sample %zu: a value is "
			    "not a number", L->nsamples + 1);
		if (heap) {
			if (v[0] == 0)
				return lg_fail(L, DIAG_CORRUPT, "sample %zu: the "
				    "count (the second value) is 0: '%s'",
				    L->nsamples + 1, lg_excerpt(x, sizeof(x),
				    line.s, line.n));
			L->addrs_bytes = v[1] / v[0];
			if (unsample(&v[0], &v[1], JAVA_HEAP_RATE) == -1)
				return lg_fail(L, DIAG_CORRUPT, "sample %zu: "
				    "values overflow when unsampled",
				    L->nsamples + 1);
		} else if (L->p->period != 0 &&
		    (lg_mul(v[0], L->p->period, &v[0]) == -1 ||
		    lg_mul(v[1], L->p->period, &v[1]) == -1))
			return lg_fail(L, DIAG_CORRUPT, "sample %zu: values "
			    "overflow when scaled", L->nsamples + 1);
		if (lg_hex_addrs(L, c[2].s, c[2].n) == -1 ||
		    lg_add_sample(L, ADJ_NONE, v, 2) == -1)
			return L_ERROR;
		if (heap) {
			L->samples[L->nsamples - 1].bytes = L->addrs_bytes;
			L->samples[L->nsamples - 1].has_bytes = 1;
		}
	}
	return 0;
}

int
lg_parse_java(struct legacy *L, const char *buf, size_t len)
{
	const char	*nl, *p, *end = buf + len, *s;
	size_t		 n;
	int		 heap, rc;

	if ((nl = memchr(buf, '\n', len)) == NULL)
		return L_UNRECOGNIZED;
	s = buf;
	n = (size_t)(nl - buf);
	lg_trim(&s, &n);
	if (n == 15 && memcmp(s, "--- heapz 1 ---", 15) == 0)
		heap = 1;
	else if (n == 21 && memcmp(s, "--- contentionz 1 ---", 21) == 0)
		heap = 0;
	else
		return L_UNRECOGNIZED;
	L->java = 1;
	L->what = heap ? "legacy Java heap profile" :
	    "legacy Java contention profile";
	p = nl + 1;
	if ((rc = java_header(L, heap, &p, end)) != L_OK)
		return rc;
	if (java_samples(L, heap, &p, end) == -1 ||
	    parse_java_locs(L, p, (size_t)(end - p)) == -1)
		return L_ERROR;
	if (L->ntypes == 0)
		return lg_fail(L, DIAG_CORRUPT, "no 'resolution' attribute, so "
		    "no sample types");
	lg_finish_maps(L, 0);
	return L_OK;
}

/*
 * The frames of "0xADDR function (file:line)" lines, or "function
 * (library path)", or a bare name; the location of an address the
 * samples do not name is skipped (pprof's parseJavaLocations).
 */
static void
java_frame(const char *s, size_t n, struct span *fn, struct span *file,
    int64_t *line)
{
	size_t	 c, j, q, best;
	int64_t	 v;

	*line = 0;
	*file = (struct span){ "", 0 };
	*fn = (struct span){ s, n };
	if (n < 2 || s[n - 1] != ')')
		goto stub;
	/* "(.*)\s+\((.+):(-?\d+)\)$" */
	for (j = n - 1; j > 0 && is_digit(s[j - 1]); j--)
		continue;
	c = j;
	if (c < n - 1 && c > 0 && s[c - 1] == '-')
		c--;
	if (j < n - 1 && c > 0 && s[c - 1] == ':') {
		c--;
		for (best = 0, q = 1; q + 1 < c; q++)
			if (s[q] == '(' && is_rspace(s[q - 1]))
				best = q;
		if (best > 0) {
			*fn = (struct span){ s, best - 1 };
			*file = (struct span){ s + best + 1, c - best - 1 };
			if (lg_parse_int(s + c + 1, n - c - 2, 10, &v) == 0 &&
			    v > 0)
				*line = v;
			return;
		}
	}
	/* "(.*)\s+\((.*)\)$" */
	for (best = 0, q = 1; q + 1 < n; q++)
		if (s[q] == '(' && is_rspace(s[q - 1]))
			best = q;
	if (best > 0) {
		*fn = (struct span){ s, best - 1 };
		*file = lg_base_name(s + best + 1, n - best - 2);
		return;
	}
stub:
	if (lg_find(s, n, "generated stub/JIT") != NULL)
		*fn = (struct span){ "STUB", 4 };
}

static uint64_t
hash_str(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t	 i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return lg_mix(h);
}

static void
ftab_grow(struct legacy *L)
{
	size_t	 cap = L->ftcap ? L->ftcap * 2 : 1024, i, j;
	uint32_t *t;

	t = xcalloc(cap, sizeof(*t));
	for (i = 0; i < L->nfns; i++) {
		for (j = L->fns[i].hash & (cap - 1); t[j] != 0;
		    j = (j + 1) & (cap - 1))
			continue;
		t[j] = (uint32_t)i + 1;
	}
	free(L->ftab);
	L->ftab = t;
	L->ftcap = cap;
}

/* The function named fn, made if new: its index + 1, or 0 past the limit. */
static size_t
java_func(struct legacy *L, struct span fn, struct span file)
{
	uint64_t h = hash_str(fn.s, fn.n);
	size_t	 j;
	uint32_t e;

	if ((L->nfns + 1) * 2 > L->ftcap)
		ftab_grow(L);
	for (j = h & (L->ftcap - 1); (e = L->ftab[j]) != 0;
	    j = (j + 1) & (L->ftcap - 1))
		if (L->fns[e - 1].hash == h &&
		    strlen(L->fns[e - 1].name) == fn.n &&
		    memcmp(L->fns[e - 1].name, fn.s, fn.n) == 0)
			return e;
	if (L->nfns >= L->lim->max_functions || L->nfns >= UINT32_MAX - 1)
		return 0;
	if (L->nfns == L->capfns) {
		L->capfns = L->capfns ? L->capfns * 2 : 256;
		L->fns = xreallocarray(L->fns, L->capfns, sizeof(*L->fns));
	}
	L->fns[L->nfns].name = lg_str(L, fn.s, fn.n);
	L->fns[L->nfns].file = lg_str(L, file.s, file.n);
	L->fns[L->nfns].hash = h;
	L->ftab[j] = (uint32_t)(L->nfns + 1);
	return ++L->nfns;
}

static int
parse_java_locs(struct legacy *L, const char *buf, size_t len)
{
	const char	*p = buf, *end = buf + len, *nl, *s;
	struct span	 fn, file;
	size_t		 n, i, e, li;
	uint64_t	 a;
	uint32_t	 t;
	int64_t		 line;

	for (; p < end; p = nl != NULL ? nl + 1 : end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		s = p;
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		lg_trim(&s, &n);
		/* javaLocationRx, "^\s*0x([[:xdigit:]]+)\s+(.*)\s*$" */
		if (n < 3 || s[0] != '0' || s[1] != 'x')
			continue;
		e = skip_xdigit(s, n, 2);
		if (e == 2 || e == n || !is_rspace(s[e]))
			continue;
		if (lg_parse_uint(s + 2, e - 2, 16, &a) == -1)
			return lg_fail(L, DIAG_CORRUPT, "frame address does not "
			    "fit in 64 bits");
		if (L->ltcap == 0)
			continue;
		for (i = lg_mix(a) & (L->ltcap - 1); (t = L->ltab[i]) != 0 &&
		    L->locs[t - 1].addr != a; i = (i + 1) & (L->ltcap - 1))
			continue;
		if (t == 0)
			continue;
		li = t - 1;
		e = skip_rspace(s, n, e);
		java_frame(s + e, n - e, &fn, &file, &line);
		if ((L->locs[li].fn = java_func(L, fn, file)) == 0)
			return lg_fail(L, DIAG_LIMIT, "more than %zu functions "
			    "(raise with --max-functions)",
			    L->lim->max_functions);
		L->locs[li].line = line;
	}
	return 0;
}


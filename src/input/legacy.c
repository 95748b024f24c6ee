/*
 * The legacy pprof formats -> struct profile.  pprof tries its legacy
 * parsers in a fixed order (the binary CPU profile, heap, Go counts,
 * threadz, contention, Java's text profiles), each either recognizing
 * the bytes or passing them on; this file does the same, so that a file
 * is read as the format pprof reads it as.  The facts of each format,
 * and what pprof does to it on the way in, are those of google/pprof's
 * profile/legacy_profile.go and legacy_java_profile.go: which header
 * words and lines name a format, which frames are adjusted by -1 (the
 * return addresses of calls), how heap samples are unsampled, how
 * contention delays are scaled, and how the memory map becomes the
 * mappings.  pprof matches lines with regular expressions; each one is
 * written out here by hand, with the same leftmost-first choices, in
 * time linear in the line.  Text is split into lines as Go's
 * bufio.Scanner splits it, and a line longer than its limit is an
 * error, as it is for pprof.  Where pprof reads past the end of a
 * truncated binary profile as zeros, this file says it is truncated.
 * No I/O here.
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

/* Errors. */

int
lg_fail(struct legacy *L, enum diag_code code, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[200];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (L->lineno > 0)
		diag_set(L->d, code, -1, "%s: line %zu: %s", L->what,
		    L->lineno, msg);
	else
		diag_set(L->d, code, -1, "%s: %s", L->what, msg);
	return L_ERROR;
}

/* Quote a line for a message: at most EXCERPT bytes, then "...". */
const char *
lg_excerpt(char *dst, size_t dstlen, const char *s, size_t n)
{
	size_t i, k;

	k = n > EXCERPT ? EXCERPT : n;
	for (i = 0; i < k; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			break;
	snprintf(dst, dstlen, "%.*s%s", (int)i, s, i < n ? "..." : "");
	return dst;
}

/* Lines, as bufio.Scanner's ScanLines gives them. */

void
lg_scan_init(struct lscan *sc, const char *buf, size_t len)
{
	memset(sc, 0, sizeof(*sc));
	sc->p = buf;
	sc->end = buf + len;
	sc->s = "";
}

/* The next line into sc->s: 1, or 0 past the last (sc->s is then ""). */
int
lg_scan(struct lscan *sc)
{
	const char	*nl;
	size_t		 n;

	sc->s = "";
	sc->n = 0;
	if (sc->toolong || sc->p >= sc->end)
		return 0;
	nl = memchr(sc->p, '\n', (size_t)(sc->end - sc->p));
	n = nl != NULL ? (size_t)(nl - sc->p) : (size_t)(sc->end - sc->p);
	if (n > SCAN_MAX) {
		sc->toolong = 1;
		sc->lineno++;
		return 0;
	}
	sc->s = sc->p;
	sc->n = n;
	if (n > 0 && sc->s[n - 1] == '\r')
		sc->n--;
	sc->p = nl != NULL ? nl + 1 : sc->end;
	sc->lineno++;
	return 1;
}

/* Go's strings and strconv, as far as pprof's parsers use them. */

/*
 * The length of the Unicode white space (unicode.IsSpace) that ends
 * [s, s + n), in bytes, or 0.  Only the characters strings.TrimSpace
 * trims: ASCII \t \n \v \f \r and space, U+0085, U+00A0, U+1680,
 * U+2000-U+200A, U+2028, U+2029, U+202F, U+205F and U+3000.
 */
static size_t
space_before(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c;

	if (n == 0)
		return 0;
	c = u[n - 1];
	if (c == ' ' || (c >= '\t' && c <= '\r'))
		return 1;
	if (n >= 2 && u[n - 2] == 0xc2 && (c == 0x85 || c == 0xa0))
		return 2;
	if (n < 3)
		return 0;
	if (u[n - 3] == 0xe1 && u[n - 2] == 0x9a && c == 0x80)
		return 3;
	if (u[n - 3] == 0xe2 && u[n - 2] == 0x80 && (c <= 0x8a ||
	    c == 0xa8 || c == 0xa9 || c == 0xaf))
		return 3;
	if (u[n - 3] == 0xe2 && u[n - 2] == 0x81 && c == 0x9f)
		return 3;
	if (u[n - 3] == 0xe3 && u[n - 2] == 0x80 && c == 0x80)
		return 3;
	return 0;
}

/* The same at the start. */
static size_t
space_after(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k;

	if (n == 0)
		return 0;
	if (u[0] == ' ' || (u[0] >= '\t' && u[0] <= '\r'))
		return 1;
	for (k = 2; k <= 3 && k <= n; k++)
		if (space_before(s, k) == k)
			return k;
	return 0;
}

/* strings.TrimSpace, in place on (*s, *n). */
void
lg_trim(const char **s, size_t *n)
{
	size_t k;

	while ((k = space_after(*s, *n)) > 0) {
		*s += k;
		*n -= k;
	}
	while ((k = space_before(*s, *n)) > 0)
		*n -= k;
}

int
lg_has_prefix(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

/* strings.Contains */
const char *
lg_find(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; i + k <= n; i++)
		if (s[i] == needle[0] && memcmp(s + i, needle, k) == 0)
			return s + i;
	return NULL;
}

/* pprof's isSpaceOrComment: blank after trimming, or a '#' line. */
int
lg_blank(const char *s, size_t n)
{
	lg_trim(&s, &n);
	return n == 0 || s[0] == '#';
}

int
lg_map_sentinel(const char *s, size_t n)
{
	return lg_find(s, n, "--- Memory map: ---") != NULL ||
	    lg_find(s, n, "MAPPED_LIBRARIES:") != NULL;
}

/* Go's underscoreOK: underscores only between digits or after a prefix. */
static int
underscore_ok(const char *s, size_t n)
{
	size_t	 i = 0;
	int	 saw = '^', hex = 0;

	if (n >= 1 && (s[0] == '-' || s[0] == '+')) {
		s++;
		n--;
	}
	if (n >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B' ||
	    s[1] == 'o' || s[1] == 'O' || s[1] == 'x' || s[1] == 'X')) {
		i = 2;
		saw = '0';
		hex = s[1] == 'x' || s[1] == 'X';
	}
	for (; i < n; i++) {
		if (is_digit(s[i]) || (hex && is_xdigit(s[i]))) {
			saw = '0';
			continue;
		}
		if (s[i] == '_') {
			if (saw != '0')
				return 0;
			saw = '_';
			continue;
		}
		if (saw == '_')
			return 0;
		saw = '!';
	}
	return saw != '_';
}

/*
 * strconv.ParseUint(s, base, 64) for base 0, 10 or 16: 0, or -1 on a
 * syntax error or overflow.
 */
int
lg_parse_uint(const char *s, size_t n, int base, uint64_t *out)
{
	const char	*s0 = s;
	size_t		 n0 = n, i;
	uint64_t	 v = 0, d;
	int		 unders = 0, base0 = base == 0;

	if (n == 0)
		return -1;
	if (base == 0) {
		base = 10;
		if (s[0] == '0') {
			if (n >= 3 && (s[1] == 'b' || s[1] == 'B'))
				base = 2, s += 2, n -= 2;
			else if (n >= 3 && (s[1] == 'o' || s[1] == 'O'))
				base = 8, s += 2, n -= 2;
			else if (n >= 3 && (s[1] == 'x' || s[1] == 'X'))
				base = 16, s += 2, n -= 2;
			else
				base = 8, s++, n--;
		}
	}
	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (c == '_' && base0) {
			unders = 1;
			continue;
		}
		if (is_digit(c))
			d = (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'z')
			d = (uint64_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'Z')
			d = (uint64_t)(c - 'A' + 10);
		else
			return -1;
		if (d >= (uint64_t)base)
			return -1;
		if (v > (UINT64_MAX - d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + d;
	}
	if (unders && !underscore_ok(s0, n0))
		return -1;
	*out = v;
	return 0;
}

/* strconv.ParseInt(s, base, 64). */
int
lg_parse_int(const char *s, size_t n, int base, int64_t *out)
{
	uint64_t	 u;
	int		 neg = 0;

	if (n > 0 && (s[0] == '+' || s[0] == '-')) {
		neg = s[0] == '-';
		s++;
		n--;
	}
	if (lg_parse_uint(s, n, base, &u) == -1)
		return -1;
	if (!neg && u > (uint64_t)INT64_MAX)
		return -1;
	if (neg && u > (uint64_t)INT64_MAX + 1)
		return -1;
	*out = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

/* A copy of [s, s + n) in the profile's arena. */
const char *
lg_str(struct legacy *L, const char *s, size_t n)
{
	return arena_strndup(L->a, s, n);
}

/* The model being built: addresses, locations, samples. */

uint64_t
lg_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static void
ltab_grow(struct legacy *L)
{
	size_t	 cap = L->ltcap ? L->ltcap * 2 : 1024, i, j;
	uint32_t *t;

	t = xcalloc(cap, sizeof(*t));
	for (i = 0; i < L->nlocs; i++) {
		for (j = lg_mix(L->locs[i].addr) & (cap - 1); t[j] != 0;
		    j = (j + 1) & (cap - 1))
			continue;
		t[j] = (uint32_t)i + 1;
	}
	free(L->ltab);
	L->ltab = t;
	L->ltcap = cap;
}

/* The location of addr, made when new: its index, or -1 past the limit. */
static int
loc_of(struct legacy *L, uint64_t addr, size_t *out)
{
	size_t	 j;
	uint32_t e;

	if ((L->nlocs + 1) * 2 > L->ltcap)
		ltab_grow(L);
	for (j = lg_mix(addr) & (L->ltcap - 1); (e = L->ltab[j]) != 0;
	    j = (j + 1) & (L->ltcap - 1))
		if (L->locs[e - 1].addr == addr) {
			*out = e - 1;
			return 0;
		}
	if (L->nlocs >= L->lim->max_locations || L->nlocs >= UINT32_MAX - 1)
		return lg_fail(L, DIAG_LIMIT, "more than %zu locations (raise "
		    "with --max-locations)", L->lim->max_locations);
	if (L->nlocs == L->caplocs) {
		L->caplocs = L->caplocs ? L->caplocs * 2 : 1024;
		L->locs = xreallocarray(L->locs, L->caplocs, sizeof(*L->locs));
	}
	memset(&L->locs[L->nlocs], 0, sizeof(*L->locs));
	L->locs[L->nlocs].addr = addr;
	L->ltab[j] = (uint32_t)(L->nlocs + 1);
	*out = L->nlocs++;
	return 0;
}

void
lg_addr_push(struct legacy *L, uint64_t a)
{
	if (L->naddrs == L->capaddrs) {
		L->capaddrs = L->capaddrs ? L->capaddrs * 2 : 256;
		L->addrs = xreallocarray(L->addrs, L->capaddrs,
		    sizeof(*L->addrs));
	}
	L->addrs[L->naddrs++] = a;
}

/*
 * pprof's parseHexAddresses: every "0x" and lowercase hex digits in
 * [s, s + n), appended to L->addrs.  -1 when one overflows 64 bits.
 */
int
lg_hex_addrs(struct legacy *L, const char *s, size_t n)
{
	size_t	 i = 0, j;
	uint64_t a;
	char	 x[EXCERPT + 4];

	while (i + 2 < n) {
		if (s[i] != '0' || s[i + 1] != 'x' || !is_lhex(s[i + 2])) {
			i++;
			continue;
		}
		for (j = i + 2; j < n && is_lhex(s[j]); j++)
			continue;
		if (lg_parse_uint(s + i + 2, j - i - 2, 16, &a) == -1)
			return lg_fail(L, DIAG_CORRUPT, "address '%s' does not "
			    "fit in 64 bits",
			    lg_excerpt(x, sizeof(x), s + i, j - i));
		if (L->naddrs >= L->lim->max_depth)
			return lg_fail(L, DIAG_LIMIT, "stack of more than %zu "
			    "frames (raise with --max-depth)",
			    L->lim->max_depth);
		lg_addr_push(L, a);
		i = j;
	}
	return 0;
}

/*
 * A sample of the addresses in L->addrs (emptied), adjusted by -1 as
 * adj says, with nv values.
 */
int
lg_add_sample(struct legacy *L, enum adjust adj, const int64_t *v, size_t nv)
{
	struct lsample	*s;
	size_t		 i, li = 0;
	uint64_t	 a;

	if (L->naddrs > L->lim->max_depth)
		return lg_fail(L, DIAG_LIMIT, "stack of %zu frames, more than "
		    "the limit of %zu (raise with --max-depth)", L->naddrs,
		    L->lim->max_depth);
	if (L->nsamples == L->capsamples) {
		L->capsamples = L->capsamples ? L->capsamples * 2 : 256;
		L->samples = xreallocarray(L->samples, L->capsamples,
		    sizeof(*L->samples));
	}
	while (L->capframes - L->nframes < L->naddrs) {
		L->capframes = L->capframes ? L->capframes * 2 : 4096;
		L->frames = xreallocarray(L->frames, L->capframes,
		    sizeof(*L->frames));
	}
	s = &L->samples[L->nsamples];
	memset(s, 0, sizeof(*s));
	s->off = L->nframes;
	for (i = 0; i < L->naddrs; i++) {
		a = L->addrs[i];
		if (adj == ADJ_ALL || (adj == ADJ_CALLERS && i > 0))
			a--;
		if (loc_of(L, a, &li) == -1)
			return L_ERROR;
		L->frames[L->nframes++] = li;
	}
	s->n = L->naddrs;
	memcpy(s->v, v, nv * sizeof(*v));
	L->nsamples++;
	L->naddrs = 0;
	return 0;
}

void
lg_set_types(struct legacy *L, const char *const *tu, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		L->types[i] = tu[2 * i];
		L->units[i] = tu[2 * i + 1];
	}
	L->ntypes = n;
}

/* a * b, or -1 when it overflows int64. */
int
lg_mul(int64_t a, int64_t b, int64_t *out)
{
	return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}



/* Frames pprof drops from legacy profiles (addLegacyFrameInfo). */

static const char alloc_rx[] = "calloc|cfree|malloc|free|memalign|"
    "do_memalign|(__)?posix_memalign|pvalloc|valloc|realloc|"
    "tcmalloc::.*|tc_calloc|tc_cfree|tc_malloc|tc_free|tc_memalign|"
    "tc_posix_memalign|tc_pvalloc|tc_valloc|tc_realloc|tc_new|tc_delete|"
    "tc_newarray|tc_deletearray|tc_new_nothrow|tc_newarray_nothrow|"
    "malloc_zone_malloc|malloc_zone_calloc|malloc_zone_valloc|"
    "malloc_zone_realloc|malloc_zone_memalign|malloc_zone_free|"
    "runtime\\..*|BaseArena::.*|(::)?do_malloc_no_errno|"
    "(::)?do_malloc_pages|(::)?do_malloc|DoSampledAllocation|"
    "MallocedMemBlock::MallocedMemBlock|_M_allocate|"
    "__builtin_(vec_)?delete|__builtin_(vec_)?new|"
    "__gnu_cxx::new_allocator::allocate|__libc_malloc|"
    "__malloc_alloc_template::allocate|allocate|cpp_alloc|"
    "operator new(\\[\\])?|simple_alloc::allocate";
static const char alloc_skip_rx[] =
    "runtime\\.panic|runtime\\.reflectcall|runtime\\.call[0-9]*";
static const char cpu_rx[] = "ProfileData::Add|ProfileData::prof_handler|"
    "CpuProfiler::prof_handler|__pthread_sighandler|__restore";
static const char lock_rx[] = "RecordLockProfileData|"
    "(base::)?RecordLockProfileData.*|(base::)?SubmitMutexProfileData.*|"
    "(base::)?SubmitSpinLockProfileData.*|(base::Mutex::)?AwaitCommon.*|"
    "(base::Mutex::)?Unlock.*|(base::Mutex::)?UnlockSlow.*|"
    "(base::Mutex::)?ReaderUnlock.*|(base::MutexLock::)?~MutexLock.*|"
    "(Mutex::)?AwaitCommon.*|(Mutex::)?Unlock.*|(Mutex::)?UnlockSlow.*|"
    "(Mutex::)?ReaderUnlock.*|(MutexLock::)?~MutexLock.*|"
    "(SpinLock::)?Unlock.*|(SpinLock::)?SlowUnlock.*|"
    "(SpinLockHolder::)?~SpinLockHolder.*";

static int
types_are(const struct legacy *L, const char *const *t, size_t n)
{
	size_t i;

	if (L->ntypes != n)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(L->types[i], t[i]) != 0)
			return 0;
	return 1;
}

static void
frame_info(struct legacy *L)
{
	static const char *const heapz[5][4] = {
		{ "allocations", "size" },
		{ "objects", "space" },
		{ "inuse_objects", "inuse_space" },
		{ "alloc_objects", "alloc_space" },
		{ "alloc_objects", "alloc_space", "inuse_objects",
		    "inuse_space" },
	};
	static const size_t nheapz[5] = { 2, 2, 2, 2, 4 };
	static const char *const contentionz[2] = { "contentions", "delay" };
	size_t i;

	for (i = 0; i < 5; i++)
		if (types_are(L, heapz[i], nheapz[i])) {
			L->p->drop_frames = alloc_rx;
			L->p->keep_frames = alloc_skip_rx;
			return;
		}
	L->p->drop_frames = types_are(L, contentionz, 2) ? lock_rx : cpu_rx;
}

/* The model. */

/* Copy what was read into the profile: only the locations samples name. */
static void
build(struct legacy *L)
{
	struct profile		*p = L->p;
	struct pf_valuetype	*st;
	struct pf_mapping	*pm;
	struct pf_function	*pf;
	struct pf_location	*pl;
	struct pf_line		*ln;
	struct pf_sample	*ps;
	struct pf_label		*lb;
	const struct pf_location **lp;
	int64_t			*vals;
	struct lloc		*l;
	size_t			 i, j, nused = 0;

	st = arena_calloc(L->a, L->ntypes, sizeof(*st));
	for (i = 0; i < L->ntypes; i++) {
		st[i].type = L->types[i];
		st[i].unit = L->units[i];
	}
	p->sample_types = st;
	p->nsample_types = L->ntypes;

	pm = arena_calloc(L->a, L->nmaps, sizeof(*pm));
	for (i = 0; i < L->nmaps; i++) {
		pm[i].id = i + 1;
		pm[i].memory_start = L->maps[i].start;
		pm[i].memory_limit = L->maps[i].limit;
		pm[i].file_offset = L->maps[i].offset;
		pm[i].filename = L->maps[i].file;
		pm[i].build_id = L->maps[i].build_id;
	}
	p->mappings = pm;
	p->nmappings = L->nmaps;

	pf = arena_calloc(L->a, L->nfns, sizeof(*pf));
	for (i = 0; i < L->nfns; i++) {
		pf[i].id = i + 1;
		pf[i].name = pf[i].system_name = L->fns[i].name;
		pf[i].filename = L->fns[i].file;
	}
	p->functions = pf;
	p->nfunctions = L->nfns;

	/* Locations in the order the samples name them, as pprof numbers them. */
	pl = arena_calloc(L->a, L->nlocs, sizeof(*pl));
	ln = arena_calloc(L->a, L->nfns > 0 ? L->nlocs : 0, sizeof(*ln));
	for (i = 0; i < L->nsamples; i++)
		for (j = 0; j < L->samples[i].n; j++) {
			l = &L->locs[L->frames[L->samples[i].off + j]];
			if (l->out != 0)
				continue;
			l->out = ++nused;
			pl[nused - 1].id = nused;
			pl[nused - 1].mapping = l->map ? &pm[l->map - 1] : NULL;
			/* Java's addresses are not kept (pprof's Aggregate). */
			pl[nused - 1].address = L->java ? 0 : l->addr;
			if (l->fn != 0) {
				ln[nused - 1].function = &pf[l->fn - 1];
				ln[nused - 1].line = l->line;
				pl[nused - 1].lines = &ln[nused - 1];
				pl[nused - 1].nlines = 1;
			}
		}
	p->locations = pl;
	p->nlocations = nused;

	ps = arena_calloc(L->a, L->nsamples, sizeof(*ps));
	vals = arena_alloc(L->a, L->nsamples * L->ntypes, sizeof(*vals));
	for (i = 0; i < L->nsamples; i++) {
		struct lsample *s = &L->samples[i];

		lp = arena_alloc(L->a, s->n, sizeof(*lp));
		for (j = 0; j < s->n; j++)
			lp[j] = &pl[L->locs[L->frames[s->off + j]].out - 1];
		ps[i].locs = lp;
		ps[i].nlocs = s->n;
		ps[i].values = &vals[i * L->ntypes];
		memcpy(ps[i].values, s->v, L->ntypes * sizeof(*vals));
		if (s->has_bytes) {
			lb = arena_calloc(L->a, 1, sizeof(*lb));
			lb->key = "bytes";
			lb->num = s->bytes;
			lb->num_unit = "";
			ps[i].labels = lb;
			ps[i].nlabels = 1;
		}
	}
	p->samples = ps;
	p->nsamples = L->nsamples;
	frame_info(L);
}

static void
legacy_release(struct legacy *L)
{
	free(L->samples);
	free(L->frames);
	free(L->locs);
	free(L->ltab);
	free(L->maps);
	free(L->fns);
	free(L->ftab);
	free(L->addrs);
}

struct profile *
legacy_decode(const void *buf, size_t len, const char *path,
    const struct pd_limits *lim, struct diag *d)
{
	static int (*const parsers[])(struct legacy *, const char *,
	    size_t) = {
		lg_parse_heap, lg_parse_gocount, lg_parse_thread,
		lg_parse_contention, lg_parse_java,
	};
	struct pd_limits deflim;
	struct legacy	 L;
	size_t		 i, n;
	int		 rc = L_UNRECOGNIZED;
	char		 x[EXCERPT + 4];

	if (lim == NULL) {
		pd_limits_default(&deflim);
		lim = &deflim;
	}
	for (i = 0; i <= sizeof(parsers) / sizeof(parsers[0]); i++) {
		memset(&L, 0, sizeof(L));
		L.d = d;
		L.lim = lim;
		L.p = profile_new();
		L.a = L.p->arena;
		L.p->path = arena_strndup(L.a, path, strlen(path));
		L.p->format = PF_PPROF;
		L.what = "legacy profile";
		if (i == 0)
			rc = lg_parse_cpu(&L, buf, len);
		else
			rc = parsers[i - 1](&L, buf, len);
		if (rc == L_OK)
			build(&L);
		legacy_release(&L);
		if (rc == L_OK)
			return L.p;
		profile_free(L.p);
		if (rc == L_ERROR)
			return NULL;
	}
	for (n = 0; n < len && ((const char *)buf)[n] != '\n'; n++)
		continue;
	diag_set(d, DIAG_LEGACY, -1, "not a legacy format pprof reads (it "
	    "starts '%s')", lg_excerpt(x, sizeof(x), buf, n));
	return NULL;
}


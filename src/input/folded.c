/*
 * The folded-stack decoder: text -> struct profile.  Each line is
 * "frame;frame;frame COUNT", root first, split at its last run of blanks
 * so that frame names may hold spaces (py-spy writes "handle (app.py:42)").
 * A word-at-a-time scan finds the first control byte, then one pass reads
 * the lines: they are found with memchr, frame names are interned in an
 * open-addressing hash table as they are met (function and location ids
 * follow the order of first appearance, so the model does not depend on
 * the hash), and each stack is written leaf first into the profile's
 * arena.  No allocation per line but that bump.  Every read is bounded by
 * the end of the buffer.  It rejects, never repairs: the first malformed
 * line is reported with its 1-based number.  No I/O here.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "input/folded.h"
#include "profdiff.h"
#include "model/profile.h"
#include "support/hash.h"
#include "support/xmalloc.h"

/*
 * While a profile is read, each stack holds location indices where the
 * model wants pointers, since the location array is allocated only once
 * the number of distinct names is known; the slots are rewritten in place
 * at the end.
 */
_Static_assert(sizeof(uintptr_t) == sizeof(const struct pf_location *),
    "a location index must fit in a location pointer's slot");

#define EXCERPT		40	/* bytes of input quoted in a message */
#define ONES		0x0101010101010101ULL
#define HIGHS		0x8080808080808080ULL

/* What is wrong with a line, as split_line() finds it. */
enum lerr {
	L_OK,
	L_BLANK,		/* nothing but blanks: skipped */
	L_NOCOUNT,
	L_NOFRAMES,
	L_NAN,
	L_NEGATIVE,
	L_TOOBIG,
	L_TWOCOUNTS,
};

struct fline {
	const unsigned char *stack, *stack_end;	/* frames, root first */
	const unsigned char *count, *count_end;	/* the last token */
	const unsigned char *prev;		/* L_TWOCOUNTS: the first */
	int64_t		 value;
};

struct fname {
	size_t		 off;		/* into namebuf */
	size_t		 len;
	uint64_t	 hash;
};

/* A frame of the line being read, and of the one before it. */
struct fframe {
	size_t		 idx;		/* name index */
	size_t		 end;		/* offset of its end in the stack */
};

struct fsample {
	uintptr_t	*locs;		/* location indices, leaf first */
	size_t		 nlocs;
	int64_t		 count;
};

struct folded {
	struct arena	*a;
	struct diag	*d;
	size_t		 lineno;
	size_t		 max_depth;
	size_t		 max_names;
	const char	*names_option;	/* the option that raises max_names */

	struct fname	*names;
	size_t		 nnames, capnames;
	char		*namebuf;	/* the names, NUL-terminated, packed */
	size_t		 namelen, namecap;
	uint32_t	*table;		/* name index + 1; 0 is empty */
	size_t		 tcap;		/* a power of two */

	struct fsample	*samples;
	size_t		 nsamples, capsamples;
	struct fframe	*frames;	/* one line's stack, root first */
	size_t		 capframes;
	const unsigned char *prev;	/* the previous line's stack */
	size_t		 prevlen, nprev;
};

static int
is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

static int
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* A UTF-8 byte order mark is encoding, not a frame name. */
static const unsigned char *
skip_bom(const unsigned char *buf, size_t len)
{
	if (len >= 3 && buf[0] == 0xef && buf[1] == 0xbb && buf[2] == 0xbf)
		return buf + 3;
	return buf;
}

/* Does the word at p hold a byte under 0x20 or a DEL? */
static int
word_suspect(const unsigned char *p)
{
	uint64_t w, x;

	memcpy(&w, p, 8);
	x = w ^ (ONES * 0x7f);
	return ((((w - ONES * 0x20) & ~w) | ((x - ONES) & ~x)) & HIGHS) != 0;
}

/*
 * The offset of the first byte folded text may not hold, or len: a
 * control byte other than tab, LF and CR, or DEL; with strict_cr also a
 * CR that does not end a line (CRLF files are fine, a lone CR is not).
 * Words are looked at byte by byte only when suspect, which in folded
 * text means the LF at the end of a line.
 */
static size_t
first_control(const unsigned char *buf, size_t len, int strict_cr)
{
	size_t		 i = 0, j, n;
	unsigned char	 c;

	for (;;) {
		if (len - i >= 32 && !(word_suspect(buf + i) |
		    word_suspect(buf + i + 8) | word_suspect(buf + i + 16) |
		    word_suspect(buf + i + 24))) {
			i += 32;
			continue;
		}
		if (len - i >= 8) {
			if (!word_suspect(buf + i)) {
				i += 8;
				continue;
			}
			n = 8;
		} else if ((n = len - i) == 0)
			return len;
		for (j = i; j < i + n; j++) {
			c = buf[j];
			if (c >= 0x20 && c != 0x7f)
				continue;
			if (c == '\t' || c == '\n')
				continue;
			if (c == '\r' && (!strict_cr || j + 1 == len ||
			    buf[j + 1] == '\n'))
				continue;
			return j;
		}
		i += n;
	}
}

/* Parse a decimal count; 0 or an L_* error. */
static enum lerr
parse_count(const unsigned char *s, const unsigned char *e, int64_t *out)
{
	const unsigned char	*p;
	int64_t			 v = 0;

	if (*s == '-' && e - s > 1) {
		for (p = s + 1; p < e && is_digit(*p); p++)
			continue;
		return p == e ? L_NEGATIVE : L_NAN;
	}
	for (p = s; p < e; p++)
		if (!is_digit(*p))
			return L_NAN;
	for (p = s; p < e; p++) {
		if (v > (INT64_MAX - (*p - '0')) / 10)
			return L_TOOBIG;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return L_OK;
}

/*
 * Split the line [s, e) (without its LF) into stack and count, and check
 * the count.  Trailing CRs and blanks are ignored.  The frames are not
 * looked at here.
 */
static enum lerr
split_line(const unsigned char *s, const unsigned char *e, struct fline *l)
{
	const unsigned char	*c, *t;
	enum lerr		 r;

	while (e > s && (e[-1] == '\r' || is_blank(e[-1])))
		e--;
	if (e == s)
		return L_BLANK;
	for (c = e; c > s && !is_blank(c[-1]); c--)
		continue;
	l->count = c;
	l->count_end = e;
	if (c == s) {
		/* One token: a count with no stack, or a stack with no count. */
		return parse_count(c, e, &l->value) == L_OK ? L_NOFRAMES :
		    L_NOCOUNT;
	}
	if (!is_digit(*c) && *c != '-' && *c != '+')
		return L_NOCOUNT;
	if ((r = parse_count(c, e, &l->value)) != L_OK)
		return r;
	for (t = c; t > s && is_blank(t[-1]); t--)
		continue;
	if (t == s)
		return L_NOFRAMES;
	l->stack = s;
	l->stack_end = t;
	/* "stack 12 15": a differential file's base and new counts. */
	for (c = t; c > s && is_digit(c[-1]); c--)
		continue;
	if (c < t && c > s && is_blank(c[-1])) {
		l->prev = c;
		return L_TWOCOUNTS;
	}
	return L_OK;
}

/* Does the stack [s, e) have an empty frame name? */
static int
has_empty_frame(const unsigned char *s, const unsigned char *e)
{
	const unsigned char *q;

	if (*s == ';' || e[-1] == ';')
		return 1;
	for (q = s; (q = memchr(q, ';', (size_t)(e - q))) != NULL; q++)
		if (q + 1 < e && q[1] == ';')
			return 1;
	return 0;
}

int
folded_sniff(const void *vbuf, size_t len)
{
	const unsigned char	*buf = vbuf, *p, *end, *nl;
	struct fline		 l;
	enum lerr		 r;
	size_t			 bad;

	if (len == 0)
		return 0;
	if ((bad = first_control(buf, len, 0)) == len)
		return 1;
	/*
	 * Not all text: still folded stacks if a well-formed stack line
	 * comes first, before the first control byte.
	 */
	end = buf + bad;
	for (p = skip_bom(buf, len); p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return 0;
		if ((r = split_line(p, nl, &l)) == L_BLANK)
			continue;
		return r == L_OK && !has_empty_frame(l.stack, l.stack_end);
	}
	return 0;
}

/*
 * Quote [s, e) in dst for a message: at most EXCERPT bytes, cut at a
 * UTF-8 character boundary, with "..." when cut.
 */
static const char *
excerpt(char *dst, size_t dstlen, const unsigned char *s,
    const unsigned char *e)
{
	size_t n = (size_t)(e - s);

	if (n > EXCERPT) {
		n = EXCERPT;
		while (n > 0 && (s[n] & 0xc0) == 0x80)
			n--;
		snprintf(dst, dstlen, "%.*s...", (int)n, (const char *)s);
	} else
		snprintf(dst, dstlen, "%.*s", (int)n, (const char *)s);
	return dst;
}

/* Fill the diag for the current line and return -1. */
static int
line_error(struct folded *f, enum diag_code code, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

static int
line_error(struct folded *f, enum diag_code code, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[224];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return diag_set(f->d, code, -1, "line %zu: %s", f->lineno, msg);
}

/* Report a line split_line() refused. */
static int
split_error(struct folded *f, enum lerr r, const struct fline *l)
{
	char		 x[EXCERPT + 4], y[EXCERPT + 4];

	/*
	 * Text that is not folded stacks at all (JSON, a README, a log)
	 * fails on its first stack line, which has no count at its end:
	 * say that it is no profile, and what is read.
	 */
	if (f->nsamples == 0 && (r == L_NOCOUNT || r == L_NAN))
		return diag_set(f->d, DIAG_NOTPROFILE, -1, "line %zu ends in "
		    "'%s', not in a count; profdiff reads pprof profiles "
		    "(protobuf, gzipped or not), perf script output and "
		    "folded stacks ('frame;frame;frame COUNT' per line)",
		    f->lineno,
		    excerpt(x, sizeof(x), l->count, l->count_end));
	switch (r) {
	case L_NOCOUNT:
		return line_error(f, DIAG_FOLDED, "no count at the end "
		    "(the line ends in '%s')",
		    excerpt(x, sizeof(x), l->count, l->count_end));
	case L_NOFRAMES:
		return line_error(f, DIAG_FOLDED,
		    "no frames before the count");
	case L_NAN:
		return line_error(f, DIAG_FOLDED, "count '%s' is not a "
		    "non-negative integer",
		    excerpt(x, sizeof(x), l->count, l->count_end));
	case L_NEGATIVE:
		return line_error(f, DIAG_FOLDED, "count '%s' is negative",
		    excerpt(x, sizeof(x), l->count, l->count_end));
	case L_TOOBIG:
		return line_error(f, DIAG_FOLDED, "count '%s' is too large "
		    "(more than %lld)",
		    excerpt(x, sizeof(x), l->count, l->count_end),
		    (long long)INT64_MAX);
	case L_TWOCOUNTS:
		return line_error(f, DIAG_FOLDED, "two counts '%s %s': this "
		    "looks like a two-column differential folded file "
		    "(stack base new); profdiff reads one count per line, "
		    "so give base and new as two files",
		    excerpt(x, sizeof(x), l->prev, l->stack_end),
		    excerpt(y, sizeof(y), l->count, l->count_end));
	default:
		return line_error(f, DIAG_FOLDED, "malformed line");
	}
}

static void
table_grow(struct folded *f)
{
	size_t	 i, j, mask, cap = f->tcap * 2;
	uint32_t *t;

	t = xcalloc(cap, sizeof(*t));
	mask = cap - 1;
	for (i = 0; i < f->nnames; i++) {
		for (j = f->names[i].hash & mask; t[j] != 0; j = (j + 1) & mask)
			continue;
		t[j] = (uint32_t)i + 1;
	}
	free(f->table);
	f->table = t;
	f->tcap = cap;
}

/* Is the stored name a equal to the n bytes at b? */
static int
same_name(const char *a, const unsigned char *b, size_t n)
{
	uint64_t x, y;

	for (; n >= 8; a += 8, b += 8, n -= 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return 0;
	}
	return memcmp(a, b, n) == 0;
}

/* The index of the name [s, s + n), added if new; -1 past the limit. */
static int
intern(struct folded *f, const unsigned char *s, size_t n, size_t *out)
{
	struct fname	*fn;
	uint64_t	 h = hash_bytes(s, n);
	size_t		 i, mask = f->tcap - 1;
	uint32_t	 e;

	for (i = h & mask; (e = f->table[i]) != 0; i = (i + 1) & mask) {
		fn = &f->names[e - 1];
		if (fn->hash == h && fn->len == n &&
		    same_name(f->namebuf + fn->off, s, n)) {
			*out = e - 1;
			return 0;
		}
	}
	if (f->nnames >= f->max_names)
		return line_error(f, DIAG_LIMIT, "more than %zu distinct "
		    "frame names (raise with %s)", f->max_names,
		    f->names_option);
	if (f->nnames == f->capnames) {
		f->capnames = f->capnames ? f->capnames * 2 : 1024;
		f->names = xreallocarray(f->names, f->capnames,
		    sizeof(*f->names));
	}
	/* Packed together, the names stay in cache while lines are read. */
	while (f->namecap - f->namelen <= n) {
		f->namecap = f->namecap ? f->namecap * 2 : 65536;
		f->namebuf = xreallocarray(f->namebuf, f->namecap, 1);
	}
	fn = &f->names[f->nnames];
	fn->off = f->namelen;
	memcpy(f->namebuf + f->namelen, s, n);
	f->namebuf[f->namelen + n] = '\0';
	f->namelen += n + 1;
	fn->len = n;
	fn->hash = h;
	f->table[i] = (uint32_t)(f->nnames + 1);
	*out = f->nnames++;
	if (f->nnames * 2 > f->tcap)
		table_grow(f);
	return 0;
}

/* Count the frames of a stack, for a message. */
static size_t
count_frames(const unsigned char *s, const unsigned char *e)
{
	size_t n = 1;

	for (; (s = memchr(s, ';', (size_t)(e - s))) != NULL; s++)
		n++;
	return n;
}

/* The length of the common prefix of a and b. */
static size_t
common_prefix(const unsigned char *a, size_t an, const unsigned char *b,
    size_t bn)
{
	size_t		 i = 0, n = an < bn ? an : bn;
	uint64_t	 x, y;

	for (; n - i >= 8; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * Intern the frames of one well-formed line and add its sample.  Folded
 * files are mostly sorted, so a line tends to share its first frames
 * with the line before: those whole frames are taken from it, and only
 * the rest is looked up.
 */
static int
add_stack(struct folded *f, const struct fline *l)
{
	const unsigned char	*s = l->stack, *q, *fe;
	struct fsample		*fs;
	char			 x[EXCERPT + 4];
	size_t			 nf = 0, idx = 0, i, len, common;

	len = (size_t)(l->stack_end - l->stack);
	if (f->prev != NULL) {
		common = common_prefix(f->prev, f->prevlen, s, len);
		while (nf < f->nprev && (f->frames[nf].end < common ||
		    (f->frames[nf].end == common &&
		    (common == len || s[common] == ';'))))
			nf++;
		if (nf > 0)
			s += f->frames[nf - 1].end + 1;
	}
	while (nf == 0 || f->frames[nf - 1].end < len) {
		q = memchr(s, ';', (size_t)(l->stack_end - s));
		fe = q != NULL ? q : l->stack_end;
		if (fe == s)
			return line_error(f, DIAG_FOLDED, "frame %zu of '%s' "
			    "has an empty name", nf + 1,
			    excerpt(x, sizeof(x), l->stack, l->stack_end));
		if (nf == f->max_depth)
			return line_error(f, DIAG_LIMIT, "stack of %zu "
			    "frames, more than the limit of %zu (raise with "
			    "--max-depth)", count_frames(l->stack,
			    l->stack_end), f->max_depth);
		if (intern(f, s, (size_t)(fe - s), &idx) == -1)
			return -1;
		if (nf == f->capframes) {
			f->capframes = f->capframes ? f->capframes * 2 : 256;
			f->frames = xreallocarray(f->frames, f->capframes,
			    sizeof(*f->frames));
		}
		f->frames[nf].idx = idx;
		f->frames[nf++].end = (size_t)(fe - l->stack);
		if (q == NULL)
			break;
		s = q + 1;
	}
	f->prev = l->stack;
	f->prevlen = len;
	f->nprev = nf;
	if (f->nsamples == f->capsamples) {
		f->capsamples = f->capsamples ? f->capsamples * 2 : 1024;
		f->samples = xreallocarray(f->samples, f->capsamples,
		    sizeof(*f->samples));
	}
	fs = &f->samples[f->nsamples++];
	fs->locs = arena_alloc(f->a, nf, sizeof(*fs->locs));
	for (i = 0; i < nf; i++)
		fs->locs[i] = f->frames[nf - 1 - i].idx;
	fs->nlocs = nf;
	fs->count = l->value;
	return 0;
}

/* Build the model from the interned names and samples. */
static void
build(struct folded *f, struct profile *p)
{
	struct pf_valuetype	*st;
	struct pf_function	*fn;
	struct pf_location	*loc;
	struct pf_line		*ln;
	int64_t			*vals;
	char			*names;
	size_t			 i, j;

	st = arena_calloc(f->a, 1, sizeof(*st));
	st->type = "samples";
	st->unit = "count";
	p->sample_types = st;
	p->nsample_types = 1;

	names = arena_alloc(f->a, f->namelen, 1);
	memcpy(names, f->namebuf, f->namelen);
	fn = arena_calloc(f->a, f->nnames, sizeof(*fn));
	loc = arena_calloc(f->a, f->nnames, sizeof(*loc));
	ln = arena_calloc(f->a, f->nnames, sizeof(*ln));
	for (i = 0; i < f->nnames; i++) {
		fn[i].id = i + 1;
		fn[i].name = names + f->names[i].off;
		fn[i].system_name = fn[i].name;
		fn[i].filename = "";
		ln[i].function = &fn[i];
		loc[i].id = i + 1;
		loc[i].lines = &ln[i];
		loc[i].nlines = 1;
	}
	p->functions = fn;
	p->nfunctions = f->nnames;
	p->locations = loc;
	p->nlocations = f->nnames;

	p->samples = arena_calloc(f->a, f->nsamples, sizeof(*p->samples));
	vals = arena_alloc(f->a, f->nsamples, sizeof(*vals));
	for (i = 0; i < f->nsamples; i++) {
		struct fsample		 *fs = &f->samples[i];
		const struct pf_location **lp;

		/* Each slot's index becomes the pointer, in place. */
		lp = (const struct pf_location **)(void *)fs->locs;
		for (j = 0; j < fs->nlocs; j++)
			lp[j] = &loc[fs->locs[j]];
		vals[i] = fs->count;
		p->samples[i].locs = lp;
		p->samples[i].nlocs = fs->nlocs;
		p->samples[i].values = &vals[i];
	}
	p->nsamples = f->nsamples;
}

struct profile *
folded_decode(const void *vbuf, size_t len, const char *path,
    const struct pd_limits *lim, struct diag *d)
{
	const unsigned char	*buf = vbuf, *p, *end = buf + len, *eol, *nl;
	const unsigned char	*next;
	struct pd_limits	 deflim;
	struct profile		*pr;
	struct folded		 f;
	struct fline		 l;
	enum lerr		 r;
	size_t			 bad;
	int			 rc = -1;

	if (lim == NULL) {
		pd_limits_default(&deflim);
		lim = &deflim;
	}
	pr = profile_new();
	pr->path = arena_strndup(pr->arena, path, strlen(path));
	pr->format = PF_FOLDED;

	memset(&f, 0, sizeof(f));
	f.a = pr->arena;
	f.d = d;
	f.max_depth = lim->max_depth;
	f.max_names = lim->max_functions;
	f.names_option = "--max-functions";
	if (lim->max_locations < f.max_names) {
		f.max_names = lim->max_locations;
		f.names_option = "--max-locations";
	}
	if (f.max_names > UINT32_MAX - 1)
		f.max_names = UINT32_MAX - 1;
	f.tcap = 1024;
	f.table = xcalloc(f.tcap, sizeof(*f.table));

	bad = len == 0 ? 0 : first_control(buf, len, 1);
	for (p = skip_bom(buf, len); p < end; p = next) {
		f.lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		eol = nl != NULL ? nl : end;
		next = nl != NULL ? nl + 1 : end;
		if (bad < (size_t)(eol - buf)) {
			size_t col = bad - (size_t)(p - buf) + 1;

			if (buf[bad] == '\0')
				line_error(&f, DIAG_FOLDED, "NUL byte at "
				    "column %zu (folded stacks are text)", col);
			else if (buf[bad] == '\r')
				line_error(&f, DIAG_FOLDED, "carriage return "
				    "at column %zu does not end the line", col);
			else
				line_error(&f, DIAG_FOLDED, "control byte "
				    "0x%02x at column %zu (folded stacks are "
				    "text)", buf[bad], col);
			goto out;
		}
		if ((r = split_line(p, eol, &l)) == L_BLANK)
			continue;
		if (r != L_OK) {
			split_error(&f, r, &l);
			goto out;
		}
		if (add_stack(&f, &l) == -1)
			goto out;
	}
	if (f.nsamples == 0) {
		diag_set(d, DIAG_FOLDED, -1, "no stack lines: the text is %s",
		    len == 0 ? "empty" : "blank");
		goto out;
	}
	build(&f, pr);
	rc = 0;
out:
	free(f.names);
	free(f.namebuf);
	free(f.table);
	free(f.samples);
	free(f.frames);
	if (rc == -1) {
		profile_free(pr);
		return NULL;
	}
	return pr;
}

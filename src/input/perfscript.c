/*
 * The perf script decoder: text -> struct profile.  perf script prints
 * each sample as a header line, whose fields come in a fixed order, each
 * one there or not as -F asks (builtin-script.c,
 * perf_sample__fprintf_start()):
 *
 *	comm  pid/tid  [cpu]  secs.usecs:  period  event:  [ip sym+off (dso)]
 *
 * comm right-aligned to 16 columns and possibly holding blanks, a lone
 * number where perf prints only the thread id (its default) or only the
 * pid.  Recorded with -g, the frames follow on lines of their own, each
 * a tab, the address right-aligned to 16 columns, the symbol with
 * "+0xOFF" when -F symoff asks, and the dso in parentheses, leaf first,
 * and a blank line ends the sample; without -g, the one frame ends the
 * header line.
 *
 * A header is read from the left: the fewest words are taken as the
 * comm that leave a run of fields in perf's order with the time, or
 * with the thread id and the event, or with the thread id alone on the
 * line (a header over a call chain); a time is never part of a comm.  The same fields make the same model
 * whichever of them are printed:
 *
 *  - each event is a sample type (its name as perf prints it,
 *    "cpu-clock", "cycles:u") whose value is the sample's period, in
 *    nanoseconds for cpu-clock and task-clock, in events otherwise, or
 *    1 (a count) when the period is not printed; beside it, a count of
 *    its samples, "samples" when the file has one event and
 *    "EVENT_samples" for each when it has several, so that the
 *    statistics have sample counts;
 *  - comm (a string), pid and tid (numbers) are labels;
 *  - each frame is a location: its address, a mapping per dso (the
 *    dso's name as perf prints it, the path or "[kernel.kallsyms]"), and
 *    a function named by its symbol, without the offset; a symbol perf
 *    prints as [unknown] gives a location with no function, which the
 *    core names by its mapping ("[libc.so.6]"), as pprof names an
 *    unsymbolized location;
 *  - a kernel frame (dso [kernel.kallsyms], or an address in the upper
 *    half of the 64-bit space, the kernel's on every 64-bit Linux) has
 *    "_[k]" after its function name, as stackcollapse-perf.pl and
 *    async-profiler mark kernel frames; with no dso it is put in
 *    [kernel.kallsyms];
 *  - the duration is from the first sample's time to the last's; perf's
 *    clock is not the wall clock, so the profile has no start time.
 *
 * Strings, locations, stacks, label sets and values are interned as
 * they are met, so that a sample costs three indices until the model
 * is built.  Every read is bounded by the end of the line.  It rejects,
 * never repairs: the first malformed line is reported with its number.
 * No I/O here.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "input/perfscript.h"
#include "profdiff.h"
#include "model/profile.h"
#include "support/hash.h"
#include "support/xmalloc.h"

#define EXCERPT		40	/* bytes of input quoted in a message */
#define MAXTOK		32	/* words of a header looked at */
#define MAXCOMM		16	/* words a comm may take (it has 15 bytes) */
#define MAXEVENTS	(PD_MAX_SAMPLE_TYPES / 2)
#define SNIFF_LINES	64	/* lines looked at for the first sample */
#define KERNEL_DSO	"[kernel.kallsyms]"
#define KERNEL_MARK	"_[k]"

/* Interning: byte strings to dense indices, in order of first meeting. */

struct irec {
	size_t		 off;		/* into pool */
	size_t		 len;
	uint64_t	 hash;
};

struct intern {
	unsigned char	*pool;		/* the records, each NUL-terminated
					   and aligned to 8 bytes */
	size_t		 plen, pcap;
	struct irec	*recs;
	size_t		 n, cap;
	uint32_t	*tab;		/* record index + 1; 0 is empty */
	size_t		 tcap;		/* a power of two */
};

static void
intern_grow(struct intern *t)
{
	size_t	 i, j, cap = t->tcap ? t->tcap * 2 : 256, mask = cap - 1;
	uint32_t *tab;

	tab = xcalloc(cap, sizeof(*tab));
	for (i = 0; i < t->n; i++) {
		for (j = t->recs[i].hash & mask; tab[j] != 0; j = (j + 1) & mask)
			continue;
		tab[j] = (uint32_t)i + 1;
	}
	free(t->tab);
	t->tab = tab;
	t->tcap = cap;
}

/*
 * The index of the n bytes at b, added if new (*added says so), or
 * SIZE_MAX when the table is full (4G records).
 */
static size_t
intern_add(struct intern *t, const void *vb, size_t n, int *added)
{
	const unsigned char	*b = vb;
	struct irec		*r;
	uint64_t		 h = hash_bytes(b, n);
	size_t			 i, mask;
	uint32_t		 e;

	*added = 0;
	if (t->tcap == 0)
		intern_grow(t);
	mask = t->tcap - 1;
	for (i = h & mask; (e = t->tab[i]) != 0; i = (i + 1) & mask) {
		r = &t->recs[e - 1];
		if (r->hash == h && r->len == n &&
		    (n == 0 || memcmp(t->pool + r->off, b, n) == 0))
			return e - 1;
	}
	if (t->n >= UINT32_MAX - 1)
		return SIZE_MAX;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->recs = xreallocarray(t->recs, t->cap, sizeof(*t->recs));
	}
	/* Each record starts on 8 bytes, so that stacks read as words. */
	t->plen = (t->plen + 7) & ~(size_t)7;
	while (t->pcap < t->plen || t->pcap - t->plen <= n) {
		t->pcap = t->pcap ? t->pcap * 2 : 4096;
		t->pool = xreallocarray(t->pool, t->pcap, 1);
	}
	r = &t->recs[t->n];
	r->off = t->plen;
	r->len = n;
	r->hash = h;
	if (n > 0)
		memcpy(t->pool + t->plen, b, n);
	t->pool[t->plen + n] = '\0';
	t->plen += n + 1;
	t->tab[i] = (uint32_t)(t->n + 1);
	*added = 1;
	if (++t->n * 2 > t->tcap)
		intern_grow(t);
	return t->n - 1;
}

/* Record i's bytes (NUL-terminated), and its length in *n if not NULL. */
static const void *
intern_get(const struct intern *t, size_t i, size_t *n)
{
	if (n != NULL)
		*n = t->recs[i].len;
	return t->pool + t->recs[i].off;
}

static void
intern_release(struct intern *t)
{
	free(t->pool);
	free(t->recs);
	free(t->tab);
	memset(t, 0, sizeof(*t));
}

/* A location's key, interned as bytes. */
struct lockey {
	uint64_t	 ip;
	uint32_t	 dso;		/* dsos index + 1, or 0 */
	uint32_t	 fn;		/* fnames index + 1, or 0 */
};

/* A sample's labels' key: which are there, and their values. */
struct labkey {
	uint32_t	 comm;		/* comms index + 1, or 0 */
	uint32_t	 has;		/* HAS_PID | HAS_TID */
	int64_t		 pid, tid;
};
#define HAS_PID		1u
#define HAS_TID		2u

/* A sample's values' key: its event and its value. */
struct valkey {
	uint64_t	 event;
	int64_t		 value;
};

struct event {
	int		 has_period;	/* its samples print a period */
	size_t		 line;		/* its first sample's line */
	uint64_t	 nsamples;
	int64_t		 pmin, pmax;	/* its periods' range */
	double		 psum;		/* for their mean */
};

struct psample {
	uint32_t	 stack, value, labels;
};

/* One header line, read. */
struct hdr {
	const char	*comm, *comm_end;	/* NULL: no comm */
	unsigned	 has;			/* HAS_PID | HAS_TID */
	int64_t		 pid, tid;
	int		 has_time;
	int64_t		 time_ns;
	int		 has_period;
	int64_t		 period;
	const char	*ev, *ev_end;		/* NULL: no event */
	const char	*rest, *rest_end;	/* what follows the fields */
};

/* What reading a header gave. */
enum hres {
	H_OK,
	H_SKIP,		/* a side-band record (PERF_RECORD_*), not a sample */
	H_NOTHDR,
	H_BADPERIOD,
	H_BIGPERIOD,
};

struct tok {
	const char	*s, *e;
};

struct pscript {
	struct diag	*d;
	size_t		 lineno;
	size_t		 max_depth, max_locations, max_functions, max_strings;

	struct intern	 fnames, dsos, comms, events;
	struct intern	 locs;		/* struct lockey */
	struct intern	 stacks;	/* uint32_t location indices, leaf first */
	struct intern	 labels;	/* struct labkey */
	struct intern	 values;	/* struct valkey */
	struct event	*evs;
	size_t		 capevs;

	struct psample	*samples;
	size_t		 nsamples, capsamples;
	uint32_t	*frames;	/* the sample being read, leaf first */
	size_t		 nframes, capframes;
	char		*scratch;	/* a function name being built */
	size_t		 capscratch;

	/* The sample being read. */
	int		 in_sample;
	size_t		 cur_line;
	int		 cur_chain;	/* it has call chain lines */
	const char	*cur_rest, *cur_rest_end;	/* its header's rest */
	uint32_t	 cur_value, cur_labels;

	int		 any_chain;	/* some sample has a call chain */
	size_t		 first_bare;	/* first sample with no frame: line */
	int		 have_time;
	int64_t		 tmin, tmax;
};

/* Messages. */

/*
 * Quote [s, e) in dst for a message: at most EXCERPT bytes, cut at a
 * UTF-8 character boundary and before any control byte, "..." when cut.
 */
static const char *
excerpt(char *dst, size_t dstlen, const char *s, const char *e)
{
	size_t n = (size_t)(e - s), k, i;

	k = n > EXCERPT ? EXCERPT : n;
	for (i = 0; i < k; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			break;
	if (i < n)
		while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
			i--;
	snprintf(dst, dstlen, "%.*s%s", (int)i, s, i < n ? "..." : "");
	return dst;
}

/* Fill the diag for the line being read and return -1. */
static int
fail(struct pscript *ps, enum diag_code code, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

static int
fail(struct pscript *ps, enum diag_code code, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[224];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return diag_set(ps->d, code, -1, "line %zu: %s", ps->lineno, msg);
}

/* Words. */

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int
all_digits(const char *s, const char *e)
{
	if (s == e)
		return 0;
	for (; s < e; s++)
		if (!is_digit(*s))
			return 0;
	return 1;
}

/* An address: 1 to 16 hex digits, as perf prints them (no 0x). */
static int
parse_hex(const char *s, const char *e, uint64_t *out)
{
	uint64_t v = 0;

	if (s == e || e - s > 16)
		return 0;
	for (; s < e; s++) {
		if (hex_val(*s) < 0)
			return 0;
		v = v << 4 | (uint64_t)hex_val(*s);
	}
	*out = v;
	return 1;
}

/* A decimal integer, optionally negative: 1, or 0 if not or too large. */
static int
parse_int(const char *s, const char *e, int64_t *out)
{
	int64_t	 v = 0;
	int	 neg = s < e && *s == '-';

	if (neg)
		s++;
	if (!all_digits(s, e))
		return 0;
	for (; s < e; s++) {
		if (v > (INT64_MAX - (*s - '0')) / 10)
			return 0;
		v = v * 10 + (*s - '0');
	}
	*out = neg ? -v : v;
	return 1;
}

/* "pid", "tid" or "pid/tid". */
static int
tok_pidtid(const struct tok *t, struct hdr *h)
{
	const char *slash = memchr(t->s, '/', (size_t)(t->e - t->s));

	if (slash == NULL) {
		if (!parse_int(t->s, t->e, &h->tid))
			return 0;
		h->has = HAS_TID;
		return 1;
	}
	if (!parse_int(t->s, slash, &h->pid) ||
	    !parse_int(slash + 1, t->e, &h->tid))
		return 0;
	h->has = HAS_PID | HAS_TID;
	return 1;
}

/* "[003]" */
static int
tok_cpu(const struct tok *t)
{
	return t->e - t->s >= 3 && t->s[0] == '[' && t->e[-1] == ']' &&
	    all_digits(t->s + 1, t->e - 1);
}

/* "3377.372694:" (or with --ns, nine digits): the time in *ns. */
static int
tok_time(const struct tok *t, int64_t *ns)
{
	const char	*dot, *p;
	int64_t		 secs, frac = 0;
	int		 n = 0;

	if (t->e - t->s < 4 || t->e[-1] != ':' ||
	    (dot = memchr(t->s, '.', (size_t)(t->e - t->s))) == NULL ||
	    !all_digits(t->s, dot) || !all_digits(dot + 1, t->e - 1))
		return 0;
	if (!parse_int(t->s, dot, &secs) || secs > INT64_MAX / 1000000000 - 1)
		return 0;
	for (p = dot + 1; p < t->e - 1 && n < 9; p++, n++)
		frac = frac * 10 + (*p - '0');
	for (; n < 9; n++)
		frac *= 10;
	*ns = secs * 1000000000 + frac;
	return 1;
}

/* "cpu-clock:", "cycles:u:", "sched:sched_switch:": a name, then ':'. */
static int
tok_event(const struct tok *t)
{
	char c = *t->s;

	return t->e - t->s >= 2 && t->e[-1] == ':' && ((c >= 'a' &&
	    c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_');
}

/* The words of [s, e), at most max; *more says there were others. */
static size_t
tokenize(const char *s, const char *e, struct tok *t, size_t max, int *more)
{
	size_t n = 0;

	*more = 0;
	for (;;) {
		while (s < e && is_blank(*s))
			s++;
		if (s == e)
			return n;
		if (n == max) {
			*more = 1;
			return n;
		}
		t[n].s = s;
		while (s < e && !is_blank(*s))
			s++;
		t[n++].e = s;
	}
}

/*
 * Read the fields of a header from word i on, the words before it being
 * the comm.  *bad is the period word when H_BADPERIOD or H_BIGPERIOD.
 */
static enum hres
match_at(const struct tok *t, size_t n, int more, size_t i, const char *end,
    struct hdr *h, const struct tok **bad)
{
	size_t	 j = i;
	int	 at_end;

	memset(h, 0, sizeof(*h));
	if (j < n && tok_pidtid(&t[j], h))
		j++;
	if (j < n && tok_cpu(&t[j]))
		j++;
	if (j < n && tok_time(&t[j], &h->time_ns)) {
		h->has_time = 1;
		j++;
	}
	if (j < n && h->has_time && t[j].e - t[j].s > 12 &&
	    memcmp(t[j].s, "PERF_RECORD_", 12) == 0)
		return H_SKIP;
	if (j < n && tok_event(&t[j])) {
		h->ev = t[j].s;
		h->ev_end = t[j++].e - 1;
	} else if (j + 1 < n && (is_digit(*t[j].s) || *t[j].s == '-' ||
	    *t[j].s == '+') && tok_event(&t[j + 1])) {
		/* What stands between the time and the event is the period. */
		*bad = &t[j];
		if (!parse_int(t[j].s, t[j].e, &h->period) || h->period < 0)
			return all_digits(t[j].s, t[j].e) ? H_BIGPERIOD :
			    H_BADPERIOD;
		h->has_period = 1;
		h->ev = t[j + 1].s;
		h->ev_end = t[j + 1].e - 1;
		j += 2;
	} else if (j < n && h->has_time && all_digits(t[j].s, t[j].e) &&
	    ((j + 1 == n && !more) || (j + 1 < n && parse_hex(t[j + 1].s,
	    t[j + 1].e, &(uint64_t){ 0 })))) {
		/* No event: a number after the time, before an address. */
		*bad = &t[j];
		if (!parse_int(t[j].s, t[j].e, &h->period))
			return H_BIGPERIOD;
		h->has_period = 1;
		j++;
	}
	/* The time, or the thread with the event or alone on its line. */
	at_end = j == n && !more;
	if (!h->has_time && !(h->has != 0 && (h->ev != NULL || at_end)))
		return H_NOTHDR;
	if (i > 0) {
		h->comm = t[0].s;
		h->comm_end = t[i - 1].e;
	}
	h->rest = j < n ? t[j].s : j > 0 ? t[j - 1].e : end;
	h->rest_end = end;
	while (h->rest < end && is_blank(*h->rest))
		h->rest++;
	return H_OK;
}

/*
 * Read the header [s, e): the fewest words taken as the comm that leave
 * a well-formed run of fields, and no more once a time is found.  t holds MAXTOK words.  On H_BADPERIOD
 * or H_BIGPERIOD, *bad is the period's word (in t), when no reading of
 * the line has a good one.
 */
static enum hres
read_header(const char *s, const char *e, struct hdr *h, struct tok *t,
    const struct tok **bad)
{
	const struct tok	*b = NULL;
	enum hres		 r, worst = H_NOTHDR;
	size_t			 n, i;
	int			 more;

	n = tokenize(s, e, t, MAXTOK, &more);
	for (i = 0; i < n && i <= MAXCOMM; i++) {
		r = match_at(t, n, more, i, e, h, &b);
		if (r == H_OK || r == H_SKIP)
			return r;
		if (r != H_NOTHDR && worst == H_NOTHDR) {
			worst = r;
			*bad = b;
		}
		/* No comm holds a time: the time places the fields. */
		if (h->has_time)
			break;
	}
	return worst;
}

/* Frames. */

struct frame {
	uint64_t	 ip;
	const char	*sym, *sym_end;		/* NULL: no symbol */
	const char	*dso, *dso_end;		/* NULL: no dso */
};

/*
 * Read "ip [sym[+0xOFF]] [(dso)]" in [s, e): 0, or -1 when it does not
 * start with an address.  A dso is the last parenthesized part, after a
 * blank, its own parentheses balanced ("(/usr/lib/x.so (deleted))").
 */
static int
read_frame(const char *s, const char *e, struct frame *f)
{
	const char	*w, *q, *o;
	int		 depth = 0;

	memset(f, 0, sizeof(*f));
	while (s < e && is_blank(*s))
		s++;
	while (e > s && is_blank(e[-1]))
		e--;
	for (w = s; w < e && !is_blank(*w); w++)
		continue;
	if (!parse_hex(s, w, &f->ip))
		return -1;
	for (s = w; s < e && is_blank(*s); s++)
		continue;
	if (s < e && e[-1] == ')') {
		for (q = e; q > s; q--) {
			if (q[-1] == ')')
				depth++;
			else if (q[-1] == '(' && --depth == 0)
				break;
		}
		if (depth == 0 && q > s && (q - 1 == s || is_blank(q[-2]))) {
			f->dso = q;
			f->dso_end = e - 1;
			for (e = q - 1; e > s && is_blank(e[-1]); e--)
				continue;
		}
	}
	/* "+0x25", -F symoff's, is not part of the name. */
	for (o = e; o > s && hex_val(o[-1]) >= 0; o--)
		continue;
	if (o < e && o - s >= 4 && o[-1] == 'x' && o[-2] == '0' &&
	    o[-3] == '+')
		e = o - 3;
	if (s < e && !(e - s == 9 && memcmp(s, "[unknown]", 9) == 0)) {
		f->sym = s;
		f->sym_end = e;
	}
	if (f->dso != NULL && (f->dso == f->dso_end ||
	    (f->dso_end - f->dso == 9 && memcmp(f->dso, "[unknown]", 9) == 0)))
		f->dso = f->dso_end = NULL;
	return 0;
}

static int
has_prefix(const char *s, const char *e, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(e - s) >= n && memcmp(s, prefix, n) == 0;
}

/* Add a name to an intern table, within the limit of strings. */
static int
add_string(struct pscript *ps, struct intern *t, const char *s, size_t n,
    size_t *out)
{
	int added;

	if ((*out = intern_add(t, s, n, &added)) == SIZE_MAX ||
	    (added && ps->fnames.n + ps->dsos.n + ps->comms.n + ps->events.n >
	    ps->max_strings))
		return fail(ps, DIAG_LIMIT, "more than %zu distinct names "
		    "(raise with --max-strings)", ps->max_strings);
	return 0;
}

/* Intern a frame's location and push it on the sample's stack. */
static int
add_frame(struct pscript *ps, const struct frame *f)
{
	struct lockey	 k;
	size_t		 n, idx, fn = 0, dso = 0;
	int		 kernel, added;

	kernel = f->ip >> 63 || (f->dso != NULL && (has_prefix(f->dso,
	    f->dso_end, KERNEL_DSO) || has_prefix(f->dso, f->dso_end,
	    "[guest.kernel.kallsyms")));
	if (f->dso != NULL) {
		if (add_string(ps, &ps->dsos, f->dso,
		    (size_t)(f->dso_end - f->dso), &dso) == -1)
			return -1;
		dso++;
	} else if (kernel) {
		if (add_string(ps, &ps->dsos, KERNEL_DSO, strlen(KERNEL_DSO),
		    &dso) == -1)
			return -1;
		dso++;
	}
	if (f->sym != NULL) {
		n = (size_t)(f->sym_end - f->sym);
		if (ps->capscratch < n + sizeof(KERNEL_MARK)) {
			ps->capscratch = n + sizeof(KERNEL_MARK);
			ps->scratch = xreallocarray(ps->scratch,
			    ps->capscratch, 1);
		}
		memcpy(ps->scratch, f->sym, n);
		if (kernel) {
			memcpy(ps->scratch + n, KERNEL_MARK,
			    strlen(KERNEL_MARK));
			n += strlen(KERNEL_MARK);
		}
		if (add_string(ps, &ps->fnames, ps->scratch, n, &fn) == -1)
			return -1;
		if (ps->fnames.n > ps->max_functions)
			return fail(ps, DIAG_LIMIT, "more than %zu functions "
			    "(raise with --max-functions)", ps->max_functions);
		fn++;
	}
	memset(&k, 0, sizeof(k));
	k.ip = f->ip;
	k.dso = (uint32_t)dso;
	k.fn = (uint32_t)fn;
	idx = intern_add(&ps->locs, &k, sizeof(k), &added);
	if (idx == SIZE_MAX || ps->locs.n > ps->max_locations)
		return fail(ps, DIAG_LIMIT, "more than %zu locations (raise "
		    "with --max-locations)", ps->max_locations);
	if (ps->nframes == ps->max_depth)
		return diag_set(ps->d, DIAG_LIMIT, -1, "line %zu: a call "
		    "chain of more than %zu frames (raise with --max-depth)",
		    ps->cur_line, ps->max_depth);
	if (ps->nframes == ps->capframes) {
		ps->capframes = ps->capframes ? ps->capframes * 2 : 64;
		ps->frames = xreallocarray(ps->frames, ps->capframes,
		    sizeof(*ps->frames));
	}
	ps->frames[ps->nframes++] = (uint32_t)idx;
	return 0;
}

/* Samples. */

/* Close the sample being read, if any: its stack and its record. */
static int
end_sample(struct pscript *ps)
{
	struct psample	*s;
	struct frame	 f;
	size_t		 st, line = ps->lineno;
	int		 added;

	if (!ps->in_sample)
		return 0;
	ps->in_sample = 0;
	/* Without a call chain, the header's own address is the frame. */
	if (!ps->cur_chain && read_frame(ps->cur_rest, ps->cur_rest_end,
	    &f) == 0) {
		ps->lineno = ps->cur_line;
		if (add_frame(ps, &f) == -1)
			return -1;
		ps->lineno = line;
	}
	if (ps->nframes == 0 && ps->first_bare == 0)
		ps->first_bare = ps->cur_line;
	st = intern_add(&ps->stacks, ps->frames,
	    ps->nframes * sizeof(*ps->frames), &added);
	if (st == SIZE_MAX)
		return fail(ps, DIAG_LIMIT, "more than %u distinct stacks",
		    UINT32_MAX - 1);
	if (ps->nsamples == ps->capsamples) {
		ps->capsamples = ps->capsamples ? ps->capsamples * 2 : 1024;
		ps->samples = xreallocarray(ps->samples, ps->capsamples,
		    sizeof(*ps->samples));
	}
	s = &ps->samples[ps->nsamples++];
	s->stack = (uint32_t)st;
	s->value = ps->cur_value;
	s->labels = ps->cur_labels;
	ps->nframes = 0;
	return 0;
}

/* The event of a sample, added if new, its period checked against it. */
static int
sample_event(struct pscript *ps, const struct hdr *h, size_t *out)
{
	struct event	*ev;
	const char	*name = h->ev != NULL ? h->ev : "event";
	size_t		 n = h->ev != NULL ? (size_t)(h->ev_end - h->ev) : 5;
	int		 added;

	if ((*out = intern_add(&ps->events, name, n, &added)) == SIZE_MAX)
		return fail(ps, DIAG_LIMIT, "too many events");
	if (added) {
		if (ps->events.n > MAXEVENTS)
			return fail(ps, DIAG_LIMIT, "more than %d events (each "
			    "is a sample type, beside its count)", MAXEVENTS);
		if (ps->events.n > ps->capevs) {
			ps->capevs = MAXEVENTS;
			ps->evs = xreallocarray(ps->evs, ps->capevs,
			    sizeof(*ps->evs));
		}
		ev = &ps->evs[*out];
		memset(ev, 0, sizeof(*ev));
		ev->has_period = h->has_period;
		ev->line = ps->lineno;
		ev->pmin = INT64_MAX;
		ev->pmax = INT64_MIN;
	}
	ev = &ps->evs[*out];
	if (ev->has_period != h->has_period)
		return fail(ps, DIAG_PERFSCRIPT, "a %.*s sample %s a period, "
		    "where the one at line %zu has %s", (int)n, name,
		    h->has_period ? "with" : "without", ev->line,
		    h->has_period ? "none" : "one");
	ev->nsamples++;
	if (h->has_period) {
		if (h->period < ev->pmin)
			ev->pmin = h->period;
		if (h->period > ev->pmax)
			ev->pmax = h->period;
		ev->psum += (double)h->period;
	}
	return 0;
}

/* Start the sample of header h (line [s, e)): its event, value, labels. */
static int
begin_sample(struct pscript *ps, const struct hdr *h)
{
	struct valkey	 vk;
	struct labkey	 lk;
	size_t		 ev, idx;
	int		 added;

	if (sample_event(ps, h, &ev) == -1)
		return -1;
	memset(&vk, 0, sizeof(vk));
	vk.event = ev;
	vk.value = h->has_period ? h->period : 1;
	if ((idx = intern_add(&ps->values, &vk, sizeof(vk), &added)) ==
	    SIZE_MAX)
		return fail(ps, DIAG_LIMIT, "too many distinct periods");
	ps->cur_value = (uint32_t)idx;
	memset(&lk, 0, sizeof(lk));
	if (h->comm != NULL) {
		if (add_string(ps, &ps->comms, h->comm,
		    (size_t)(h->comm_end - h->comm), &idx) == -1)
			return -1;
		lk.comm = (uint32_t)idx + 1;
	}
	lk.has = h->has;
	lk.pid = h->has & HAS_PID ? h->pid : 0;
	lk.tid = h->has & HAS_TID ? h->tid : 0;
	if ((idx = intern_add(&ps->labels, &lk, sizeof(lk), &added)) ==
	    SIZE_MAX)
		return fail(ps, DIAG_LIMIT, "too many threads");
	ps->cur_labels = (uint32_t)idx;
	if (h->has_time) {
		if (!ps->have_time || h->time_ns < ps->tmin)
			ps->tmin = h->time_ns;
		if (!ps->have_time || h->time_ns > ps->tmax)
			ps->tmax = h->time_ns;
		ps->have_time = 1;
	}
	ps->in_sample = 1;
	ps->cur_line = ps->lineno;
	ps->cur_chain = 0;
	ps->cur_rest = h->rest;
	ps->cur_rest_end = h->rest_end;
	return 0;
}

/* A header line [s, e) that read_header() refused. */
static int
header_error(struct pscript *ps, enum hres r, const struct tok *bad,
    const char *s, const char *e)
{
	char x[EXCERPT + 4];

	switch (r) {
	case H_BADPERIOD:
		return fail(ps, DIAG_PERFSCRIPT, "period '%s' is not a "
		    "non-negative integer", excerpt(x, sizeof(x), bad->s,
		    bad->e));
	case H_BIGPERIOD:
		return fail(ps, DIAG_PERFSCRIPT, "period '%s' is too large "
		    "(more than %lld)", excerpt(x, sizeof(x), bad->s, bad->e),
		    (long long)INT64_MAX);
	default:
		while (s < e && is_blank(*s))
			s++;
		return fail(ps, DIAG_PERFSCRIPT, "'%s' is neither a sample "
		    "header (comm, tid, time:, period, event:) nor a call "
		    "chain line (a tab, then an address)",
		    excerpt(x, sizeof(x), s, e));
	}
}

/* One line [s, e), without its LF; last says it had none. */
static int
read_line(struct pscript *ps, const char *s, const char *e, int last)
{
	const struct tok *bad = NULL;
	struct tok	 t[MAXTOK];
	const char	*p;
	struct frame	 f;
	struct hdr	 h;
	enum hres	 r;
	char		 x[EXCERPT + 4];

	if (e > s && e[-1] == '\r')
		e--;
	for (p = s; p < e; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f)
			return fail(ps, DIAG_PERFSCRIPT, "control byte 0x%02x "
			    "at column %zu (perf script output is text)",
			    (unsigned char)*p, (size_t)(p - s) + 1);
	for (p = s; p < e && is_blank(*p); p++)
		continue;
	if (p == e)
		return end_sample(ps);
	if (last)
		return fail(ps, DIAG_PERFSCRIPT, "the input ends inside this "
		    "line, '%s' (truncated?)", excerpt(x, sizeof(x), p, e));
	if (*s == '\t') {
		if (!ps->in_sample)
			return fail(ps, DIAG_PERFSCRIPT, "call chain line "
			    "outside a sample (no sample header above it)");
		if (read_frame(s, e, &f) == -1)
			return fail(ps, DIAG_PERFSCRIPT, "call chain line "
			    "'%s' does not start with an address",
			    excerpt(x, sizeof(x), p, e));
		ps->cur_chain = 1;
		ps->any_chain = 1;
		return add_frame(ps, &f);
	}
	/* perf script --header's lines, before the first sample. */
	if (*s == '#' && ps->nsamples == 0 && !ps->in_sample)
		return 0;
	if (end_sample(ps) == -1)
		return -1;
	switch (r = read_header(s, e, &h, t, &bad)) {
	case H_OK:
		return begin_sample(ps, &h);
	case H_SKIP:
		return 0;
	default:
		return header_error(ps, r, bad, s, e);
	}
}

/* Building the model. */

static const char *
copy_str(struct arena *a, const struct intern *t, size_t i)
{
	size_t		 n;
	const char	*s = intern_get(t, i, &n);

	return arena_strndup(a, s, n);
}

/* Is the event a clock whose period is in nanoseconds? */
static int
is_clock(const char *name)
{
	size_t n = strcspn(name, ":");

	return (n == 9 && strncmp(name, "cpu-clock", 9) == 0) ||
	    (n == 10 && strncmp(name, "task-clock", 10) == 0);
}

/* A rounded mean period, for a period type: the constant one if it is. */
static int64_t
mean_period(const struct event *ev)
{
	double m;

	if (!ev->has_period || ev->nsamples == 0)
		return 0;
	if (ev->pmin == ev->pmax)
		return ev->pmin;
	m = ev->psum / (double)ev->nsamples + 0.5;
	return m >= 9.2e18 ? INT64_MAX : (int64_t)m;
}

/*
 * The sample types: a count and a value per event.  Refuses event names
 * whose types would have the same name ("a_samples" beside "a").
 */
static int
build_types(struct pscript *ps, struct profile *p)
{
	struct pf_valuetype	*st;
	const char		*name, *cn;
	size_t			 ne = ps->events.n, i, j, n;
	char			*buf;

	st = arena_calloc(p->arena, 2 * ne, sizeof(*st));
	for (i = 0; i < ne; i++) {
		name = copy_str(p->arena, &ps->events, i);
		if (ne == 1)
			cn = "samples";
		else {
			n = strlen(name);
			buf = arena_alloc(p->arena, n + sizeof("_samples"), 1);
			memcpy(buf, name, n);
			memcpy(buf + n, "_samples", sizeof("_samples"));
			cn = buf;
		}
		st[2 * i].type = cn;
		st[2 * i].unit = "count";
		st[2 * i + 1].type = name;
		st[2 * i + 1].unit = !ps->evs[i].has_period ? "count" :
		    is_clock(name) ? "nanoseconds" : "events";
	}
	for (i = 0; i < 2 * ne; i++)
		for (j = i + 1; j < 2 * ne; j++)
			if (strcmp(st[i].type, st[j].type) == 0)
				return diag_set(ps->d, DIAG_PERFSCRIPT, -1,
				    "line %zu: event '%s' has the name of "
				    "another event's count of samples",
				    ps->evs[(i % 2 ? i : j) / 2].line,
				    st[i % 2 ? i : j].type);
	p->sample_types = st;
	p->nsample_types = 2 * ne;
	/* The first event met is the default, as perf report shows it. */
	p->default_sample_type = st[1].type;
	if (ne == 1 && ps->evs[0].has_period && is_clock(st[1].type)) {
		/* CPU time, as Go's CPU profiles say it. */
		p->period_type.type = "cpu";
		p->period_type.unit = "nanoseconds";
	} else if (ps->evs[0].has_period)
		p->period_type = st[1];
	p->period = mean_period(&ps->evs[0]);
	return 0;
}

/* Functions, mappings and locations, from the intern tables. */
static void
build_locations(struct pscript *ps, struct profile *p)
{
	struct pf_function	*fn;
	struct pf_mapping	*m;
	struct pf_location	*loc;
	struct pf_line		*ln;
	struct lockey		 k;
	size_t			 i;

	fn = arena_calloc(p->arena, ps->fnames.n, sizeof(*fn));
	for (i = 0; i < ps->fnames.n; i++) {
		fn[i].id = i + 1;
		fn[i].name = copy_str(p->arena, &ps->fnames, i);
		fn[i].system_name = fn[i].name;
		fn[i].filename = "";
	}
	m = arena_calloc(p->arena, ps->dsos.n, sizeof(*m));
	for (i = 0; i < ps->dsos.n; i++) {
		m[i].id = i + 1;
		m[i].filename = copy_str(p->arena, &ps->dsos, i);
		m[i].build_id = "";
		m[i].has_functions = 1;
	}
	loc = arena_calloc(p->arena, ps->locs.n, sizeof(*loc));
	ln = arena_calloc(p->arena, ps->locs.n, sizeof(*ln));
	for (i = 0; i < ps->locs.n; i++) {
		memcpy(&k, intern_get(&ps->locs, i, NULL), sizeof(k));
		loc[i].id = i + 1;
		loc[i].address = k.ip;
		if (k.dso != 0)
			loc[i].mapping = &m[k.dso - 1];
		if (k.fn != 0) {
			ln[i].function = &fn[k.fn - 1];
			loc[i].lines = &ln[i];
			loc[i].nlines = 1;
		} else if (k.dso != 0)
			/* A mapping with a nameless location has no names. */
			m[k.dso - 1].has_functions = 0;
	}
	p->functions = fn;
	p->nfunctions = ps->fnames.n;
	p->mappings = m;
	p->nmappings = ps->dsos.n;
	p->locations = loc;
	p->nlocations = ps->locs.n;
}

/* The samples, their stacks, values and labels shared where equal. */
static void
build_samples(struct pscript *ps, struct profile *p)
{
	const struct pf_location ***stacks;
	struct pf_label		**labels;
	int64_t			**values;
	size_t			 *nlabels, i, j, n;
	const uint32_t		 *ids;
	struct labkey		  lk;
	struct valkey		  vk;

	stacks = xcalloc(ps->stacks.n, sizeof(*stacks));
	for (i = 0; i < ps->stacks.n; i++) {
		ids = intern_get(&ps->stacks, i, &n);
		n /= sizeof(*ids);
		stacks[i] = arena_alloc(p->arena, n, sizeof(**stacks));
		for (j = 0; j < n; j++)
			stacks[i][j] = &p->locations[ids[j]];
	}
	values = xcalloc(ps->values.n, sizeof(*values));
	for (i = 0; i < ps->values.n; i++) {
		memcpy(&vk, intern_get(&ps->values, i, NULL), sizeof(vk));
		values[i] = arena_calloc(p->arena, p->nsample_types,
		    sizeof(**values));
		values[i][2 * vk.event] = 1;
		values[i][2 * vk.event + 1] = vk.value;
	}
	labels = xcalloc(ps->labels.n, sizeof(*labels));
	nlabels = xcalloc(ps->labels.n, sizeof(*nlabels));
	for (i = 0; i < ps->labels.n; i++) {
		memcpy(&lk, intern_get(&ps->labels, i, NULL), sizeof(lk));
		labels[i] = arena_calloc(p->arena, 3, sizeof(**labels));
		n = 0;
		if (lk.comm != 0) {
			labels[i][n].key = "comm";
			labels[i][n].num_unit = "";
			labels[i][n++].str = copy_str(p->arena, &ps->comms,
			    lk.comm - 1);
		}
		if (lk.has & HAS_PID) {
			labels[i][n].key = "pid";
			labels[i][n].num_unit = "";
			labels[i][n++].num = lk.pid;
		}
		if (lk.has & HAS_TID) {
			labels[i][n].key = "tid";
			labels[i][n].num_unit = "";
			labels[i][n++].num = lk.tid;
		}
		nlabels[i] = n;
	}
	p->samples = arena_calloc(p->arena, ps->nsamples, sizeof(*p->samples));
	for (i = 0; i < ps->nsamples; i++) {
		const struct psample *s = &ps->samples[i];

		intern_get(&ps->stacks, s->stack, &n);
		p->samples[i].locs = stacks[s->stack];
		p->samples[i].nlocs = n / sizeof(uint32_t);
		p->samples[i].values = values[s->value];
		p->samples[i].labels = labels[s->labels];
		p->samples[i].nlabels = nlabels[s->labels];
	}
	p->nsamples = ps->nsamples;
	free(stacks);
	free(values);
	free(labels);
	free(nlabels);
}

/* Sniffing. */

/* Is [s, e) text, tabs allowed and a CR at its end? */
static int
plain_text(const char *s, const char *e)
{
	if (e > s && e[-1] == '\r')
		e--;
	for (; s < e; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			return 0;
	return 1;
}

/*
 * Does [s, e) start as perf prints a call chain line after its tab, the
 * address right-aligned in 16 columns, then a blank or the end?
 */
static int
perf_aligned(const char *s, const char *e)
{
	const char *q;

	if (e - s < 16 || (e - s > 16 && !is_blank(s[16]) && s[16] != '\r'))
		return 0;
	for (q = s; q < s + 16 && *q == ' '; q++)
		continue;
	if (q == s + 16)
		return 0;
	for (; q < s + 16; q++)
		if (hex_val(*q) < 0)
			return 0;
	return 1;
}

int
perfscript_sniff(const void *vbuf, size_t len)
{
	const char		*p = vbuf, *end = p + len, *nl, *e, *q;
	const struct tok	*bad;
	struct tok		 t[MAXTOK];
	struct frame		 f;
	struct hdr		 h;
	size_t			 lines = 0;

	for (; p < end && lines < SNIFF_LINES; p = nl + 1, lines++) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return 0;
		for (q = p; q < nl && (is_blank(*q) || *q == '\r'); q++)
			continue;
		if (q == nl || *p == '#')
			continue;
		if (*p == '\t' || !plain_text(p, nl))
			return 0;
		e = nl > p && nl[-1] == '\r' ? nl - 1 : nl;
		switch (read_header(p, e, &h, t, &bad)) {
		case H_SKIP:
			continue;
		case H_OK:
			break;
		default:
			return 0;
		}
		if (h.has_time || (h.ev != NULL && h.has != 0))
			return 1;
		/* A call chain line under it, as perf aligns it. */
		p = nl + 1;
		if (p >= end || *p != '\t' ||
		    (nl = memchr(p, '\n', (size_t)(end - p))) == NULL ||
		    !plain_text(p, nl) || !perf_aligned(p + 1, nl))
			return 0;
		return read_frame(p, nl > p && nl[-1] == '\r' ? nl - 1 : nl,
		    &f) == 0;
	}
	return 0;
}

/* Decoding. */

/* Checks once every line is read; then the model is built. */
static int
finish(struct pscript *ps, size_t len)
{
	if (end_sample(ps) == -1)
		return -1;
	if (ps->nsamples == 0)
		return diag_set(ps->d, DIAG_PERFSCRIPT, -1, "no samples: the "
		    "text %s", len == 0 ? "is empty" : "has no sample header");
	if (ps->any_chain && ps->first_bare != 0)
		return diag_set(ps->d, DIAG_PERFSCRIPT, -1, "line %zu: a "
		    "sample header with no call chain under it, where other "
		    "samples have one (truncated?)", ps->first_bare);
	return 0;
}

static void
release(struct pscript *ps)
{
	intern_release(&ps->fnames);
	intern_release(&ps->dsos);
	intern_release(&ps->comms);
	intern_release(&ps->events);
	intern_release(&ps->locs);
	intern_release(&ps->stacks);
	intern_release(&ps->labels);
	intern_release(&ps->values);
	free(ps->evs);
	free(ps->samples);
	free(ps->frames);
	free(ps->scratch);
}

struct profile *
perfscript_decode(const void *vbuf, size_t len, const char *path,
    const struct pd_limits *lim, struct diag *d)
{
	const char		*buf = vbuf, *p, *end = buf + len, *nl;
	struct pd_limits	 deflim;
	struct pscript		 ps;
	struct profile		*pr;
	int			 rc = -1;

	if (lim == NULL) {
		pd_limits_default(&deflim);
		lim = &deflim;
	}
	memset(&ps, 0, sizeof(ps));
	ps.d = d;
	ps.max_depth = lim->max_depth;
	ps.max_locations = lim->max_locations;
	ps.max_functions = lim->max_functions;
	ps.max_strings = lim->max_strings;
	pr = profile_new();
	pr->path = arena_strndup(pr->arena, path, strlen(path));
	pr->format = PF_PPROF;

	for (p = buf; p < end; p = nl != NULL ? nl + 1 : end) {
		ps.lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (read_line(&ps, p, nl != NULL ? nl : end, nl == NULL) == -1)
			goto out;
	}
	if (finish(&ps, len) == -1 || build_types(&ps, pr) == -1)
		goto out;
	build_locations(&ps, pr);
	build_samples(&ps, pr);
	if (ps.have_time)
		pr->duration_nanos = ps.tmax - ps.tmin;
	rc = 0;
out:
	release(&ps);
	if (rc == -1) {
		profile_free(pr);
		return NULL;
	}
	return pr;
}

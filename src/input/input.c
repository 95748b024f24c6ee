/*
 * The reading room: bytes in, a decoder chosen, and the reader that
 * hands its samples out one at a time (pprof_open(), pprof_next()).
 * It reads a file or standard input within the limits, inflates gzip
 * (gunzip.c) whole, as it is read, or twice for a large file, decides
 * once what the inflated bytes are (input_sniff()), and routes them:
 * perf.data to perfdata.c (perf script, a child process), perf script
 * output to perfscript.c, folded stacks to folded.c, the
 * legacy formats pprof reads to legacy.c, protobuf to the fast wire
 * path (wire.c)
 * or, when that declines, to the reference decoder (pprof.c).  For a
 * file read twice it owns the window of bytes pass 3 reads, pulls
 * more into it when the wire path runs short, and checks the CRC.
 * It decodes nothing itself and includes no protobuf-c header; it
 * knows nothing of statistics or output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/arena.h"
#include "support/compat.h"
#include "support/diag.h"
#include "input/fetch.h"
#include "input/folded.h"
#include "input/gunzip.h"
#include "input/input.h"
#include "input/legacy.h"
#include "input/perfdata.h"
#include "input/perfscript.h"
#include "input/pprof.h"
#include "profdiff.h"
#include "model/profile.h"
#include "input/wire.h"
#include "support/xmalloc.h"

/* What the bytes are. */

static int
has_prefix(const unsigned char *buf, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(buf, prefix, n) == 0;
}

/*
 * The legacy formats pprof still reads: the text heap, contention,
 * thread and goroutine dumps, and the gperftools binary CPU profile,
 * whose header is the words 0, 3 in 32 or 64 bits, little or big
 * endian.  legacy.c decides which one they are, as pprof does.
 */
static enum input_kind
legacy_kind(const unsigned char *buf, size_t len)
{
	static const char *const text[] = {
		"heap profile:", "heap_v2/", "--- heapz", "--- contention",
		"--- threadz", "goroutine profile:", "threadcreate profile:",
		"--- mutex", "--- block", "--- Thread ",
	};
	static const unsigned char cpu64[16] = { 0,0,0,0,0,0,0,0, 3,0,0,0,0,0,0,0 };
	static const unsigned char cpu32[8] = { 0,0,0,0, 3,0,0,0 };
	static const unsigned char cpu64b[16] = { 0,0,0,0,0,0,0,0, 0,0,0,0,0,0,0,3 };
	static const unsigned char cpu32b[8] = { 0,0,0,0, 0,0,0,3 };
	size_t i;

	while (len > 0 && (*buf == ' ' || *buf == '\t' || *buf == '\n' ||
	    *buf == '\r')) {
		buf++;
		len--;
	}
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		if (has_prefix(buf, len, text[i]))
			return INPUT_LEGACY_TEXT;
	if (len >= 16 && memcmp(buf, cpu64, 16) == 0)
		return INPUT_LEGACY_CPU;
	if (len >= 12 && memcmp(buf, cpu32, 8) == 0)
		return INPUT_LEGACY_CPU;
	if (len >= 16 && memcmp(buf, cpu64b, 16) == 0)
		return INPUT_LEGACY_CPU;
	if (len >= 12 && memcmp(buf, cpu32b, 8) == 0)
		return INPUT_LEGACY_CPU;
	return INPUT_PROTOBUF;
}

enum input_kind
input_sniff(const void *vbuf, size_t len)
{
	enum input_kind	 k;

	if (len == 0)
		return INPUT_EMPTY;
	if (perfdata_sniff(vbuf, len))
		return INPUT_PERFDATA;
	if ((k = legacy_kind(vbuf, len)) != INPUT_PROTOBUF)
		return k;
	/* A perf script sample header is text, and no folded stack line. */
	if (perfscript_sniff(vbuf, len))
		return INPUT_PERFSCRIPT;
	/* Other text is folded stacks, unless it is a legacy pprof format. */
	return folded_sniff(vbuf, len) ? INPUT_FOLDED : INPUT_PROTOBUF;
}

int
input_refuse(enum input_kind k, struct diag *d)
{
	(void)k;
	return diag_set(d, DIAG_EMPTY, -1, "file is empty");
}

/*
 * The bytes a reader reads: all of them in memory, or, for a large
 * gzipped file read twice (read_twice()), a window that pass 3 inflates
 * the wire into again as it reads, up to check_end, where the CRC of
 * the output must be the one pass 0 saw.  The window is cap bytes, and
 * its unread bytes move to its front to make room: offsets into it
 * (len, filled, check_end) move with them.  Only the reading room
 * touches it; the wire path is handed [at, window_end()).
 */
struct window {
	unsigned char	*raw;		/* the bytes, when the reader owns them */
	const unsigned char *buf;	/* the wire */
	size_t		 len;		/* pass 3 reads it up to here */
	const unsigned char *at;	/* where pass 3 goes on */
	const unsigned char *freed;	/* raw up to here is given back */
	struct gunzip_pull *pull;	/* read twice: pass 3's inflater */
	int		 fd;		/* the file, while pull is open */
	size_t		 cap;
	size_t		 filled;	/* buf is inflated up to here */
	size_t		 check_end;
	uint32_t	 check_crc;
};

#define PULL_STEP	(256u << 10)	/* inflated bytes at a time */

/*
 * Pass 3: the next step of the wire, inflated again.  Past the last
 * sample, the output must be what pass 0 saw.
 */
static int
window_more(struct window *win, struct diag *d)
{
	size_t n = win->check_end - win->filled, gone, keep;

	if (n > PULL_STEP)
		n = PULL_STEP;
	if (win->filled + n > win->cap) {
		/* What is read goes; the field being read moves to the front. */
		gone = (size_t)(win->at - win->buf);
		keep = win->filled - gone;
		memmove(win->raw, win->at, keep);
		if (keep + n > win->cap) {
			/* Enough: keep <= cap, and n <= PULL_STEP <= cap / 2. */
			win->cap *= 2;
			win->raw = xreallocarray(win->raw, win->cap, 1);
		}
		win->buf = win->at = win->freed = win->raw;
		win->filled = keep;
		win->len -= gone;
		win->check_end -= gone;
	}
	if (n == 0 ||
	    gunzip_pull(win->pull, win->raw + win->filled, n) != (ssize_t)n ||
	    (win->filled + n == win->check_end &&
	    gunzip_pull_crc(win->pull) != win->check_crc)) {
		diag_init(d, d->path);
		return diag_set(d, DIAG_IO, -1,
		    "the file changed while it was being read");
	}
	win->filled += n;
	return 0;
}

/* Pass 3: inflate to the end of the check. */
static int
window_all(struct window *win, struct diag *d)
{
	while (win->pull != NULL && win->filled < win->check_end)
		if (window_more(win, d) == -1)
			return -1;
	return 0;
}

/* Can pass 3 have more of the wire than [buf, window_end())? */
static int
window_short(const struct window *win)
{
	return win->pull != NULL && win->filled < win->len;
}

/* Where the wire pass 3 can read now ends. */
static const unsigned char *
window_end(const struct window *win)
{
	return win->buf + (window_short(win) ? win->filled : win->len);
}

/*
 * Give the pages of the bytes already read back to the system, a few
 * megabytes at a time: the samples are most of a profile, and nothing
 * reads them twice.  The bytes stay allocated (free() takes them).
 */
#define RELEASE_STEP	(1u << 20)

static void
window_release(struct window *win)
{
	if (win->raw == NULL || win->pull != NULL ||
	    (size_t)(win->at - win->freed) < RELEASE_STEP)
		return;
	compat_discard(win->freed, win->at);
	win->freed = win->at;
}

/* Done with the bytes, which nothing reads again. */
static void
window_drop(struct window *win)
{
	if (win->pull != NULL) {
		gunzip_pull_close(win->pull);
		close(win->fd);
		win->pull = NULL;
	}
	free(win->raw);
	win->raw = NULL;
	win->buf = NULL;
	win->len = 0;
}

/*
 * A profile being read: its header (everything but the samples) decoded
 * at pprof_open(), its samples one at a time by pprof_next().  On the
 * fast path the samples are read off the wire (wire.c), and the bytes
 * behind are given back to the system as the reading goes.  Otherwise
 * the samples come from a profile pprof_unpack(), perfscript_decode(),
 * folded_decode() or legacy_decode() built whole at pprof_open().
 */
struct pf_reader {
	struct profile	*p;		/* the header; p->samples is NULL */
	struct wire	*w;		/* fast path: the samples' reader */
	struct window	 win;
	struct pd_limits lim;
	size_t		 next;		/* how many samples have been read */
	struct pf_sample *samples;	/* a profile built whole, or NULL */
	int		 failed;
};

/* Reading a file. */

static ssize_t
fd_read(void *ctx, void *buf, size_t n)
{
	ssize_t r;

	while ((r = read(*(int *)ctx, buf, n)) == -1 && errno == EINTR)
		continue;
	return r;
}

/*
 * Is fd a regular gzipped file, as the fast paths want it?  Then tail
 * holds its last four bytes (ISIZE, gunzip_size_hint()).
 */
static int
gzip_tail(int fd, const struct stat *st, unsigned char tail[4])
{
	unsigned char head[2];

	return S_ISREG(st->st_mode) && st->st_size >= 18 &&
	    pread(fd, head, 2, 0) == 2 && gunzip_is_gzip(head, 2) &&
	    pread(fd, tail, 4, st->st_size - 4) == 4;
}

/*
 * Inflate a regular gzipped file as it is read, so that its compressed
 * bytes are never all in memory.  Returns 1 with the inflated bytes, 0
 * with the file at its start when it must be read whole (anything the
 * fast path leaves to gunzip(), errors included), or -1 with the diag
 * filled when it inflates past the limits or cannot be put back there.
 */
static int
stream_gzip(int fd, const struct stat *st, const unsigned char tail[4],
    const struct pd_limits *lim, unsigned char **out, size_t *outlen,
    struct diag *d)
{
	switch (gunzip_stream(fd_read, &fd, (uint64_t)st->st_size,
	    gunzip_size_hint(tail), out, outlen, lim->max_inflated,
	    lim->max_ratio)) {
	case 0:
		return 1;
	case GUNZIP_OVER:
		return gunzip_limit(d, (uint64_t)st->st_size,
		    lim->max_inflated, lim->max_ratio);
	}
	if (lseek(fd, 0, SEEK_SET) == -1)
		return diag_set(d, DIAG_IO, -1, "%s", strerror(errno));
	return 0;
}

/* Done with an input's descriptor, unless it is standard input. */
static void
close_input(int fd)
{
	if (fd != STDIN_FILENO)
		close(fd);
}

/*
 * Open path ("-" is standard input) and see that it can be read within
 * the limits: its descriptor with *st, or -1 with the diag filled.
 */
static int
open_input(const char *path, const struct pd_limits *lim, struct stat *st,
    struct diag *d)
{
	int fd;

	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY)) == -1)
		return diag_set(d, DIAG_IO, -1, "%s", strerror(errno));
	if (fstat(fd, st) == -1)
		diag_set(d, DIAG_IO, -1, "%s", strerror(errno));
	else if (S_ISDIR(st->st_mode))
		diag_set(d, DIAG_IO, -1, "is a directory");
	else if (S_ISREG(st->st_mode) && (uint64_t)st->st_size > lim->max_input)
		diag_set(d, DIAG_LIMIT, -1, "file is %lld bytes, more than the "
		    "limit of %llu (raise with --max-input)",
		    (long long)st->st_size, (unsigned long long)lim->max_input);
	else
		return fd;
	close_input(fd);
	return -1;
}

/*
 * All of fd, bounded by the input limit (a pipe has no size to check
 * first): 0 with *out malloc'd, or -1 with the diag filled.
 */
static int
read_all(int fd, const struct stat *st, const struct pd_limits *lim,
    unsigned char **out, size_t *outlen, struct diag *d)
{
	unsigned char	*buf;
	size_t		 cap, len = 0;
	ssize_t		 n;

	cap = S_ISREG(st->st_mode) && st->st_size > 0 ?
	    (size_t)st->st_size + 1 : 65536;
	buf = xmalloc(cap);
	for (;;) {
		if (len == cap) {
			if (cap > lim->max_input) {
				free(buf);
				return diag_set(d, DIAG_LIMIT, -1, "input is "
				    "more than the limit of %llu bytes (raise "
				    "with --max-input)",
				    (unsigned long long)lim->max_input);
			}
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			free(buf);
			return diag_set(d, DIAG_IO, -1, "%s", strerror(errno));
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > lim->max_input) {
		free(buf);
		return diag_set(d, DIAG_LIMIT, -1, "input is more than the "
		    "limit of %llu bytes (raise with --max-input)",
		    (unsigned long long)lim->max_input);
	}
	*out = buf;
	*outlen = len;
	return 0;
}

/*
 * Any input's bytes, whole and inflated: a file ("-" is standard input)
 * read under the limits, inflated if it is gzip.  For inputs that are no
 * profile (a trace, trace.c).  0 with *out malloc'd, or -1 with the
 * diag filled.
 */
int
input_bytes(const char *path, const struct pd_limits *lim,
    unsigned char **out, size_t *outlen, struct diag *d)
{
	unsigned char	*buf, *in;
	size_t		 len;
	struct stat	 st;
	int		 fd, rc;

	if ((fd = open_input(path, lim, &st, d)) == -1)
		return -1;
	rc = read_all(fd, &st, lim, &buf, &len, d);
	close_input(fd);
	if (rc == -1)
		return -1;
	if (gunzip_is_gzip(buf, len)) {
		in = buf;
		rc = gunzip(in, len, &buf, &len, lim->max_inflated,
		    lim->max_ratio, d);
		free(in);
		if (rc == -1)
			return -1;
	}
	*out = buf;
	*outlen = len;
	return 0;
}

/*
 * Reading a large gzipped file twice.  Go writes the samples first and
 * the locations they name after them, so a file read once must be held
 * whole until its header is decoded: its samples are most of it.  Pass
 * 0 inflates the file for everything but the samples, which it skips
 * as they come; pass 3 inflates it again as pprof_next() reads the
 * samples, a step at a time, into a window it reuses.  That costs a
 * second inflate of the samples (bench/FINDINGS.md).  Pass 0
 * only ever succeeds: on anything it does not take, the file is read
 * whole as before, which words any error.
 */

/* What pass 0 finds (wire_skim()), and where pass 3 checks the CRC. */
struct twice {
	struct wire_skim skim;
	uint64_t	 check_end;	/* the CRC of [0, check_end) */
	uint32_t	 check_crc;
};

/*
 * Pass 0: the inflated bytes, a step at a time, to wire_skim().  0, or
 * -1 if the file is to be read whole.
 */
static int
walk_fields(struct gunzip_pull *g, struct twice *t)
{
	unsigned char	*step;
	size_t		 have = 0;
	uint64_t	 off = 0;		/* where step starts */
	ssize_t		 got, at;
	int		 eof, first = 1, rc = -1;

	step = xmalloc(PULL_STEP);
	do {
		if ((got = gunzip_pull(g, step + have, PULL_STEP - have)) == -1)
			goto out;
		eof = (size_t)got < PULL_STEP - have;
		have += (size_t)got;
		/* What reader_start() would not read as protobuf. */
		if (first && input_sniff(step, have) != INPUT_PROTOBUF)
			goto out;
		first = 0;
		if ((at = wire_skim(&t->skim, step, have, eof)) == -1)
			goto out;
		/* The CRC is checked past the last sample, where pass 3 stops. */
		if (t->skim.ended) {
			t->check_end = off + have;
			t->check_crc = gunzip_pull_crc(g);
		}
		memmove(step, step + at, have - (size_t)at);
		off += (size_t)at;
		have -= (size_t)at;
	} while (!eof);
	/* The input ends between fields. */
	if (have == 0 && wire_skim_done(&t->skim))
		rc = 0;
out:
	free(step);
	return rc;
}

/*
 * Read fd, the regular gzipped file path whose last bytes are tail,
 * twice if it is large enough to be worth it: 1 with the header decoded
 * and pass 3 ready to pull the samples (r has fd), 0 with fd back at
 * its start if it is to be read whole, -1 with the diag filled if pass
 * 0 inflated it past the limits or it cannot be put back.
 */
static int
read_twice(struct pf_reader *r, const char *path, int fd,
    const struct stat *st, const unsigned char tail[4], struct diag *d)
{
	struct window	*win = &r->win;
	struct gunzip_pull *g = NULL;
	struct twice	 t;
	struct diag	 quiet;
	uint64_t	 size = (uint64_t)st->st_size;
	size_t		 send;
	int		 over;

	if (gunzip_size_hint(tail) < r->lim.read_twice &&
	    size < r->lim.read_twice)
		return 0;
	memset(&t, 0, sizeof(t));
	win->fd = fd;
	if ((g = gunzip_pull_open(fd_read, &win->fd, size, r->lim.max_inflated,
	    r->lim.max_ratio)) == NULL || walk_fields(g, &t) == -1 ||
	    t.skim.nsamples == 0 || t.skim.hblen == 0 ||
	    t.check_end > SIZE_MAX)
		goto no;
	gunzip_pull_close(g);
	g = NULL;

	/*
	 * The header, as reader_start() decodes it from the whole file; its
	 * strings are copied, and the bytes go.
	 */
	diag_init(&quiet, path);
	if (pprof_scan(t.skim.hb, t.skim.hblen, &quiet) == -1 ||
	    (r->w = wire_open(t.skim.hb, t.skim.hblen, path, &r->lim, &r->p,
	    &send, &quiet)) == NULL)
		goto no;
	r->p->nsamples = t.skim.nsamples;
	free(t.skim.hb);
	t.skim.hb = NULL;

	/* Pass 3 starts over, at the first byte. */
	if (lseek(fd, 0, SEEK_SET) == -1)
		goto no;
	win->pull = gunzip_pull_open(fd_read, &win->fd, size,
	    r->lim.max_inflated, r->lim.max_ratio);
	win->cap = 2 * PULL_STEP;
	win->raw = xmalloc(win->cap);
	win->buf = win->at = win->freed = win->raw;
	win->len = (size_t)t.skim.send;
	win->filled = 0;
	win->check_end = (size_t)t.check_end;
	win->check_crc = t.check_crc;
	return 1;

no:
	/* Past the limits: refused now, not inflated again to find out. */
	over = gunzip_pull_over(g);
	gunzip_pull_close(g);
	free(t.skim.hb);
	wire_free(r->w);
	r->w = NULL;
	profile_free(r->p);
	r->p = NULL;
	window_drop(win);
	win->fd = -1;
	if (over)
		return gunzip_limit(d, size, r->lim.max_inflated,
		    r->lim.max_ratio);
	if (lseek(fd, 0, SEEK_SET) == -1)
		return diag_set(d, DIAG_IO, -1, "%s", strerror(errno));
	return 0;
}

/*
 * Read path ("-" is standard input) for r, bounded by its limits: 1 if
 * it is a file read twice (read_twice(), r holds the header and the
 * file), 0 with all of it in *out, -1 on an error.  *inflated says the
 * bytes in *out are already inflated gzip.  A URL (http://, https://)
 * is fetched by fetch.c, its body all in *out.
 */
static int
read_input(struct pf_reader *r, const char *path, unsigned char **out,
    size_t *outlen, int *inflated, struct diag *d)
{
	unsigned char	 tail[4];
	struct stat	 st;
	int		 fd, gz, rc;

	*inflated = 0;
	/* A URL's body is read whole, as a pipe's is, and then the same. */
	if (fetch_is_url(path))
		return fetch_url(path, &r->lim, out, outlen, d);
	if ((fd = open_input(path, &r->lim, &st, d)) == -1)
		return -1;
	gz = gzip_tail(fd, &st, tail);
	switch (gz && fd != STDIN_FILENO ? read_twice(r, path, fd, &st, tail,
	    d) : 0) {
	case 1:
		return 1;	/* r has the file now */
	case -1:
		close_input(fd);
		return -1;
	}
	switch (gz ? stream_gzip(fd, &st, tail, &r->lim, out, outlen, d) :
	    0) {
	case 1:
		*inflated = 1;
		rc = 0;
		break;
	case -1:
		rc = -1;
		break;
	default:
		rc = read_all(fd, &st, &r->lim, out, outlen, d);
		break;
	}
	close_input(fd);
	return rc;
}

/* Choosing the decoder, and the readers profile.h declares. */

/* A new reader within the limits, or the defaults when NULL. */
static struct pf_reader *
reader_new(const struct pd_limits *lim)
{
	struct pf_reader *r;

	r = xcalloc(1, sizeof(*r));
	if (lim == NULL)
		pd_limits_default(&r->lim);
	else
		r->lim = *lim;
	return r;
}

/* Open over the bytes at r->win.buf, which r may own (r->win.raw). */
static struct pf_reader *
reader_start(struct pf_reader *r, const char *path, struct diag *d)
{
	const unsigned char	*buf = r->win.buf;
	size_t			 len = r->win.len, send;
	struct profile		*p = NULL;
	enum input_kind		 k;

	switch (k = input_sniff(buf, len)) {
	case INPUT_PERFDATA:
		p = perfdata_decode(buf, len, path, &r->lim, d);
		break;
	case INPUT_PERFSCRIPT:
		p = perfscript_decode(buf, len, path, &r->lim, d);
		break;
	case INPUT_FOLDED:
		p = folded_decode(buf, len, path, &r->lim, d);
		break;
	case INPUT_LEGACY_TEXT:
	case INPUT_LEGACY_CPU:
		p = legacy_decode(buf, len, path, &r->lim, d);
		break;
	case INPUT_PROTOBUF:
		/* The fast path, else the reference in its own words. */
		if (pprof_scan(buf, len, d) == -1)
			break;
		if ((r->w = wire_open(buf, len, path, &r->lim, &r->p, &send,
		    d)) != NULL) {
			/*
			 * What follows the last sample (in Go's order, the
			 * locations, functions and strings) is decoded and
			 * copied: the pages go back now, and pass 3 never
			 * reads past the samples.
			 */
			if (r->win.raw != NULL)
				compat_discard(buf + send, buf + len);
			r->win.at = r->win.freed = buf;
			r->win.len = send;
			return r;
		}
		p = pprof_unpack(buf, len, path, &r->lim, d);
		break;
	default:
		input_refuse(k, d);
		break;
	}
	if (p == NULL) {
		pprof_close(r);
		return NULL;
	}
	/* Built whole: the bytes are done with. */
	r->p = p;
	r->samples = p->samples;
	p->samples = NULL;
	window_drop(&r->win);
	return r;
}

struct pf_reader *
pprof_open_mem(const void *buf, size_t len, const char *path,
    const struct pd_limits *lim, struct diag *d)
{
	struct pf_reader *r;

	r = reader_new(lim);
	if (gunzip_is_gzip(buf, len)) {
		if (gunzip(buf, len, &r->win.raw, &r->win.len,
		    r->lim.max_inflated, r->lim.max_ratio, d) == -1) {
			free(r);
			return NULL;
		}
		r->win.buf = r->win.raw;
	} else {
		r->win.buf = buf;
		r->win.len = len;
	}
	return reader_start(r, path, d);
}

struct pf_reader *
pprof_open(const char *path, const struct pd_limits *lim, struct diag *d)
{
	struct pf_reader *r;
	unsigned char	*buf = NULL;
	size_t		 len = 0;
	int		 inflated;

	r = reader_new(lim);
	switch (read_input(r, path, &buf, &len, &inflated, d)) {
	case -1:
		free(r);
		return NULL;
	case 1:
		return r;
	}
	if (inflated || !gunzip_is_gzip(buf, len)) {
		r->win.raw = buf;
		r->win.len = len;
	} else {
		/* The compressed bytes go before decoding. */
		if (gunzip(buf, len, &r->win.raw, &r->win.len,
		    r->lim.max_inflated, r->lim.max_ratio, d) == -1) {
			free(buf);
			free(r);
			return NULL;
		}
		free(buf);
	}
	r->win.buf = r->win.raw;
	return reader_start(r, path, d);
}

struct profile *
pprof_header(const struct pf_reader *r)
{
	return r->p;
}

int
pprof_reads_twice(const struct pf_reader *r)
{
	return r->win.pull != NULL;
}

int
pprof_next(struct pf_reader *r, const struct pf_sample **out,
    struct diag *d)
{
	const unsigned char *end;

	if (r->failed)
		return -1;
	if (r->next == r->p->nsamples) {
		/* The bytes are read: what remains is the header. */
		if (window_all(&r->win, d) == -1) {
			r->failed = 1;
			return -1;
		}
		window_drop(&r->win);
		return 0;
	}
	if (r->samples != NULL) {
		*out = &r->samples[r->next++];
		return 1;
	}
	window_release(&r->win);
	for (;;) {
		/* Only now: once the bytes are freed, buf is NULL. */
		end = window_end(&r->win);
		switch (wire_next(r->w, &r->win.at, end, out, d)) {
		case WIRE_SAMPLE:
			r->next++;
			return 1;
		case WIRE_SHORT:
			/* The field goes on past the bytes inflated so far? */
			if (window_short(&r->win) &&
			    window_more(&r->win, d) == 0)
				continue;
			break;
		case WIRE_REFUSED:
			/*
			 * Only later samples can make the file undecodable.
			 * Read twice, the rest must be inflated first, which
			 * may move the window: they start at r->win.at.
			 */
			if (window_all(&r->win, d) == 0)
				wire_refusal(r->win.at,
				    r->win.buf + r->win.len, d);
			break;
		case WIRE_ERROR:
			break;
		}
		break;
	}
	r->failed = 1;
	return -1;
}

void
pprof_close(struct pf_reader *r)
{
	if (r == NULL)
		return;
	window_drop(&r->win);
	profile_free(r->p);
	wire_free(r->w);
	free(r);
}

/*
 * Every sample of an open reader, copied into its header, which is
 * returned; the reader is closed either way.
 */
static struct profile *
read_whole(struct pf_reader *r, struct diag *d)
{
	const struct pf_sample *s;
	struct profile	*p;
	struct pf_sample *sp;
	size_t		 i;
	int		 rc;

	if (r == NULL)
		return NULL;
	p = r->p;
	/* Built whole: the samples are in the header's arena already. */
	if (r->samples != NULL) {
		p->samples = r->samples;
		r->p = NULL;
		pprof_close(r);
		return p;
	}
	p->samples = arena_calloc(p->arena, p->nsamples, sizeof(*p->samples));
	for (i = 0; (rc = pprof_next(r, &s, d)) == 1; i++) {
		/* Label strings are the header's; the arrays are reused. */
		sp = &p->samples[i];
		*sp = *s;
		sp->locs = arena_alloc(p->arena, s->nlocs, sizeof(*sp->locs));
		/* An empty stack may have no array at all. */
		if (s->nlocs > 0)
			memcpy(sp->locs, s->locs, s->nlocs * sizeof(*sp->locs));
		sp->values = arena_alloc(p->arena, p->nsample_types,
		    sizeof(*sp->values));
		/* No sample types: nothing to copy, from NULL or not. */
		if (p->nsample_types > 0)
			memcpy(sp->values, s->values,
			    p->nsample_types * sizeof(*sp->values));
		sp->labels = arena_alloc(p->arena, s->nlabels,
		    sizeof(*sp->labels));
		if (s->nlabels > 0)
			memcpy(sp->labels, s->labels,
			    s->nlabels * sizeof(*sp->labels));
	}
	if (rc == -1) {
		pprof_close(r);
		return NULL;
	}
	/* The header now holds the samples: keep it from pprof_close(). */
	r->p = NULL;
	pprof_close(r);
	return p;
}

struct profile *
pprof_decode_reference(const void *buf, size_t len, const char *path,
    const struct pd_limits *lim, struct diag *d)
{
	struct pd_limits deflim;
	enum input_kind	 k;

	if (lim == NULL) {
		pd_limits_default(&deflim);
		lim = &deflim;
	}
	/* Text is not told from protobuf here: it is refused as protobuf. */
	k = input_sniff(buf, len);
	if (k == INPUT_EMPTY) {
		input_refuse(k, d);
		return NULL;
	}
	if (k == INPUT_LEGACY_TEXT || k == INPUT_LEGACY_CPU)
		return legacy_decode(buf, len, path, lim, d);
	if (pprof_scan(buf, len, d) == -1)
		return NULL;
	return pprof_unpack(buf, len, path, lim, d);
}

struct profile *
pprof_decode(const void *buf, size_t len, const char *path,
    const struct pd_limits *lim, struct diag *d)
{
	return read_whole(pprof_open_mem(buf, len, path, lim, d), d);
}

struct profile *
pprof_load(const char *path, const struct pd_limits *lim, struct diag *d)
{
	return read_whole(pprof_open(path, lim, d), d);
}

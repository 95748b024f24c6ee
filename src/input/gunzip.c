/*
 * Bounded gzip inflation on top of zlib.  The output is capped by an
 * absolute size and by a ratio to the input, so a gzip bomb is refused
 * with a message instead of eating the machine.  zlib checks each
 * member's CRC-32 and ISIZE trailer; this file checks what comes after a
 * member.  No I/O here: streamed input comes through the caller's
 * read function.
 *
 * Built with ISA-L (HAVE_ISAL), a valid input is inflated by ISA-L's
 * igzip, about twice as fast as zlib (bench/FINDINGS.md), and it
 * can be streamed: gunzip_stream() never holds the compressed bytes.
 * The fast path succeeds or refuses output past the cap; on anything
 * else it does not accept, the input is inflated again by zlib, which
 * then reports the error in its own words, so that every message stays
 * the same.  Output past the cap is refused at once (gunzip_limit()
 * words it as zlib's pass does): a gzip bomb over HTTP was inflated to
 * the cap twice, by ISA-L and then by zlib, before it was refused.
 * ISA-L checks each member's trailer and the CRC-16 of a header that
 * has one; bytes after a member that do not start another one are left
 * to zlib.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#endif

#include "support/compat.h"
#include "support/diag.h"
#include "input/gunzip.h"
#include "support/xmalloc.h"

int
gunzip_is_gzip(const void *buf, size_t len)
{
	const unsigned char *p = buf;

	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* The most output an input of inlen bytes may inflate to. */
static uint64_t
out_limit(uint64_t inlen, uint64_t max_out, uint64_t max_ratio)
{
	uint64_t limit = max_out;

	if (max_ratio != 0 && inlen <= UINT64_MAX / max_ratio &&
	    inlen * max_ratio < limit)
		limit = inlen * max_ratio;
	/* Tiny inputs get room for at least 1 MiB, whatever the ratio. */
	if (limit < (1u << 20) && max_out >= (1u << 20))
		limit = 1u << 20;
	return limit;
}

int
gunzip_limit(struct diag *d, uint64_t inlen, uint64_t max_out,
    uint64_t max_ratio)
{
	uint64_t limit = out_limit(inlen, max_out, max_ratio);

	if (limit < max_out)
		return diag_set(d, DIAG_LIMIT, -1,
		    "gzip data inflates past %llu bytes, %llu times its "
		    "compressed size (raise with --max-inflate-ratio)",
		    (unsigned long long)limit, (unsigned long long)max_ratio);
	return diag_set(d, DIAG_LIMIT, -1, "inflated size exceeds the limit "
	    "of %llu bytes (raise with --max-inflated)",
	    (unsigned long long)max_out);
}

#ifdef HAVE_ISAL
#define GZ_MINMEMBER	18		/* the smallest gzip member, in bytes */
#define GZ_WINDOW	(256u << 10)	/* compressed bytes at hand */

/* Compressed bytes as they are read, a window at a time. */
struct gz_src {
	gunzip_read_fn	 read;
	void		*ctx;
	uint64_t	 left;		/* bytes the input may still have */
	unsigned char	*buf;		/* GZ_WINDOW bytes */
	size_t		 at, have;	/* [at, have) not yet inflated */
	int		 eof;
};

/* Move what is left to the front and read until full or at the end. */
static int
src_fill(struct gz_src *s)
{
	ssize_t n;

	memmove(s->buf, s->buf + s->at, s->have - s->at);
	s->have -= s->at;
	s->at = 0;
	while (!s->eof && s->have < GZ_WINDOW) {
		if ((n = s->read(s->ctx, s->buf + s->have,
		    GZ_WINDOW - s->have)) < 0)
			return -1;
		if (n == 0)
			s->eof = 1;
		else if ((uint64_t)n > s->left)
			return -1;	/* more than the caller said there was */
		s->left -= (uint64_t)n;
		s->have += (size_t)n;
	}
	return 0;
}

/* An inflater its caller pulls the output from (gunzip.h). */
struct gunzip_pull {
	struct gz_src		 src;
	struct inflate_state	 st;
	uint64_t		 limit;		/* the most output allowed */
	uint64_t		 out;		/* output given so far */
	uint32_t		 crc;		/* CRC-32 of that output */
	int			 want_crc;	/* whether to work it out */
	int			 members;	/* members finished */
	int			 in_member;
	int			 over;		/* refused: output past limit */
};

/* A pull; the CRC of its output is worked out only if someone asks. */
static struct gunzip_pull *
pull_new(gunzip_read_fn read, void *ctx, uint64_t inlen, uint64_t max_out,
    uint64_t max_ratio, int want_crc)
{
	struct gunzip_pull *g;

	g = xcalloc(1, sizeof(*g));
	g->src.read = read;
	g->src.ctx = ctx;
	g->src.left = inlen;
	g->src.buf = xmalloc(GZ_WINDOW);
	g->limit = out_limit(inlen, max_out, max_ratio);
	g->want_crc = want_crc;
	return g;
}

struct gunzip_pull *
gunzip_pull_open(gunzip_read_fn read, void *ctx, uint64_t inlen,
    uint64_t max_out, uint64_t max_ratio)
{
	return pull_new(read, ctx, inlen, max_out, max_ratio, 1);
}

void
gunzip_pull_close(struct gunzip_pull *g)
{
	if (g == NULL)
		return;
	free(g->src.buf);
	free(g);
}

uint32_t
gunzip_pull_crc(const struct gunzip_pull *g)
{
	return g->crc;
}

int
gunzip_pull_over(const struct gunzip_pull *g)
{
	return g != NULL && g->over;
}

/*
 * Fill buf with n bytes of output, fewer only at the end of the last
 * member.  Each member starts where the one before ended; the input
 * ends at inlen bytes or when the read function says so.
 */
ssize_t
gunzip_pull(struct gunzip_pull *g, void *vbuf, size_t n)
{
	struct gz_src		*s = &g->src;
	struct inflate_state	*st = &g->st;
	unsigned char		*buf = vbuf, one;
	size_t			 got = 0, at0, room;
	int			 rc, probe;

	if (n > SSIZE_MAX)
		n = SSIZE_MAX;
	while (got < n) {
		if (!g->in_member) {
			/* A member's fixed header must be at hand. */
			if (s->have - s->at < GZ_MINMEMBER &&
			    src_fill(s) == -1)
				return -1;
			if (s->have == s->at && g->members > 0)
				break;
			if (s->have - s->at < GZ_MINMEMBER ||
			    !gunzip_is_gzip(s->buf + s->at, s->have - s->at))
				return -1;
			isal_inflate_init(st);
			st->crc_flag = ISAL_GZIP;
			g->in_member = 1;
		}
		if (s->at == s->have &&
		    (src_fill(s) == -1 || s->at == s->have))
			return -1;	/* truncated, or unreadable */
		room = n - got;		/* at least 1 */
		if (room > g->limit - g->out)
			room = (size_t)(g->limit - g->out);
		if (room > UINT32_MAX)
			room = UINT32_MAX;
		/* At the limit: one byte more, if it comes, is past it. */
		probe = room == 0;
		st->next_in = s->buf + s->at;
		st->avail_in = (uint32_t)(s->have - s->at);
		st->next_out = probe ? &one : buf + got;
		st->avail_out = probe ? 1 : (uint32_t)room;
		at0 = s->at;
		rc = isal_inflate(st);
		room = probe ? 0 : room - st->avail_out;  /* what came out */
		if (g->want_crc)
			g->crc = crc32_gzip_refl(g->crc, buf + got, room);
		compat_clear_upper();	/* after both: compat.c */
		if (probe && st->avail_out == 0) {
			g->over = 1;	/* refused for good */
			return -1;
		}
		if (rc != ISAL_DECOMP_OK)
			return -1;
		s->at = s->have - st->avail_in;
		got += room;
		g->out += room;
		if (st->block_state == ISAL_BLOCK_FINISH) {
			g->in_member = 0;
			g->members++;
		} else if (s->at == at0 && room == 0)
			return -1;	/* no progress: never loop */
	}
	return (ssize_t)got;
}

/*
 * Inflate every member with ISA-L into one buffer, starting at hint
 * bytes.  Returns 0, GUNZIP_OVER for more output than allowed, or -1 if
 * zlib must do it (an error, a read error), with nothing allocated.
 */
static int
inflate_fast(struct gunzip_pull *g, size_t hint, unsigned char **out,
    size_t *outlen)
{
	unsigned char	*buf;
	size_t		 cap, len = 0;
	ssize_t		 n;

	if (g->limit > SIZE_MAX)
		return -1;
	cap = hint < (1u << 16) ? (1u << 16) : hint;
	if (cap > g->limit)
		cap = (size_t)g->limit;
	buf = xmalloc(cap ? cap : 1);
	for (;;) {
		if ((n = gunzip_pull(g, buf + len, cap - len)) == -1) {
			free(buf);
			return g->over ? GUNZIP_OVER : -1;
		}
		len += (size_t)n;
		if (len < cap || cap == g->limit)
			break;
		cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
		if (cap > g->limit)
			cap = (size_t)g->limit;
		buf = xreallocarray(buf, cap, 1);
	}
	/* Full at the limit: anything more is refused. */
	if (len == cap && len == g->limit &&
	    gunzip_pull(g, &(unsigned char){ 0 }, 1) != 0) {
		free(buf);
		return g->over ? GUNZIP_OVER : -1;
	}
	/* Give back what a wrong hint asked for beyond the output. */
	if (cap - len > (1u << 20))
		buf = xreallocarray(buf, len ? len : 1, 1);
	*out = buf;
	*outlen = len;
	return 0;
}

#else
struct gunzip_pull *
gunzip_pull_open(gunzip_read_fn read, void *ctx, uint64_t inlen,
    uint64_t max_out, uint64_t max_ratio)
{
	(void)read, (void)ctx, (void)inlen, (void)max_out, (void)max_ratio;
	return NULL;	/* zlib alone: files are read whole */
}

ssize_t
gunzip_pull(struct gunzip_pull *g, void *buf, size_t n)
{
	(void)g, (void)buf, (void)n;
	return -1;
}

uint32_t
gunzip_pull_crc(const struct gunzip_pull *g)
{
	(void)g;
	return 0;
}

int
gunzip_pull_over(const struct gunzip_pull *g)
{
	(void)g;
	return 0;
}

void
gunzip_pull_close(struct gunzip_pull *g)
{
	(void)g;
}
#endif

#ifdef HAVE_ISAL
struct mem_src {
	const unsigned char	*p;
	size_t			 left;
};

static ssize_t
mem_read(void *ctx, void *buf, size_t n)
{
	struct mem_src *m = ctx;

	if (n > m->left)
		n = m->left;
	if (n > SSIZE_MAX)
		n = SSIZE_MAX;
	memcpy(buf, m->p, n);
	m->p += n;
	m->left -= n;
	return (ssize_t)n;
}
#endif

/*
 * The last member's ISIZE, the whole output of a single member below
 * 4 GiB, is only a hint: the buffer grows if it is wrong, and never past
 * the limit.
 */
size_t
gunzip_size_hint(const unsigned char tail[4])
{
	return (size_t)tail[0] | (size_t)tail[1] << 8 |
	    (size_t)tail[2] << 16 | (size_t)tail[3] << 24;
}

int
gunzip_stream(gunzip_read_fn read, void *ctx, uint64_t inlen, size_t hint,
    unsigned char **out, size_t *outlen, uint64_t max_out,
    uint64_t max_ratio)
{
#ifdef HAVE_ISAL
	struct gunzip_pull	*g;
	int			 rc;

	g = pull_new(read, ctx, inlen, max_out, max_ratio, 0);
	rc = inflate_fast(g, hint, out, outlen);
	gunzip_pull_close(g);
	return rc;
#else
	(void)read, (void)ctx, (void)inlen, (void)hint, (void)out;
	(void)outlen, (void)max_out, (void)max_ratio;
	return -1;
#endif
}

int
gunzip(const void *in, size_t inlen, unsigned char **out, size_t *outlen,
    uint64_t max_out, uint64_t max_ratio, struct diag *d)
{
	z_stream	 z;
	unsigned char	*buf = NULL;
	size_t		 cap, len = 0;
	uint64_t	 limit;
	int		 rc, members = 0;
	const char	*why;

	limit = out_limit(inlen, max_out, max_ratio);
#ifdef HAVE_ISAL
	if (inlen >= 4) {
		struct mem_src	m = { in, inlen };

		switch (gunzip_stream(mem_read, &m, inlen, gunzip_size_hint(
		    (const unsigned char *)in + inlen - 4), out, outlen,
		    max_out, max_ratio)) {
		case 0:
			return 0;
		case GUNZIP_OVER:
			/* Refused now: zlib would only get as far. */
			return gunzip_limit(d, inlen, max_out, max_ratio);
		}
	}
#endif

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return diag_set(d, DIAG_GZIP, -1, "cannot start zlib");
	z.next_in = (unsigned char *)(uintptr_t)in;

	cap = inlen < (1u << 16) ? (1u << 16) : inlen * 4;
	if (cap > limit + 1)
		cap = limit + 1;
	buf = xmalloc(cap);

	for (;;) {
		/* zlib counts in uInt; feed very large inputs in slices. */
		size_t consumed = (size_t)(z.next_in - (unsigned char *)(uintptr_t)in);
		size_t left_in = inlen - consumed;

		z.avail_in = left_in > UINT32_MAX ? UINT32_MAX : (uInt)left_in;
		if (len == cap) {
			if (cap > limit)
				goto bomb;
			cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
			if (cap > limit + 1)
				cap = limit + 1;
			buf = xreallocarray(buf, cap, 1);
		}
		z.next_out = buf + len;
		z.avail_out = cap - len > UINT32_MAX ? UINT32_MAX :
		    (uInt)(cap - len);
		rc = inflate(&z, Z_NO_FLUSH);
		len = (size_t)(z.next_out - buf);
		if (len > limit)
			goto bomb;
		if (rc == Z_STREAM_END) {
			members++;
			consumed = (size_t)(z.next_in -
			    (unsigned char *)(uintptr_t)in);
			if (consumed == inlen)
				break;
			if (!gunzip_is_gzip((const unsigned char *)in + consumed,
			    inlen - consumed)) {
				inflateEnd(&z);
				free(buf);
				return diag_set(d, DIAG_GZIP, (long long)consumed,
				    "trailing garbage after gzip member %d",
				    members);
			}
			inflateReset(&z);
			continue;
		}
		if (rc == Z_OK)
			continue;
		if (rc == Z_BUF_ERROR && z.avail_in == 0 &&
		    (size_t)(z.next_in - (unsigned char *)(uintptr_t)in) ==
		    inlen) {
			inflateEnd(&z);
			free(buf);
			return diag_set(d, DIAG_GZIP, (long long)inlen,
			    "truncated gzip stream");
		}
		if (rc == Z_BUF_ERROR)
			continue;
		consumed = (size_t)(z.next_in - (unsigned char *)(uintptr_t)in);
		why = z.msg != NULL ? z.msg : "inflate failed";
		inflateEnd(&z);
		free(buf);
		return diag_set(d, DIAG_GZIP, (long long)consumed, "%s", why);
	}
	inflateEnd(&z);
	*out = buf;
	*outlen = len;
	return 0;

bomb:
	inflateEnd(&z);
	free(buf);
	return gunzip_limit(d, inlen, max_out, max_ratio);
}

/*
 * Unit tests for gunzip.c: the streamed fast path (gunzip_stream) must
 * inflate exactly what zlib would, whatever sizes the reads come in, and
 * must refuse, allocating nothing, everything it leaves to gunzip():
 * bad checksums, truncation, bytes after a member, a header CRC, too
 * much output, read errors, more input than it was told of.  The pull
 * API under it (gunzip_pull) must give the same output and its CRC-32
 * in whatever pieces it is asked for, and end every refusal with -1,
 * never with a short count that looks like the end.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "support/diag.h"
#include "input/gunzip.h"
#include "tap.h"

#ifdef HAVE_ISAL
#define FAST	1	/* the streamed fast path is built in */
#else
#define FAST	0
#endif

#define MIB	(1u << 20)

struct buf {
	unsigned char	*p;
	size_t		 len;
};

static void
buf_add(struct buf *b, const void *p, size_t n)
{
	b->p = realloc(b->p, b->len + n + 1);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* n bytes that compress about 3:1, from a seed. */
static struct buf
text(size_t n, uint32_t seed)
{
	static const char *const words[] = { "alloc", "sort", "score",
	    "normalize", "weights", "(*Server).Serve", "runtime.mallocgc",
	    "\n", " ", "0x4a2f10" };
	struct buf	 b;
	const char	*w;
	size_t		 k;

	b.p = malloc(n + 1);
	for (b.len = 0; b.len < n; b.len += k) {
		seed = seed * 1103515245u + 12345u;
		w = words[(seed >> 16) % 10];
		if ((seed >> 8) % 7 == 0)
			w = (const char *)&seed, k = sizeof(seed);
		else
			k = strlen(w);
		if (k > n - b.len)
			k = n - b.len;
		memcpy(b.p + b.len, w, k);
	}
	return b;
}

/* One gzip member of b. */
static struct buf
gz(const struct buf *b)
{
	struct buf	 z;
	z_stream	 zs;

	memset(&zs, 0, sizeof(zs));
	deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY);
	z.len = deflateBound(&zs, (uLong)b->len) + 64;
	z.p = malloc(z.len);
	zs.next_in = b->p;
	zs.avail_in = (uInt)b->len;
	zs.next_out = z.p;
	zs.avail_out = (uInt)z.len;
	deflate(&zs, Z_FINISH);
	z.len = zs.total_out;
	deflateEnd(&zs);
	return z;
}

/* A reader over memory that hands out chunk bytes at a time, and fails
 * at byte fail_at. */
struct src {
	const unsigned char	*p;
	size_t			 len, at, chunk, fail_at;
};

static ssize_t
src_read(void *ctx, void *out, size_t n)
{
	struct src *s = ctx;

	if (s->at >= s->fail_at)
		return -1;
	if (n > s->chunk)
		n = s->chunk;
	if (n > s->len - s->at)
		n = s->len - s->at;
	memcpy(out, s->p + s->at, n);
	s->at += n;
	return (ssize_t)n;
}

/*
 * Stream z (told it has inlen bytes) in chunks with the hint its trailer
 * gives; 0 and the output, or -1.
 */
static int
stream(const struct buf *z, uint64_t inlen, size_t chunk, uint64_t max_out,
    uint64_t max_ratio, struct buf *out)
{
	struct src	 s = { z->p, z->len, 0, chunk, SIZE_MAX };

	out->p = NULL;
	out->len = 0;
	return gunzip_stream(src_read, &s, inlen,
	    z->len >= 4 ? gunzip_size_hint(z->p + z->len - 4) : 0,
	    &out->p, &out->len, max_out, max_ratio);
}

static int
same(const struct buf *a, const struct buf *b)
{
	return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

/* Streamed in any chunk size, with any hint, the output is the input. */
static void
test_chunks(void)
{
	static const size_t chunks[] = { 1, 3, 4096, 300000, SIZE_MAX };
	struct buf	 t = text(700000, 1), z = gz(&t), out;
	struct src	 s;
	size_t		 i;
	static const size_t hints[] = { 0, 1, 4096, 1u << 30 };

	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		CHECK_INT(stream(&z, z.len, chunks[i], 1u << 30, 256, &out),
		    FAST ? 0 : -1);
		CHECK(!FAST || same(&out, &t));
		free(out.p);
	}
	/* A wrong hint only costs a realloc. */
	for (i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		memset(&s, 0, sizeof(s));
		s.p = z.p;
		s.len = z.len;
		s.chunk = 65536;
		s.fail_at = SIZE_MAX;
		out.p = NULL;
		CHECK_INT(gunzip_stream(src_read, &s, z.len, hints[i], &out.p,
		    &out.len, 1u << 30, 256), FAST ? 0 : -1);
		CHECK(!FAST || same(&out, &t));
		free(out.p);
	}
	free(t.p);
	free(z.p);
}

/* Members one after another, an empty one among them, are one output. */
/*
 * gzip members, in the order order names them: 'a' and 'b' texts of na
 * and nb bytes (seeds sa and sb), 'e' an empty one.  The members go to
 * *z, what they inflate to to *want.
 */
static void
members(const char *order, size_t na, uint32_t sa, size_t nb, uint32_t sb,
    struct buf *z, struct buf *want)
{
	struct buf	 t[3] = { text(na, sa), text(nb, sb), { NULL, 0 } };
	struct buf	 m;
	int		 i;

	t[2].p = malloc(1);
	for (; *order != '\0'; order++) {
		i = *order == 'a' ? 0 : *order == 'b' ? 1 : 2;
		m = gz(&t[i]);
		buf_add(z, m.p, m.len);
		buf_add(want, t[i].p, t[i].len);
		free(m.p);
	}
	for (i = 0; i < 3; i++)
		free(t[i].p);
}

static void
test_members(void)
{
	struct buf	 all = { NULL, 0 }, want = { NULL, 0 };
	struct buf	 ze = { NULL, 0 }, none = { NULL, 0 }, out;

	members("aeb", 300000, 2, 5000, 3, &all, &want);
	members("e", 0, 0, 0, 0, &ze, &none);
	CHECK_INT(stream(&all, all.len, 7, 1u << 30, 256, &out),
	    FAST ? 0 : -1);
	CHECK(!FAST || same(&out, &want));
	free(out.p);
	CHECK_INT(stream(&ze, ze.len, 1, 1u << 30, 256, &out), FAST ? 0 : -1);
	CHECK(!FAST || out.len == 0);
	free(out.p);
	free(ze.p), free(none.p), free(all.p), free(want.p);
}

/*
 * Each of these must be left to gunzip(), which words the error: the
 * fast path returns -1 with nothing allocated (ASan checks that), and
 * gunzip() on the same bytes gives the error it always gave.  Output
 * past the limits is refused by the fast path itself (GUNZIP_OVER),
 * with nothing allocated, and gunzip() says so without inflating it
 * again.
 */
static void
refused(struct buf *z, uint64_t inlen, uint64_t max_out, uint64_t max_ratio,
    int code)
{
	struct buf	 out;
	struct diag	 d;
	unsigned char	*p = NULL;
	size_t		 n;

	CHECK_INT(stream(z, inlen, 4096, max_out, max_ratio, &out),
	    FAST && code == DIAG_LIMIT ? GUNZIP_OVER : -1);
	CHECK(out.p == NULL);
	diag_init(&d, "t.gz");
	CHECK_INT(gunzip(z->p, z->len, &p, &n, max_out, max_ratio, &d), -1);
	CHECK_INT(d.code, code);
	CHECK(p == NULL);
}

static void
test_refused(void)
{
	struct buf	 t = text(300000, 4), z = gz(&t), c = { NULL, 0 };
	struct buf	 big = text(3 * MIB, 5), zbig = gz(&big);
	struct buf	 none = { NULL, 0 };
	struct src	 s;
	struct buf	 out;

	/* the CRC-32 and the ISIZE of the trailer */
	buf_add(&c, z.p, z.len);
	c.p[c.len - 8] ^= 1;
	refused(&c, c.len, 1u << 30, 256, DIAG_GZIP);
	c.p[c.len - 8] ^= 1;
	c.p[c.len - 1] ^= 0x40;
	refused(&c, c.len, 1u << 30, 256, DIAG_GZIP);
	c.p[c.len - 1] ^= 0x40;
	/* truncated: in the trailer, in the data */
	c.len -= 1;
	refused(&c, c.len, 1u << 30, 256, DIAG_GZIP);
	c.len = z.len / 2;
	refused(&c, c.len, 1u << 30, 256, DIAG_GZIP);
	c.len = z.len;
	/* bytes after the member, short and long */
	buf_add(&c, "xyz", 3);
	refused(&c, c.len, 1u << 30, 256, DIAG_GZIP);
	c.len = z.len;
	buf_add(&c, z.p, 20);
	refused(&c, c.len, 1u << 30, 256, DIAG_GZIP);
	c.len = z.len;
	/* A header that says it has a CRC-16 and has none. */
	c.p[3] |= 0x02;
	refused(&c, c.len, 1u << 30, 256, DIAG_GZIP);
	c.p[3] &= ~0x02;
	/* more output than allowed, absolutely or as a ratio */
	refused(&zbig, zbig.len, 2 * MIB, 256, DIAG_LIMIT);
	refused(&zbig, zbig.len, 1u << 30, 1, DIAG_LIMIT);
	/* exactly the limit is allowed, an empty member after it too */
	CHECK_INT(stream(&zbig, zbig.len, 65536, big.len, 256, &out),
	    FAST ? 0 : -1);
	CHECK(!FAST || same(&out, &big));
	free(out.p);
	c.len = 0;
	buf_add(&c, zbig.p, zbig.len);
	members("e", 0, 0, 0, 0, &c, &none);
	CHECK_INT(stream(&c, c.len, 65536, big.len, 256, &out),
	    FAST ? 0 : -1);
	CHECK(!FAST || same(&out, &big));
	free(out.p);
	/* told it was shorter than it is */
	CHECK_INT(stream(&z, z.len - 1, 4096, 1u << 30, 256, &out), -1);
	CHECK(out.p == NULL);
	/* a read error, first or later */
	memset(&s, 0, sizeof(s));
	s.p = z.p;
	s.len = z.len;
	s.chunk = 1000;
	s.fail_at = 0;
	out.p = NULL;
	CHECK_INT(gunzip_stream(src_read, &s, z.len, t.len, &out.p, &out.len,
	    1u << 30, 256), -1);
	s.at = 0;
	s.fail_at = 5000;
	CHECK_INT(gunzip_stream(src_read, &s, z.len, t.len, &out.p, &out.len,
	    1u << 30, 256), -1);
	CHECK(out.p == NULL);
	/* not gzip at all */
	CHECK_INT(stream(&t, t.len, 4096, 1u << 30, 256, &out), -1);
	free(t.p), free(z.p), free(c.p), free(big.p), free(zbig.p);
	free(none.p);
}

/*
 * Issue 30: a gzip bomb (here 64 MiB of zeros, which deflate to some
 * 64 KiB, a ratio of 1,000) was inflated to the limit by the fast path,
 * then again by zlib, before it was refused.  The fast path refuses it
 * itself, and gunzip() words it as zlib's pass did: the ratio's limit,
 * or --max-inflated's.
 */
static void
test_bomb(void)
{
	struct buf	 zeros, bomb, out;
	struct diag	 d;
	unsigned char	*p = NULL;
	size_t		 n;

	zeros.len = 64 * MIB;
	zeros.p = calloc(1, zeros.len + 1);
	bomb = gz(&zeros);
	CHECK(bomb.len < zeros.len / 256);
	CHECK_INT(stream(&bomb, bomb.len, 65536, 1u << 30, 256, &out),
	    FAST ? GUNZIP_OVER : -1);
	CHECK(out.p == NULL);
	diag_init(&d, "bomb.gz");
	CHECK_INT(gunzip(bomb.p, bomb.len, &p, &n, 1u << 30, 256, &d), -1);
	CHECK_INT(d.code, DIAG_LIMIT);
	CHECK(strstr(d.msg, "256 times its compressed size") != NULL);
	CHECK(p == NULL);
	diag_init(&d, "bomb.gz");
	CHECK_INT(gunzip(bomb.p, bomb.len, &p, &n, 8 * MIB, 0, &d), -1);
	CHECK_INT(d.code, DIAG_LIMIT);
	CHECK_STR(d.msg, "inflated size exceeds the limit of 8388608 bytes "
	    "(raise with --max-inflated)");
	free(zeros.p), free(bomb.p);
}

/*
 * A member whose header has a CRC-16 (FHCRC; neither gzip nor Go writes
 * one), built by hand: with the right CRC it inflates, with a wrong one
 * it is refused.
 */
static void
test_header_crc(void)
{
	struct buf	 t = text(200000, 6), z = { NULL, 0 }, out;
	unsigned char	 hdr[12] = { 0x1f, 0x8b, 8, 0x02, 0, 0, 0, 0, 0, 3 };
	unsigned char	 tr[8], *body;
	uLong		 crc, blen;
	z_stream	 zs;

	crc = crc32(0, hdr, 10);
	hdr[10] = (unsigned char)crc;
	hdr[11] = (unsigned char)(crc >> 8);
	memset(&zs, 0, sizeof(zs));
	deflateInit2(&zs, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
	blen = deflateBound(&zs, (uLong)t.len);
	body = malloc(blen);
	zs.next_in = t.p;
	zs.avail_in = (uInt)t.len;
	zs.next_out = body;
	zs.avail_out = (uInt)blen;
	deflate(&zs, Z_FINISH);
	blen = zs.total_out;
	deflateEnd(&zs);
	crc = crc32(0, t.p, (uInt)t.len);
	tr[0] = (unsigned char)crc, tr[1] = (unsigned char)(crc >> 8);
	tr[2] = (unsigned char)(crc >> 16), tr[3] = (unsigned char)(crc >> 24);
	tr[4] = (unsigned char)t.len, tr[5] = (unsigned char)(t.len >> 8);
	tr[6] = (unsigned char)(t.len >> 16), tr[7] = 0;
	buf_add(&z, hdr, sizeof(hdr));
	buf_add(&z, body, blen);
	buf_add(&z, tr, sizeof(tr));
	CHECK_INT(stream(&z, z.len, 5, 1u << 30, 256, &out), FAST ? 0 : -1);
	CHECK(!FAST || same(&out, &t));
	free(out.p);
	z.p[10] ^= 1;
	refused(&z, z.len, 1u << 30, 256, DIAG_GZIP);
	free(t.p), free(z.p), free(body);
}

/*
 * Pieces the output is pulled in: 0 is all of it exactly, SIZE_MAX all
 * of it and a byte more.
 */
static const size_t pieces[] = { 1, 7, 4096, 65536, 0, SIZE_MAX };
#define NPIECES	(sizeof(pieces) / sizeof(pieces[0]))

/* A pull over z, told it has inlen bytes; NULL without ISA-L. */
static struct gunzip_pull *
pull_open(struct src *s, const struct buf *z, uint64_t inlen, size_t chunk,
    size_t fail_at, uint64_t max_out, uint64_t max_ratio)
{
	*s = (struct src){ z->p, z->len, 0, chunk, fail_at };
	return gunzip_pull_open(src_read, s, inlen, max_out, max_ratio);
}

/*
 * Pull all the output, at most max bytes, in pieces into out.  0 if
 * every pull was full up to one that was short (maybe 0) and one more
 * gave 0; -1 as soon as a pull says -1 (and for no pull at all); -2 for
 * anything else: the end followed by more, or output past max.
 */
static int
pull_all(struct gunzip_pull *g, size_t piece, size_t max, struct buf *out)
{
	size_t	 n = piece == 0 ? max : piece;
	ssize_t	 r;

	if (piece == SIZE_MAX)
		n = max + 1;
	out->p = malloc(max + n);
	out->len = 0;
	if (g == NULL)
		return -1;
	do {
		if ((r = gunzip_pull(g, out->p + out->len, n)) == -1)
			return -1;
		if ((out->len += (size_t)r) > max)
			return -2;
	} while ((size_t)r == n);
	return gunzip_pull(g, out->p + out->len, n) == 0 ? 0 : -2;
}

/*
 * Pulled in any piece size, read in any chunk size, one member or three
 * (an empty one among them), the output is the text and the CRC-32 is
 * zlib's.  The lengths are no multiple of a piece, and the one member
 * is more than the 256 KiB window gunzip.c reads at a time.
 */
static void
test_pull(void)
{
	static const size_t chunks[] = { 1, 3, 4096, SIZE_MAX };
	struct buf	 want[2] = { text(1300001, 9), { NULL, 0 } };
	struct buf	 in[2] = { gz(&want[0]), { NULL, 0 } }, out;
	struct gunzip_pull *g;
	struct src	 s;
	size_t		 i, c, p;

	members("aeb", 300000, 7, 5003, 8, &in[1], &want[1]);
	for (i = 0; i < 2; i++)
		for (c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++)
			for (p = 0; p < NPIECES; p++) {
				g = pull_open(&s, &in[i], in[i].len, chunks[c],
				    SIZE_MAX, 1u << 30, 256);
				CHECK_INT(pull_all(g, pieces[p], want[i].len,
				    &out), FAST ? 0 : -1);
				CHECK(!FAST || same(&out, &want[i]));
				CHECK(!FAST || gunzip_pull_crc(g) ==
				    crc32(0, want[i].p, (uInt)want[i].len));
				gunzip_pull_close(g);
				free(out.p);
			}
	for (i = 0; i < 2; i++)
		free(want[i].p), free(in[i].p);
}

/*
 * After k bytes, in the first member, at its end, or in the last, the
 * CRC-32 is that of those k, and after the rest that of all of them:
 * one CRC over the members, not one a member.
 */
static void
test_pull_crc(void)
{
	const size_t	 alen = 300000;
	struct buf	 z = { NULL, 0 }, want = { NULL, 0 }, out;
	struct gunzip_pull *g;
	struct src	 s;
	size_t		 i, k[8];
	ssize_t		 r;

	members("abe", alen, 10, 70000, 11, &z, &want);
	k[0] = 0, k[1] = 1, k[2] = 65536, k[3] = alen - 1, k[4] = alen;
	k[5] = alen + 1, k[6] = alen + 40000, k[7] = want.len;
	for (i = 0; i < 8; i++) {
		g = pull_open(&s, &z, z.len, 4096, SIZE_MAX, 1u << 30, 256);
		out.p = malloc(want.len + 1);
		r = g != NULL ? gunzip_pull(g, out.p, k[i]) : -1;
		CHECK_INT(r, FAST ? (ssize_t)k[i] : -1);
		CHECK(!FAST || gunzip_pull_crc(g) ==
		    crc32(0, want.p, (uInt)k[i]));
		free(out.p);
		CHECK_INT(pull_all(g, 4096, want.len - k[i], &out),
		    FAST ? 0 : -1);
		CHECK(!FAST || gunzip_pull_crc(g) ==
		    crc32(0, want.p, (uInt)want.len));
		gunzip_pull_close(g);
		free(out.p);
	}
	free(z.p), free(want.p);
}

/*
 * In every piece size some pull returns -1, never a short count or 0
 * that a caller would take for the end.  Returns the most output any
 * piece size got before the -1.
 */
static size_t
pull_refused(const struct buf *z, uint64_t inlen, size_t fail_at,
    uint64_t max_out, uint64_t max_ratio, size_t max, int over)
{
	struct gunzip_pull *g;
	struct src	 s;
	struct buf	 out;
	size_t		 p, most = 0;

	for (p = 0; p < NPIECES; p++) {
		g = pull_open(&s, z, inlen, 4096, fail_at, max_out, max_ratio);
		CHECK_INT(pull_all(g, pieces[p], max, &out), -1);
		/* Past the limits, and only then, it says so. */
		CHECK_INT(gunzip_pull_over(g), FAST && over);
		if (out.len > most)
			most = out.len;
		gunzip_pull_close(g);
		free(out.p);
	}
	return most;
}

/* What gunzip_stream() leaves to gunzip(), each pull refuses too. */
static void
test_pull_refused(void)
{
	static const struct {
		int		 at;	/* flip bit here; < 0: from the end */
		unsigned char	 bit;
		size_t		 cut;	/* bytes to drop from the end */
		const char	*add;	/* after it; "": its first 20 bytes */
	} bad[] = {
		{ -8, 0x01, 0, NULL },		/* the CRC-32 */
		{ -1, 0x40, 0, NULL },		/* the ISIZE */
		{ 3, 0x02, 0, NULL },		/* FHCRC with no CRC-16 */
		{ 0, 0, 1, NULL },		/* truncated in the trailer */
		{ 0, 0, 8 + 1000, NULL },	/* and in the data */
		{ 0, 0, 0, "xyz" },		/* garbage, short */
		{ 0, 0, 0, "x123456789abcdefghijklmnopqrstuvw" }, /* and long */
		{ 0, 0, 0, "" },		/* a member's first 20 bytes */
	};
	struct buf	 t = text(300000, 12), z = gz(&t), c;
	struct buf	 big = text(3 * MIB, 13), zbig = gz(&big), out;
	struct buf	 none = { (unsigned char *)"", 0 };
	struct gunzip_pull *g;
	struct src	 s;
	size_t		 i, at;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c.p = NULL, c.len = 0;
		buf_add(&c, z.p, z.len - bad[i].cut);
		at = bad[i].at < 0 ? c.len - (size_t)-bad[i].at :
		    (size_t)bad[i].at;
		c.p[at] ^= bad[i].bit;
		if (bad[i].add != NULL && *bad[i].add != '\0')
			buf_add(&c, bad[i].add, strlen(bad[i].add));
		else if (bad[i].add != NULL)
			buf_add(&c, z.p, 20);
		pull_refused(&c, c.len, SIZE_MAX, 1u << 30, 256, t.len, 0);
		free(c.p);
	}
	/* more output than allowed, absolutely (by one byte) or as a ratio */
	pull_refused(&zbig, zbig.len, SIZE_MAX, 2 * MIB, 256, big.len, 1);
	pull_refused(&zbig, zbig.len, SIZE_MAX, big.len - 1, 256, big.len,
	    1);
	pull_refused(&zbig, zbig.len, SIZE_MAX, 1u << 30, 1, big.len, 1);
	/* a read error first, or after output was given (past the window) */
	CHECK(pull_refused(&zbig, zbig.len, 0, 1u << 30, 256, big.len,
	    0) == 0);
	CHECK(pull_refused(&zbig, zbig.len, zbig.len - 100, 1u << 30, 256,
	    big.len, 0) > 0 || !FAST);
	/* told it was shorter than it is; not gzip; nothing at all */
	pull_refused(&z, z.len - 1, SIZE_MAX, 1u << 30, 256, t.len, 0);
	pull_refused(&t, t.len, SIZE_MAX, 1u << 30, 256, t.len, 0);
	pull_refused(&none, 0, SIZE_MAX, 1u << 30, 256, t.len, 0);
	/*
	 * Exactly the limit is allowed, however it is pulled.  Here the
	 * trailer is read with the last of the output; one still unread at
	 * the limit (or an empty member after it) is read with room for one
	 * byte more, which must not come (test_refused()).
	 */
	for (i = 0; i < NPIECES; i++) {
		g = pull_open(&s, &zbig, zbig.len, 65536, SIZE_MAX, big.len,
		    256);
		CHECK_INT(pull_all(g, pieces[i], big.len, &out),
		    FAST ? 0 : -1);
		CHECK(!FAST || same(&out, &big));
		gunzip_pull_close(g);
		free(out.p);
	}
	free(t.p), free(z.p), free(big.p), free(zbig.p);
}

int
main(void)
{
	test_chunks();
	test_members();
	test_header_crc();
	test_refused();
	test_pull();
	test_pull_crc();
	test_pull_refused();
	test_bomb();
	return tap_done();
}

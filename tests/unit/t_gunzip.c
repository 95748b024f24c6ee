/*
 * Unit tests for gunzip.c: the streamed fast path (gunzip_stream) must
 * inflate exactly what zlib would, whatever sizes the reads come in, and
 * must refuse, allocating nothing, everything it leaves to gunzip():
 * bad checksums, truncation, bytes after a member, a header CRC, too
 * much output, read errors, more input than it was told of.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "diag.h"
#include "gunzip.h"
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
static void
test_members(void)
{
	struct buf	 a = text(300000, 2), b = text(5000, 3), e = { NULL, 0 };
	struct buf	 za = gz(&a), zb = gz(&b), ze, all = { NULL, 0 };
	struct buf	 want = { NULL, 0 }, out;

	e.p = malloc(1);
	ze = gz(&e);
	buf_add(&all, za.p, za.len);
	buf_add(&all, ze.p, ze.len);
	buf_add(&all, zb.p, zb.len);
	buf_add(&want, a.p, a.len);
	buf_add(&want, b.p, b.len);
	CHECK_INT(stream(&all, all.len, 7, 1u << 30, 256, &out),
	    FAST ? 0 : -1);
	CHECK(!FAST || same(&out, &want));
	free(out.p);
	CHECK_INT(stream(&ze, ze.len, 1, 1u << 30, 256, &out), FAST ? 0 : -1);
	CHECK(!FAST || out.len == 0);
	free(out.p);
	free(a.p), free(b.p), free(e.p), free(za.p), free(zb.p), free(ze.p);
	free(all.p), free(want.p);
}

/*
 * Each of these must be left to gunzip(), which words the error: the
 * fast path returns -1 with nothing allocated (ASan checks that), and
 * gunzip() on the same bytes gives the error it always gave.
 */
static void
refused(struct buf *z, uint64_t inlen, uint64_t max_out, uint64_t max_ratio,
    int code)
{
	struct buf	 out;
	struct diag	 d;
	unsigned char	*p = NULL;
	size_t		 n;

	CHECK_INT(stream(z, inlen, 4096, max_out, max_ratio, &out), -1);
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
	/* exactly the limit is allowed */
	CHECK_INT(stream(&zbig, zbig.len, 65536, big.len, 256, &out),
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

int
main(void)
{
	test_chunks();
	test_members();
	test_header_crc();
	test_refused();
	return tap_done();
}

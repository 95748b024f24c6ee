/*
 * Bounded gzip inflation on top of zlib.  The output is capped by an
 * absolute size and by a ratio to the input, so a gzip bomb is refused
 * with a message instead of eating the machine.  zlib checks each
 * member's CRC-32 and ISIZE trailer; this file checks what comes after a
 * member.  No I/O here.
 *
 * Built with libdeflate (HAVE_LIBDEFLATE), a valid input is inflated by
 * libdeflate, about 2.3 times as fast as zlib (bench/FINDINGS.md).  It
 * only ever succeeds: on anything it does not accept, or that would not
 * fit under the cap, the input is inflated again by zlib, which then
 * reports the error in its own words, so that every message stays the
 * same.  A member whose header has a CRC is left to zlib, which checks
 * it (libdeflate skips it).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "diag.h"
#include "gunzip.h"
#include "xmalloc.h"

int
gunzip_is_gzip(const void *buf, size_t len)
{
	const unsigned char *p = buf;

	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

#ifdef HAVE_LIBDEFLATE
#define GZ_FHCRC	0x02	/* header flag: the header has a CRC-16 */

/*
 * Inflate every member with libdeflate into one buffer of at most limit
 * bytes.  Returns 0, or -1 if zlib must do it (an error, or more output
 * than limit, or a header CRC), with nothing allocated.
 */
static int
gunzip_fast(const unsigned char *in, size_t inlen, unsigned char **out,
    size_t *outlen, uint64_t limit)
{
	struct libdeflate_decompressor *dc;
	enum libdeflate_result	 rc;
	unsigned char		*buf;
	size_t			 cap, len = 0, pos = 0, used, got;

	if (inlen < 18 || limit > SIZE_MAX)
		return -1;
	/*
	 * The last member's ISIZE, the whole output of a single member
	 * below 4 GiB, is only a hint: the buffer grows if it is wrong, and
	 * never past the limit.
	 */
	cap = (size_t)in[inlen - 4] | (size_t)in[inlen - 3] << 8 |
	    (size_t)in[inlen - 2] << 16 | (size_t)in[inlen - 1] << 24;
	if (cap < (1u << 16))
		cap = 1u << 16;
	if (cap > limit)
		cap = (size_t)limit;
	if ((dc = libdeflate_alloc_decompressor()) == NULL)
		return -1;
	buf = xmalloc(cap ? cap : 1);
	for (;;) {
		if (inlen - pos < 18 || !gunzip_is_gzip(in + pos, inlen - pos) ||
		    (in[pos + 3] & GZ_FHCRC) != 0)
			goto zlib;
		rc = libdeflate_gzip_decompress_ex(dc, in + pos, inlen - pos,
		    buf + len, cap - len, &used, &got);
		if (rc == LIBDEFLATE_INSUFFICIENT_SPACE && cap < limit) {
			cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
			if (cap > limit)
				cap = (size_t)limit;
			buf = xreallocarray(buf, cap, 1);
			continue;
		}
		if (rc != LIBDEFLATE_SUCCESS)
			goto zlib;
		len += got;
		pos += used;
		if (pos == inlen)
			break;
	}
	libdeflate_free_decompressor(dc);
	/* Give back what a wrong hint asked for beyond the output. */
	if (cap - len > (1u << 20))
		buf = xreallocarray(buf, len ? len : 1, 1);
	*out = buf;
	*outlen = len;
	return 0;

zlib:
	libdeflate_free_decompressor(dc);
	free(buf);
	return -1;
}
#endif

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

	limit = max_out;
	if (max_ratio != 0 && inlen <= UINT64_MAX / max_ratio &&
	    inlen * max_ratio < limit)
		limit = inlen * max_ratio;
	/* Tiny inputs get room for at least 1 MiB, whatever the ratio. */
	if (limit < (1u << 20) && max_out >= (1u << 20))
		limit = 1u << 20;
#ifdef HAVE_LIBDEFLATE
	if (gunzip_fast(in, inlen, out, outlen, limit) == 0)
		return 0;
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
			if (cap > limit) {
				why = "inflated size exceeds the limit";
				goto bomb;
			}
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
		if (len > limit) {
			why = "inflated size exceeds the limit";
			goto bomb;
		}
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
	if (limit < max_out)
		return diag_set(d, DIAG_LIMIT, -1,
		    "gzip data inflates past %llu bytes, %llu times its "
		    "compressed size (raise with --max-inflate-ratio)",
		    (unsigned long long)limit, (unsigned long long)max_ratio);
	return diag_set(d, DIAG_LIMIT, -1,
	    "%s of %llu bytes (raise with --max-inflated)", why,
	    (unsigned long long)max_out);
}

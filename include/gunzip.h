/*
 * Bounded gzip inflation.  No I/O: bytes in, bytes out, or bytes from
 * the caller's read function.
 */
#ifndef GUNZIP_H
#define GUNZIP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct diag;

/* Does the buffer start with the gzip magic number? */
int	gunzip_is_gzip(const void *, size_t);

/*
 * Inflate one or more concatenated gzip members.  The output may not
 * exceed max_out bytes nor max_ratio times the input.  Every member's
 * CRC-32 and length trailer are checked, and anything after the last
 * member that is not another member is an error.  On success *out is a
 * malloc'd buffer the caller frees; on failure it returns -1 with the
 * diag filled (offsets are into the compressed input).
 */
int	gunzip(const void *in, size_t inlen, unsigned char **out,
	    size_t *outlen, uint64_t max_out, uint64_t max_ratio,
	    struct diag *);

/*
 * Where streamed compressed bytes come from: read up to n bytes into
 * buf, returning how many, 0 at the end, or -1 on an error.
 */
typedef ssize_t	(*gunzip_read_fn)(void *ctx, void *buf, size_t n);

/*
 * Inflate gzip as it is read, never holding all the compressed bytes:
 * the fast path only.  inlen is the input's size (no more is read), and
 * hint the expected output size (gunzip_size_hint()), which may be
 * wrong.  Returns 0 with *out malloc'd, or -1 with nothing allocated and
 * no message when the input must be read whole and given to gunzip()
 * instead: for any error (which gunzip() then words), a read error, or
 * a build without the fast inflater.
 */
int	gunzip_stream(gunzip_read_fn, void *ctx, uint64_t inlen, size_t hint,
	    unsigned char **out, size_t *outlen, uint64_t max_out,
	    uint64_t max_ratio);

/* The output size a gzip file's last four bytes (ISIZE) give. */
size_t	gunzip_size_hint(const unsigned char tail[4]);

#endif

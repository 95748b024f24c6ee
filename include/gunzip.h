/*
 * Bounded gzip inflation.  No I/O: bytes in, bytes out.
 */
#ifndef GUNZIP_H
#define GUNZIP_H

#include <stddef.h>
#include <stdint.h>

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

#endif

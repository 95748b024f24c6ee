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
 * The message for output past the limits of an input of inlen bytes,
 * in d: returns -1.
 */
int	gunzip_limit(struct diag *, uint64_t inlen, uint64_t max_out,
	    uint64_t max_ratio);

/*
 * Inflate gzip as it is read, never holding all the compressed bytes:
 * the fast path only.  inlen is the input's size (no more is read), and
 * hint the expected output size (gunzip_size_hint()), which may be
 * wrong.  Returns 0 with *out malloc'd; GUNZIP_OVER, nothing allocated,
 * when the output goes past the limits (refused: gunzip_limit() words
 * it, and inflating it again would only get as far); or -1 with nothing
 * allocated and no message when the input must be read whole and given
 * to gunzip() instead: for any other error (which gunzip() then
 * words), a read error, or a build without the fast inflater.
 */
#define GUNZIP_OVER	(-2)

int	gunzip_stream(gunzip_read_fn, void *ctx, uint64_t inlen, size_t hint,
	    unsigned char **out, size_t *outlen, uint64_t max_out,
	    uint64_t max_ratio);

/*
 * The same fast path, with the output pulled as the caller wants it:
 * for reading a file twice without holding it whole.  Returns NULL in a
 * build without the fast inflater.  gunzip_pull() fills buf with n
 * bytes, fewer only at the end of the input (0 once it is reached), or
 * returns -1 for anything gunzip() would have to word, a read error,
 * or output past the limits; the pull is then done with.
 * gunzip_pull_crc() is the CRC-32 of all the output given so far;
 * gunzip_pull_over() says whether the -1 was for output past the
 * limits (0 for a NULL pull).
 */
struct gunzip_pull;

struct gunzip_pull *gunzip_pull_open(gunzip_read_fn, void *ctx,
	    uint64_t inlen, uint64_t max_out, uint64_t max_ratio);
ssize_t	gunzip_pull(struct gunzip_pull *, void *buf, size_t n);
uint32_t gunzip_pull_crc(const struct gunzip_pull *);
int	gunzip_pull_over(const struct gunzip_pull *);
void	gunzip_pull_close(struct gunzip_pull *);	/* NULL is a no-op */

/* The output size a gzip file's last four bytes (ISIZE) give. */
size_t	gunzip_size_hint(const unsigned char tail[4]);

#endif

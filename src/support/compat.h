/*
 * The platform-specific calls, in one place.  Each is a measured
 * speed or memory trick (the figures are from make bench, in
 * bench/FINDINGS.md) with a portable fallback, so that the rest of the
 * tree is plain C11 and POSIX.  None of them changes a result.
 */
#ifndef COMPAT_H
#define COMPAT_H

#include <stddef.h>

/*
 * Allocator policy for the whole process, called once from main():
 * glibc's mmap threshold fixed at 128 KiB.  Elsewhere a no-op.
 */
void	 compat_malloc_tune(void);

/*
 * After a call into AVX code (ISA-L), clear the upper halves of the
 * vector registers (vzeroupper) on an x86-64 CPU that has AVX.
 * Elsewhere a no-op.
 */
void	 compat_clear_upper(void);

/*
 * Zeroed, page-aligned blocks that grow without copying where the
 * system can (mmap and mremap), else an aligned allocation and a copy.
 * Both return NULL when out of memory; compat_unmap(NULL, ...) is a
 * no-op.
 */
void	*compat_map(size_t len);
void	*compat_remap(void *, size_t oldlen, size_t len);
void	 compat_unmap(void *, size_t len);

/*
 * Give the whole pages inside [lo, hi) back to the system: bytes that
 * are allocated but will not be read again.  They stay mapped and read
 * as zeros.  Where the system cannot, nothing happens.
 */
void	 compat_discard(const void *lo, const void *hi);

/*
 * A readable and writable file with no name on disk, close-on-exec, for
 * a child process to read bytes that are in memory: -1 with errno set
 * on failure.  Nothing is left behind when the descriptor is closed,
 * whatever ends the process.
 */
int	 compat_anon_file(void);

/* pipe(), both ends close-on-exec from the start: 0, or -1 with errno. */
int	 compat_pipe(int fd[2]);

/* Write all of buf to fd, again after EINTR: 0, or -1 with errno set. */
int	 compat_write_all(int fd, const void *buf, size_t len);

#endif

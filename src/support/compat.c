/*
 * The platform-specific calls behind compat.h: each says what it buys,
 * with its make bench figure, and has a fallback that gives the same
 * results more slowly or in more memory.  Nothing else in src/ calls
 * mallopt(), mremap(), madvise(), memfd_create() or inline assembly.
 */
#define _GNU_SOURCE		/* mremap, memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__		/* defined by the headers above */
#include <malloc.h>
#endif
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "support/compat.h"

/*
 * glibc raises its mmap threshold each time a large block is freed, up
 * to 32 MB, and blocks below it come from heaps that keep their pages.
 * Each read frees megabytes of buffers, so the tables built after them
 * stayed in the heaps.  A fixed threshold keeps large blocks in their
 * own mappings, which go back when freed: diff of the medium bench pair
 * peaked at 87-89 MB with the sliding threshold and at 74-75 MB with
 * this one (bench/FINDINGS.md, round 7).
 */
void
compat_malloc_tune(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

/*
 * ISA-L's AVX code returns with the upper halves of the vector
 * registers dirty, and until something clears them every SSE
 * instruction the thread runs later pays for it: the statistics' log()
 * ran 7 times as long, and diff of the medium pair took 0.8 s more CPU
 * (2.06-2.33 s against 1.28-1.60 s; bench/FINDINGS.md, round 6).
 */
void
compat_clear_upper(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx"))
		__asm__ volatile("vzeroupper");
#endif
}

/*
 * Mapped pages, which mremap() moves as a whole, so that while a table
 * doubles its old and new bytes are never both in memory: at 511,783
 * edges (large-bad) each doubling held 16 + 32 MB at once for a table
 * that ends at 32 MB, at the peak of diff (bench/FINDINGS.md, round 6).
 */
void *
compat_map(size_t len)
{
	void *p;

#ifdef MREMAP_MAYMOVE
	if ((p = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
		return NULL;
#else
	if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE),
	    len ? len : 1) != 0)
		return NULL;
	memset(p, 0, len);
#endif
	return p;
}

/*
 * ThreadSanitizer intercepts mmap() and munmap() but not mremap(): the
 * pages mremap() moves keep the record of what another thread did at
 * their new address before, and each side's own table, grown on its own
 * thread, was reported as racing with the other's.  Built with it, a
 * table moves by a copy instead.
 */
#if defined(__SANITIZE_THREAD__)
#define COMPAT_REMAP_COPY
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define COMPAT_REMAP_COPY
#endif
#endif

void *
compat_remap(void *p, size_t oldlen, size_t len)
{
	void *q;

#if defined(MREMAP_MAYMOVE) && defined(COMPAT_REMAP_COPY)
	if ((q = compat_map(len)) == NULL)
		return NULL;
	memcpy(q, p, oldlen < len ? oldlen : len);
	compat_unmap(p, oldlen);
#elif defined(MREMAP_MAYMOVE)
	if ((q = mremap(p, oldlen ? oldlen : 1, len ? len : 1,
	    MREMAP_MAYMOVE)) == MAP_FAILED)
		return NULL;
#else
	if ((q = compat_map(len)) == NULL)
		return NULL;
	memcpy(q, p, oldlen < len ? oldlen : len);
	free(p);
#endif
	return q;
}

void
compat_unmap(void *p, size_t len)
{
	if (p == NULL)
		return;
#ifdef MREMAP_MAYMOVE
	(void)munmap(p, len ? len : 1);
#else
	(void)len;
	free(p);
#endif
}

/*
 * The samples are most of a profile's bytes and are read once: their
 * pages go back every megabyte as they are read, and top's RSS on
 * medium-bad falls from its 58 MB peak to 31 MB by the last sample
 * (round 4); the bytes after the last sample go back once the header is
 * built, top medium-bad peak 53 -> 49 MB (round 6).
 */
void
compat_discard(const void *lo, const void *hi)
{
#ifdef MADV_DONTNEED
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t l = ((uintptr_t)lo + pg - 1) & ~(pg - 1);
	uintptr_t h = (uintptr_t)hi & ~(pg - 1);

	if (h > l)
		(void)madvise((void *)l, h - l, MADV_DONTNEED);
#else
	(void)lo;
	(void)hi;
#endif
}

/*
 * A file with no name, for a child process to read what is in memory
 * (perf script reads perf.data from a file, never a pipe, when it is
 * not in perf's pipe format): nothing on disk is left behind on any
 * path, a signal or a crash included.  Linux's memfd_create(); else a
 * file in $TMPDIR (or /tmp) removed as soon as it is made, the signals
 * blocked between the two.  The descriptor is close-on-exec; -1 with
 * errno set on failure.
 */
int
compat_anon_file(void)
{
	const char	*dir;
	char		 name[PATH_MAX];
	sigset_t	 all, old;
	int		 fd, e;

#ifdef MFD_CLOEXEC
	if ((fd = memfd_create("profdiff", MFD_CLOEXEC)) != -1 ||
	    errno != ENOSYS)
		return fd;
#endif
	if ((dir = getenv("TMPDIR")) == NULL || dir[0] == '\0')
		dir = "/tmp";
	if ((size_t)snprintf(name, sizeof(name), "%s/profdiff.XXXXXX", dir) >=
	    sizeof(name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if ((fd = mkostemp(name, O_CLOEXEC)) != -1)
		(void)unlink(name);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

/*
 * A pipe whose ends are close-on-exec from the start (pipe2()), so that
 * a child spawned by another thread meanwhile never holds them open;
 * elsewhere pipe() and then fcntl().
 */
int
compat_pipe(int fd[2])
{
#ifdef O_CLOEXEC
	if (pipe2(fd, O_CLOEXEC) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
#endif
	if (pipe(fd) == -1)
		return -1;
	(void)fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

int
compat_write_all(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	ssize_t	 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

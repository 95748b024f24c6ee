/*
 * perf.data through perf script.  perf.data is a stream of kernel
 * records (mmaps, comms, samples with raw call chains) that only become
 * frames with names once the binaries, their build ids, kallsyms and
 * perf's own unwinding rules are applied: that is perf's work, and the
 * brief says to use perf for it.  So the bytes (already read within
 * --max-input and inflated) go to a file with no name on disk, perf
 * script runs on it as a child process (posix_spawnp(), no shell), and
 * its text goes to the perf script decoder.  The child is bounded: it
 * is killed past limits->perf_seconds or past limits->max_inflated
 * bytes of output, and always reaped before perfdata_decode() returns,
 * so that no process and no file outlives the call.  What perf says on
 * standard error is kept (its last bytes) to word a failure in one
 * line.  No printing here: the diag says what went wrong.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/compat.h"
#include "support/diag.h"
#include "input/perfdata.h"
#include "input/perfscript.h"
#include "profdiff.h"
#include "model/profile.h"
#include "support/xmalloc.h"

/* Said when perf is missing, found so by the PATH or by the spawn. */
#define NO_PERF	"perf.data is read by running perf script, and there is " \
	"no perf on the PATH (Debian package: linux-perf)"

extern char **environ;

#define ERRKEEP		1024	/* bytes of perf's standard error kept */

int
perfdata_sniff(const void *buf, size_t len)
{
	return len >= 8 && memcmp(buf, "PERFILE2", 8) == 0;
}

/* The child and what it has printed so far. */
struct child {
	pid_t		 pid;
	int		 out, err;	/* read ends, -1 once at their end */
	unsigned char	*text;		/* its standard output */
	size_t		 len, cap;
	char		 errs[ERRKEEP + 1];	/* the last of its stderr */
	size_t		 nerr;
};

/* Is there an executable name in a folder of the PATH (execvp's search)? */
static int
on_path(const char *name)
{
	const char	*path = getenv("PATH"), *p, *q;
	char		 f[PATH_MAX];
	size_t		 n;

	if (path == NULL || *path == '\0')
		path = "/bin:/usr/bin";
	for (p = path;; p = q + 1) {
		q = strchr(p, ':');
		n = q != NULL ? (size_t)(q - p) : strlen(p);
		if (n > 0 && snprintf(f, sizeof(f), "%.*s/%s", (int)n, p,
		    name) < (int)sizeof(f) && access(f, X_OK) == 0)
			return 1;
		if (n == 0 && access(name, X_OK) == 0)
			return 1;
		if (q == NULL)
			return 0;
	}
}

/*
 * Start perf script with the file as its standard input and pipes for
 * its standard output and error: 0, or -1 with the diag filled.  The
 * signals profdiff may catch are at their defaults in the child, and
 * none is blocked there.
 */
static int
child_start(struct child *c, int input, struct diag *d)
{
	static const int deflt[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXCPU, SIGXFSZ,
	};
	char *const argv[] = {
		"perf", "--no-pager", "script", "-F", PERFDATA_FIELDS,
		"-i", "/dev/stdin", NULL,
	};
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t	 none, def;
	int		 po[2], pe[2], rc;
	size_t		 i;

	/*
	 * Whether perf is there is asked of the PATH first: a spawn that
	 * cannot find it may also start a child that exits 127 (glibc
	 * with vfork, or under valgrind), whose failure reads as perf's.
	 */
	if (!on_path("perf"))
		return diag_set(d, DIAG_PERFDATA, -1, "%s", NO_PERF);
	if (compat_pipe(po) == -1)
		return diag_set(d, DIAG_IO, -1, "pipe: %s", strerror(errno));
	if (compat_pipe(pe) == -1) {
		rc = errno;
		close(po[0]);
		close(po[1]);
		return diag_set(d, DIAG_IO, -1, "pipe: %s", strerror(rc));
	}
	sigemptyset(&none);
	sigemptyset(&def);
	for (i = 0; i < sizeof(deflt) / sizeof(deflt[0]); i++)
		sigaddset(&def, deflt[i]);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, input, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, po[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pe[1], STDERR_FILENO);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr,
	    POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawnp(&c->pid, "perf", &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(po[1]);
	close(pe[1]);
	if (rc != 0) {
		close(po[0]);
		close(pe[0]);
		if (rc == ENOENT)
			return diag_set(d, DIAG_PERFDATA, -1, "%s", NO_PERF);
		return diag_set(d, DIAG_PERFDATA, -1, "cannot run perf: %s",
		    strerror(rc));
	}
	c->out = po[0];
	c->err = pe[0];
	return 0;
}

/* Milliseconds left until deadline (CLOCK_MONOTONIC), at least 0. */
static int
ms_left(const struct timespec *deadline)
{
	struct timespec	now;
	long long	ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 +
	    (deadline->tv_nsec - now.tv_nsec) / 1000000;
	if (ms < 0)
		return 0;
	return ms > 60000 ? 60000 : (int)ms;
}

/* Keep the last ERRKEEP bytes of what the child says on stderr. */
static void
keep_err(struct child *c, const char *buf, size_t n)
{
	if (n > ERRKEEP) {
		buf += n - ERRKEEP;
		n = ERRKEEP;
	}
	if (c->nerr + n > ERRKEEP) {
		memmove(c->errs, c->errs + (c->nerr + n - ERRKEEP),
		    ERRKEEP - n);
		c->nerr = ERRKEEP - n;
	}
	memcpy(c->errs + c->nerr, buf, n);
	c->nerr += n;
}

/*
 * Read one ready descriptor of the child: 0, 1 at its end, or -1 with
 * the diag filled (output past the limit, a read error).
 */
static int
child_read(struct child *c, int is_out, uint64_t max, struct diag *d)
{
	char	 ebuf[512];
	ssize_t	 n;

	if (is_out) {
		if (c->len == c->cap) {
			if ((uint64_t)c->len >= max)
				return diag_set(d, DIAG_LIMIT, -1, "perf "
				    "script printed more than %llu bytes "
				    "(raise with --max-inflated)",
				    (unsigned long long)max);
			c->cap = c->cap == 0 ? 65536 : c->cap * 2;
			if ((uint64_t)c->cap > max + 1)
				c->cap = (size_t)max + 1;
			c->text = xreallocarray(c->text, c->cap, 1);
		}
		n = read(c->out, c->text + c->len, c->cap - c->len);
	} else
		n = read(c->err, ebuf, sizeof(ebuf));
	if (n == -1)
		return errno == EINTR || errno == EAGAIN ? 0 :
		    diag_set(d, DIAG_IO, -1, "reading perf script: %s",
		    strerror(errno));
	if (n == 0)
		return 1;
	if (is_out) {
		c->len += (size_t)n;
		if ((uint64_t)c->len > max)
			return diag_set(d, DIAG_LIMIT, -1, "perf script "
			    "printed more than %llu bytes (raise with "
			    "--max-inflated)", (unsigned long long)max);
	} else
		keep_err(c, ebuf, (size_t)n);
	return 0;
}

/* Close what is still open of the pipes. */
static void
child_close(struct child *c)
{
	if (c->out != -1)
		close(c->out);
	if (c->err != -1)
		close(c->err);
	c->out = c->err = -1;
}

/*
 * Reap the child, waiting for it until the deadline, then killing it:
 * its wait status, or -1 if it had to be killed.
 */
static int
child_reap(struct child *c, const struct timespec *deadline, int kill_now)
{
	struct timespec	 tick = { 0, 10 * 1000 * 1000 };
	pid_t		 r;
	int		 st;

	child_close(c);
	while (!kill_now) {
		while ((r = waitpid(c->pid, &st, WNOHANG)) == -1 &&
		    errno == EINTR)
			continue;
		if (r == c->pid)
			return st;
		if (r == -1)
			return -1;
		if (ms_left(deadline) == 0)
			break;
		nanosleep(&tick, NULL);
	}
	(void)kill(c->pid, SIGKILL);
	while (waitpid(c->pid, &st, 0) == -1 && errno == EINTR)
		continue;
	return -1;
}

/*
 * Collect the child's output until both pipes end or the deadline
 * passes: 0, or -1 with the diag filled (the child still to be reaped).
 */
static int
child_collect(struct child *c, const struct pd_limits *lim,
    const struct timespec *deadline, struct diag *d)
{
	struct pollfd	 pf[2];
	nfds_t		 n;
	int		 r, ms;

	while (c->out != -1 || c->err != -1) {
		n = 0;
		if (c->out != -1)
			pf[n++] = (struct pollfd){ .fd = c->out, .events = POLLIN };
		if (c->err != -1)
			pf[n++] = (struct pollfd){ .fd = c->err, .events = POLLIN };
		if ((ms = ms_left(deadline)) == 0)
			return diag_set(d, DIAG_PERFDATA, -1, "perf script "
			    "took more than %u seconds, and was stopped",
			    lim->perf_seconds);
		if ((r = poll(pf, n, ms)) == -1) {
			if (errno == EINTR)
				continue;
			return diag_set(d, DIAG_IO, -1, "poll: %s",
			    strerror(errno));
		}
		for (nfds_t i = 0; i < n && r > 0; i++) {
			int is_out = pf[i].fd == c->out, *fd;

			if (pf[i].revents == 0)
				continue;
			fd = is_out ? &c->out : &c->err;
			switch (child_read(c, is_out, lim->max_inflated, d)) {
			case -1:
				return -1;
			case 1:
				close(*fd);
				*fd = -1;
				break;
			}
		}
	}
	return 0;
}

/*
 * perf's last line of error, of at most 160 bytes, without control
 * bytes, or "" when it said nothing.
 */
static void
last_line(const struct child *c, char *buf, size_t cap)
{
	size_t	end = c->nerr, start, i, n = 0;

	while (end > 0 && (c->errs[end - 1] == '\n' ||
	    c->errs[end - 1] == '\r' || c->errs[end - 1] == ' '))
		end--;
	start = end;
	while (start > 0 && c->errs[start - 1] != '\n')
		start--;
	for (i = start; i < end && n + 1 < cap && n < 160; i++)
		buf[n++] = (unsigned char)c->errs[i] < ' ' ? ' ' : c->errs[i];
	buf[n] = '\0';
}

/*
 * Word the child's end: 0 if it exited with status 0, else -1 with the
 * diag filled from its status and its last line of error.
 */
static int
child_status(const struct child *c, int st, struct diag *d)
{
	char	line[192];

	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	last_line(c, line, sizeof(line));
	if (st != -1 && WIFSIGNALED(st))
		return diag_set(d, DIAG_PERFDATA, -1, "perf script was "
		    "killed by signal %d%s%s", WTERMSIG(st),
		    line[0] ? ": " : "", line);
	return diag_set(d, DIAG_PERFDATA, -1, "perf script failed (exit "
	    "status %d)%s%s", st == -1 ? -1 : WEXITSTATUS(st),
	    line[0] ? ": " : "", line);
}

struct profile *
perfdata_decode(const void *buf, size_t len, const char *path,
    const struct pd_limits *limits, struct diag *d)
{
	struct pd_limits lim;
	struct child	 c;
	struct timespec	 deadline;
	struct profile	*p = NULL;
	int		 fd, st;

	if (limits == NULL)
		pd_limits_default(&lim);
	else
		lim = *limits;
	memset(&c, 0, sizeof(c));
	c.out = c.err = -1;
	if ((fd = compat_anon_file()) == -1) {
		diag_set(d, DIAG_IO, -1, "a file for perf script: %s",
		    strerror(errno));
		return NULL;
	}
	if (compat_write_all(fd, buf, len) == -1 ||
	    lseek(fd, 0, SEEK_SET) == -1) {
		diag_set(d, DIAG_IO, -1, "a file for perf script: %s",
		    strerror(errno));
		close(fd);
		return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += lim.perf_seconds;
	if (child_start(&c, fd, d) == -1) {
		close(fd);
		return NULL;
	}
	close(fd);
	if (child_collect(&c, &lim, &deadline, d) == -1) {
		(void)child_reap(&c, &deadline, 1);
		free(c.text);
		return NULL;
	}
	st = child_reap(&c, &deadline, 0);
	if (st == -1)
		diag_set(d, DIAG_PERFDATA, -1, "perf script took more than "
		    "%u seconds, and was stopped", lim.perf_seconds);
	else if (child_status(&c, st, d) == -1)
		;	/* worded */
	else if (c.len == 0)
		diag_set(d, DIAG_PERFDATA, -1, "perf script printed no "
		    "samples");
	else
		p = perfscript_decode(c.text, c.len, path, &lim, d);
	free(c.text);
	return p;
}

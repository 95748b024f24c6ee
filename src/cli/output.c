/*
 * What the commands write: every message on stderr (cli_warn()), and
 * the report, to standard output or to -o's file (cli_output_open(),
 * cli_write()), through the writer of the command's report table.  A
 * regular file, or a new one, is written as a temporary file beside it
 * and renamed into place only once complete; anything else -o names (a
 * terminal, /dev/null, a FIFO, /dev/stdout) is written where it is, as
 * a shell's ">" would.  The temporary file is removed on every way out:
 * a failure, exit(), and the signals that end a process.
 * This is CLI code: it prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/report.h"
#include "support/xmalloc.h"

/*
 * Every message goes through here, and most name a file or quote an
 * argument: a control byte in one (an ESC, a newline in a file name)
 * would reach the terminal raw, so each is written as an escape.  The
 * messages themselves contain none.
 */
void
cli_warn(const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[1024], *s = buf;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {	/* a long path: all of it */
		s = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	fputs("profdiff: ", stderr);
	report_put_text(stderr, n >= 0 ? s : fmt);
	fputc('\n', stderr);
	if (s != buf)
		free(s);
}

/* Output: stdout, or -o's file. */
static int
to_stdout(const struct opts *o)
{
	return o->output == NULL || strcmp(o->output, "-") == 0;
}

int
cli_color(const struct opts *o)
{
	const char *no = getenv("NO_COLOR");

	if (o->color != CLI_COLOR_AUTO)
		return o->color == CLI_COLOR_ALWAYS;
	return (no == NULL || no[0] == '\0') && to_stdout(o) &&
	    isatty(fileno(stdout));
}

/*
 * The temporary file, while it exists, for what removes it when the
 * process ends before the rename: the signal handler and exit() (out
 * of memory) can see only what is static.  One output a process, so
 * one name; it is written only while unarmed, with the signals blocked,
 * and never freed, so that a handler on another thread reads a whole
 * name or none.
 */
static char			tmp_name[PATH_MAX];
static volatile sig_atomic_t	tmp_armed;

/* The signals whose default action ends the process. */
static const int end_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXCPU, SIGXFSZ,
};

/*
 * Remove the temporary file, then end as the signal would have: with
 * its default action restored and the signal raised again, delivered
 * once the handler returns (it is blocked until then), so that the
 * parent sees the process killed by it.  Only async-signal-safe calls.
 */
static void
on_signal(int sig)
{
	if (tmp_armed)
		(void)unlink(tmp_name);
	(void)signal(sig, SIG_DFL);
	(void)raise(sig);
}

static void
on_exit_remove(void)
{
	if (tmp_armed) {
		(void)unlink(tmp_name);
		tmp_armed = 0;
	}
}

/*
 * Catch end_signals[] from now on, once; a signal ignored when the
 * process started (nohup's SIGHUP, a background job's SIGINT) stays
 * ignored.
 */
static void
catch_signals(void)
{
	static int		 caught;
	struct sigaction	 sa, old;
	size_t			 i;

	if (caught)
		return;
	caught = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < sizeof(end_signals) / sizeof(end_signals[0]); i++)
		if (sigaction(end_signals[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			(void)sigaction(end_signals[i], &sa, NULL);
	(void)atexit(on_exit_remove);
}

/*
 * Create the temporary file beside target, its name armed for removal
 * in the same step (the signals blocked meanwhile, so that none finds
 * a file not yet armed, or a name half made).  Returns the descriptor,
 * or -1 with errno set.
 */
static int
tmp_create(const char *target)
{
	sigset_t	 all, old;
	int		 fd, e;

	if ((size_t)snprintf(tmp_name, sizeof(tmp_name), "%s.tmpXXXXXX",
	    target) >= sizeof(tmp_name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	catch_signals();
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if ((fd = mkstemp(tmp_name)) != -1)
		tmp_armed = 1;
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

/* Remove the temporary file (removed first, then disarmed). */
static void
tmp_remove(void)
{
	(void)unlink(tmp_name);
	tmp_armed = 0;
}

/*
 * The descriptor a name stands for: /dev/stdin, /dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N; or -1.  Written through the
 * descriptor itself, such a file is appended to when the shell opened
 * it with ">>", and never replaced.
 */
static int
fd_name(const char *p)
{
	const char	*s;
	char		*end;
	long		 n;

	if (strcmp(p, "/dev/stdin") == 0)
		return 0;
	if (strcmp(p, "/dev/stdout") == 0)
		return 1;
	if (strcmp(p, "/dev/stderr") == 0)
		return 2;
	if (strncmp(p, "/dev/fd/", 8) == 0)
		s = p + 8;
	else if (strncmp(p, "/proc/self/fd/", 14) == 0)
		s = p + 14;
	else
		return -1;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtol(s, &end, 10);
	return *end == '\0' && errno == 0 && n <= INT_MAX ? (int)n : -1;
}

/*
 * Where -o's path leads: through its symbolic links, read one at a
 * time, to the path of what is not a link (or of nothing yet: a link
 * to a file to create), so that the link stays and what it names is
 * replaced.  A name of a descriptor on the way stops there: *fd is the
 * descriptor, else -1.  Returns the path, to free, or NULL with errno
 * set (ELOOP after 40 links).
 */
static char *
follow(const char *path, int *fd)
{
	struct stat	 st;
	char		*p, *t, buf[PATH_MAX];
	const char	*slash;
	ssize_t		 n;
	int		 links;

	p = xstrdup(path);
	for (links = 0;; links++) {
		if ((*fd = fd_name(p)) != -1 || lstat(p, &st) == -1 ||
		    !S_ISLNK(st.st_mode))
			return p;
		n = links == 40 ? -1 : readlink(p, buf, sizeof(buf));
		if (n == -1 || (size_t)n == sizeof(buf)) {
			if (links == 40 || n != -1)
				errno = links == 40 ? ELOOP : ENAMETOOLONG;
			free(p);
			return NULL;
		}
		buf[n] = '\0';
		/* A relative target is relative to the link's folder. */
		if (buf[0] == '/' || (slash = strrchr(p, '/')) == NULL)
			t = xstrdup(buf);
		else
			xasprintf(&t, "%.*s/%s", (int)(slash - p), p, buf);
		free(p);
		p = t;
	}
}

/* o->out on descriptor fd (a dup of it), or -1 after a message. */
static int
open_fd(struct opts *o, int fd)
{
	int nfd;

	if (fd == 1) {
		o->out = stdout;
		return 0;
	}
	if ((nfd = dup(fd)) == -1 || (o->out = fdopen(nfd, "w")) == NULL) {
		cli_warn("%s: cannot write: %s", o->output, strerror(errno));
		if (nfd != -1)
			close(nfd);
		return -1;
	}
	return 0;
}

int
cli_output_open(struct opts *o)
{
	struct stat	 st;
	mode_t		 um;
	char		*target;
	int		 fd;

	if (o->out != NULL)
		return 0;
	if (to_stdout(o)) {
		o->out = stdout;
		return 0;
	}
	if ((target = follow(o->output, &fd)) == NULL) {
		cli_warn("%s: %s", o->output, strerror(errno));
		return -1;
	}
	if (fd != -1) {
		free(target);
		return open_fd(o, fd);
	}
	if (stat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			cli_warn("%s: is a directory", o->output);
			free(target);
			return -1;
		}
		/* A device, FIFO or socket: written where it is. */
		fd = open(target, O_WRONLY | O_NOCTTY);
		free(target);
		if (fd == -1 || (o->out = fdopen(fd, "w")) == NULL) {
			cli_warn("%s: cannot open: %s", o->output,
			    strerror(errno));
			if (fd != -1)
				close(fd);
			return -1;
		}
		return 0;
	}
	/*
	 * o holds the target before the temporary file exists: a signal
	 * from then on ends a process whose memory all has an owner.
	 */
	o->target = target;
	if ((fd = tmp_create(target)) == -1) {
		cli_warn("%s: cannot create: %s", o->output, strerror(errno));
		o->target = NULL;
		free(target);
		return -1;
	}
	/* mkstemp makes it 0600; a report is as readable as any file. */
	um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um) == -1 || (o->out = fdopen(fd, "w")) ==
	    NULL) {
		cli_warn("%s: %s", o->output, strerror(errno));
		close(fd);
		tmp_remove();
		o->target = NULL;
		free(target);
		return -1;
	}
	return 0;
}

/*
 * Finish the output: check the stream, and rename the temporary file
 * into place if ok and all was written.  Returns 0, or -1 after a
 * message when anything could not be written; a failed or abandoned
 * temporary file is removed.
 */
static int
close_output(struct opts *o, int ok)
{
	FILE	*fp = o->out;
	int	 err;

	o->out = NULL;
	if (fp == stdout) {
		if (fflush(stdout) == EOF || ferror(stdout)) {
			cli_warn("write error on standard output: %s",
			    strerror(errno));
			return -1;
		}
		return ok ? 0 : -1;
	}
	err = fflush(fp) == EOF || ferror(fp);
	if (o->target != NULL)
		err |= fsync(fileno(fp)) == -1 && errno != EINVAL;
	if (fclose(fp) == EOF)
		err = 1;
	if (err)
		cli_warn("%s: write error: %s", o->output, strerror(errno));
	if (o->target != NULL) {
		if (!ok || err)
			tmp_remove();
		else if (rename(tmp_name, o->target) == -1) {
			cli_warn("%s: cannot rename into place: %s",
			    o->output, strerror(errno));
			tmp_remove();
			err = 1;
		} else
			tmp_armed = 0;
		free(o->target);
		o->target = NULL;
	}
	return ok && !err ? 0 : -1;
}

void
cli_output_discard(struct opts *o)
{
	if (o->out != NULL)
		(void)close_output(o, 0);
}

int
cli_write(struct opts *o, const void *report)
{
	int ok;

	if (cli_output_open(o) == -1)
		return -1;
	ok = cli_writer(o)->write(o->out, report) == 0;
	return close_output(o, ok);
}

/*
 * What the commands write: every message on stderr (cli_warn()), and
 * the report, to standard output or to -o's file, which is written as a
 * temporary file beside it and renamed into place only once complete
 * (cli_write()), through the writer of the command's report table.
 * This is CLI code: it prints.
 */
#include <errno.h>
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

/* Output: stdout, or a temporary file renamed into place when complete. */
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

static FILE *
open_output(struct opts *o)
{
	FILE	*fp;
	mode_t	 um;
	int	 fd;

	if (to_stdout(o))
		return stdout;
	xasprintf(&o->tmp_path, "%s.tmpXXXXXX", o->output);
	if ((fd = mkstemp(o->tmp_path)) == -1) {
		cli_warn("%s: cannot create: %s", o->output, strerror(errno));
		free(o->tmp_path);
		o->tmp_path = NULL;
		return NULL;
	}
	/* mkstemp makes it 0600; a report is as readable as any file. */
	um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um) == -1 || (fp = fdopen(fd, "w")) == NULL) {
		cli_warn("%s: %s", o->output, strerror(errno));
		close(fd);
		unlink(o->tmp_path);
		free(o->tmp_path);
		o->tmp_path = NULL;
		return NULL;
	}
	return fp;
}

/*
 * Finish the output: check the stream, and rename the file into place
 * if ok and all was written.  Returns 0, or -1 after a message when
 * anything could not be written; a failed or abandoned file is removed.
 */
static int
close_output(FILE *fp, struct opts *o, int ok)
{
	int err;

	if (fp == stdout) {
		if (fflush(stdout) == EOF || ferror(stdout)) {
			cli_warn("write error on standard output: %s",
			    strerror(errno));
			return -1;
		}
		return ok ? 0 : -1;
	}
	err = fflush(fp) == EOF || ferror(fp);
	err |= fsync(fileno(fp)) == -1 && errno != EINVAL;
	if (fclose(fp) == EOF)
		err = 1;
	if (!ok || err) {
		if (err)
			cli_warn("%s: write error: %s", o->output,
			    strerror(errno));
		unlink(o->tmp_path);
	} else if (rename(o->tmp_path, o->output) == -1) {
		cli_warn("%s: cannot rename into place: %s", o->output,
		    strerror(errno));
		unlink(o->tmp_path);
		err = 1;
	}
	free(o->tmp_path);
	o->tmp_path = NULL;
	return ok && !err ? 0 : -1;
}

int
cli_write(struct opts *o, const void *report)
{
	FILE	*fp;
	int	 ok;

	if ((fp = open_output(o)) == NULL)
		return -1;
	ok = cli_writer(o)->write(fp, report) == 0;
	return close_output(fp, o, ok);
}

/*
 * perf.data through perf script (perfdata.c), with a stand-in for perf:
 * a shell script named perf, first on the PATH, that does one thing a
 * real perf may do (print samples, fail with a message, be killed by a
 * signal, hang, print without end, print nothing).  Each case checks
 * the model or the exact one-line message, and that no child and no
 * descriptor is left behind.  Detection (input_sniff()) is checked on
 * the magic.  The real perf is run on real perf.data by the CLI cases.
 */
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/diag.h"
#include "input/input.h"
#include "input/perfdata.h"
#include "profdiff.h"
#include "model/profile.h"
#include "tap.h"

static char	 dir[] = "/tmp/t_perfdata.XXXXXX";
static char	 msg[512];

/* The descriptors this process has open. */
static int
open_fds(void)
{
	DIR		*d;
	struct dirent	*e;
	int		 n = 0;

	if ((d = opendir("/proc/self/fd")) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the directory's own */
}

/* Make the stand-in for perf run body. */
static void
fake_perf(const char *body)
{
	char	 path[256];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/perf", dir);
	if ((f = fopen(path, "w")) == NULL)
		abort();
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0755);
}

static const char data[] = "PERFILE2 and then what a recording holds";

/* Decode data with the stand-in, within lim (NULL: the defaults). */
static struct profile *
run(const struct pd_limits *lim)
{
	struct profile	*p;
	struct diag	 d;
	int		 fds = open_fds();

	diag_init(&d, "x.data");
	msg[0] = '\0';
	if ((p = perfdata_decode(data, sizeof(data) - 1, "x.data", lim,
	    &d)) == NULL)
		diag_format(&d, msg, sizeof(msg));
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
	CHECK_INT(open_fds(), fds);
	return p;
}

/* The contents of file name in dir, or "". */
static const char *
slurp(const char *name)
{
	static char	 buf[4096];
	char		 path[256];
	FILE		*f;
	size_t		 n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "r")) != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static void
t_sniff(void)
{
	CHECK(perfdata_sniff("PERFILE2", 8));
	CHECK(!perfdata_sniff("PERFILE", 7));
	CHECK(!perfdata_sniff("PERFILE3xxxxxxxx", 16));
	CHECK_INT(input_sniff(data, sizeof(data) - 1), INPUT_PERFDATA);
	CHECK(input_sniff("prog 12/12 1.0: 1 cpu-clock:\n", 29) !=
	    INPUT_PERFDATA);
}

/* perf script's output is decoded; its arguments and input are ours. */
static void
t_ok(void)
{
	struct profile	*p;
	char		 want[256];

	fake_perf("echo \"$@\" >\"$(dirname \"$0\")/args\"\n"
	    "cat >\"$(dirname \"$0\")/input\"\n"
	    "printf 'prog 10/11 1.000000:     250000 cpu-clock: \\n"
	    "\\t            1234 leaf+0x4 (/bin/prog)\\n"
	    "\\t            5678 main+0x8 (/bin/prog)\\n\\n'");
	p = run(NULL);
	CHECK(p != NULL);
	CHECK_STR(msg, "");
	snprintf(want, sizeof(want), "--no-pager script -F %s -i /dev/stdin\n",
	    PERFDATA_FIELDS);
	CHECK_STR(slurp("args"), want);
	CHECK_STR(slurp("input"), data);
	if (p != NULL) {
		CHECK_INT(p->nsamples, 1);
		CHECK_INT(p->samples[0].nlocs, 2);
		CHECK_INT(p->samples[0].values[0] + p->samples[0].values[1],
		    250000 + 1);
	}
	profile_free(p);
}

static void
t_failures(void)
{
	struct pd_limits lim;

	/* perf's last line of error, its status. */
	fake_perf("echo 'Warning: something first' >&2\n"
	    "echo 'incompatible file format' >&2\nexit 3");
	CHECK(run(NULL) == NULL);
	CHECK_STR(msg, "x.data: cannot read perf.data: perf script failed "
	    "(exit status 3): incompatible file format");

	fake_perf("kill -SEGV $$");
	CHECK(run(NULL) == NULL);
	CHECK_STR(msg, "x.data: cannot read perf.data: perf script was "
	    "killed by signal 11");

	fake_perf("exit 0");
	CHECK(run(NULL) == NULL);
	CHECK_STR(msg, "x.data: cannot read perf.data: perf script printed "
	    "no samples");

	/* Malformed output: the perf script decoder's words. */
	fake_perf("echo 'nothing a perf script header has'");
	CHECK(run(NULL) == NULL);
	CHECK(strncmp(msg, "x.data: bad perf script output: line 1", 38) == 0);

	/* Killed past the time bound, and reaped. */
	pd_limits_default(&lim);
	lim.perf_seconds = 1;
	fake_perf("exec sleep 30");
	CHECK(run(&lim) == NULL);
	CHECK_STR(msg, "x.data: cannot read perf.data: perf script took more "
	    "than 1 seconds, and was stopped");

	/* Killed past the output bound, and reaped. */
	pd_limits_default(&lim);
	lim.max_inflated = 1 << 20;
	fake_perf("exec yes 'prog 1/1 1.0: 1 cpu-clock:'");
	CHECK(run(&lim) == NULL);
	CHECK_STR(msg, "x.data: limit exceeded: perf script printed more than "
	    "1048576 bytes (raise with --max-inflated)");

	/* No perf at all. */
	setenv("PATH", "/nonexistent", 1);
	CHECK(run(NULL) == NULL);
	CHECK_STR(msg, "x.data: cannot read perf.data: perf.data is read by "
	    "running perf script, and there is no perf on the PATH (Debian "
	    "package: linux-perf)");
}

int
main(void)
{
	char	path[512];
	int	rc;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s:/usr/bin:/bin", dir);
	setenv("PATH", path, 1);
	t_sniff();
	t_ok();
	t_failures();
	rc = tap_done();
	setenv("PATH", "/usr/bin:/bin", 1);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		rc = 1;
	return rc;
}

/*
 * Fuzz target: whole runs of profdiff on random option vectors, -o
 * among them.  The input's first byte picks the command (top, diff,
 * check-significance, series, check-series, or none: two operands are
 * a diff), the rest is split at NUL bytes into at most 24 words.  A word
 * cannot name a path outside the run's folder: every '/' becomes '_'
 * (so no URL is fetched either), and then "@a" to "@e" become the
 * profiles of in/: folded stacks good and bad, a pprof profile with
 * labels, a legacy heap profile and a pprof CPU profile.
 *
 * Each run is a child process (the binary $PROFDIFF_FUZZ_BIN, default
 * build/profdiff; make check gives its build's), in a folder of its own
 * that is also its TMPDIR, its standard input empty, a limit of 30
 * seconds.  It must exit 0, 1, 2 or 3 (a sanitizer's report exits 86, a
 * signal or the limit kills it: all abort() here), with something on
 * stderr when it exits 2; it must leave no file in its folder that no
 * word of its command line names (a temporary file of -o, a report
 * written elsewhere), and the profiles of in/ as they were unless a
 * word names them.  The parser is also run in this process first, as
 * fuzz_options.c runs it, so that libFuzzer sees its coverage.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define MAXARGS	24
#define NIN	5

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const in_src[NIN] = {
	"tests/data/folded/perf-good.folded",
	"tests/data/folded/perf-bad.folded",
	"tests/data/good/label-values.pb",
	"tests/data/pprof-testdata/gobench.heap",
	"tests/data/pprof-testdata/gobench.cpu",
};
static const char *const in_name[NIN] = {
	"a.folded", "b.folded", "c.pb", "d.heap", "e.cpu",
};

static char	 root[64];	/* the sandbox: src/, and run/ a run */
static char	 bin[4096];
static struct stat in_st[NIN];	/* src/'s copies, to see them changed */

static void
copy_file(const char *from, const char *to)
{
	char	 buf[8192];
	ssize_t	 n;
	int	 in, out;

	if ((in = open(from, O_RDONLY)) == -1)
		err(2, "%s", from);
	if ((out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0444)) == -1)
		err(2, "%s", to);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			err(2, "%s", to);
	if (n == -1)
		err(2, "%s", from);
	close(in);
	close(out);
}

static void
cleanup(void)
{
	char cmd[128];

	if (root[0] != '\0') {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			warnx("could not remove %s", root);
	}
}

static void
setup(void)
{
	char		 path[4096];
	const char	*b;
	size_t		 i;

	if ((b = getenv("PROFDIFF_FUZZ_BIN")) == NULL)
		b = "build/profdiff";
	if (realpath(b, bin) == NULL)
		err(2, "%s (set PROFDIFF_FUZZ_BIN)", b);
	strlcpy(root, "/tmp/fuzzcli.XXXXXX", sizeof(root));
	if (mkdtemp(root) == NULL)
		err(2, "mkdtemp");
	atexit(cleanup);
	snprintf(path, sizeof(path), "%s/src", root);
	if (mkdir(path, 0755) == -1)
		err(2, "%s", path);
	for (i = 0; i < NIN; i++) {
		snprintf(path, sizeof(path), "%s/src/%s", root, in_name[i]);
		copy_file(in_src[i], path);
		if (stat(path, &in_st[i]) == -1)
			err(2, "%s", path);
	}
}

/* Remove run/ and everything in it. */
static void
clear_run(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/run'", root);
	if (system(cmd) != 0)
		abort();
}

/* run/ with in/ of hard links to src/'s profiles. */
static void
make_run(void)
{
	char	 from[4096], to[4096];
	size_t	 i;

	snprintf(to, sizeof(to), "%s/run", root);
	if (mkdir(to, 0755) == -1)
		abort();
	snprintf(to, sizeof(to), "%s/run/in", root);
	if (mkdir(to, 0755) == -1)
		abort();
	for (i = 0; i < NIN; i++) {
		snprintf(from, sizeof(from), "%s/src/%s", root, in_name[i]);
		snprintf(to, sizeof(to), "%s/run/in/%s", root, in_name[i]);
		if (link(from, to) == -1)
			abort();
	}
}

/* word, its '/' as '_' and "@a".."@e" as in/'s profiles, in out. */
static void
rewrite(const char *word, char *out, size_t len)
{
	size_t	 o = 0;
	char	 piece[64];
	const char *s;

	for (s = word; *s != '\0' && o + 1 < len; s++) {
		if (s[0] == '@' && s[1] >= 'a' && s[1] < 'a' + NIN) {
			snprintf(piece, sizeof(piece), "in/%s",
			    in_name[s[1] - 'a']);
			if (o + strlen(piece) + 1 >= len)
				break;
			memcpy(out + o, piece, strlen(piece));
			o += strlen(piece);
			s++;
		} else
			out[o++] = *s == '/' ? '_' : *s;
	}
	out[o] = '\0';
}

/* Whether name (a file of run/) is a word of argv, or one's tail. */
static int
named(const char *name, char **argv, int argc)
{
	size_t	 n = strlen(name), w;
	int	 i;

	for (i = 0; i < argc; i++) {
		w = strlen(argv[i]);
		if (w >= n && strcmp(argv[i] + w - n, name) == 0)
			return 1;
	}
	return 0;
}

/* What the run left in run/ and in/, against what its words name. */
static void
check_left(char **argv, int argc)
{
	static const char *const sub[] = { "run", "run/in" };
	char		 path[4096];
	struct dirent	*de;
	struct stat	 st;
	DIR		*dir;
	size_t		 i, k;

	for (k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%s", root, sub[k]);
		if ((dir = opendir(path)) == NULL)
			abort();
		while ((de = readdir(dir)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0 ||
			    (k == 0 && strcmp(de->d_name, "in") == 0))
				continue;
			for (i = 0; k == 1 && i < NIN; i++)
				if (strcmp(de->d_name, in_name[i]) == 0)
					break;
			if ((k == 0 || i == NIN) &&
			    !named(de->d_name, argv, argc)) {
				fprintf(stderr, "fuzz_cli: left behind: "
				    "%s/%s\n", sub[k], de->d_name);
				abort();
			}
		}
		closedir(dir);
	}
	for (i = 0; i < NIN; i++) {
		snprintf(path, sizeof(path), "%s/src/%s", root, in_name[i]);
		if (stat(path, &st) == -1 || st.st_size != in_st[i].st_size ||
		    st.st_mtim.tv_sec != in_st[i].st_mtim.tv_sec ||
		    st.st_mtim.tv_nsec != in_st[i].st_mtim.tv_nsec) {
			fprintf(stderr, "fuzz_cli: %s written in place\n",
			    in_name[i]);
			abort();
		}
	}
}

static void
child(char **argv)
{
	char	 path[4096];
	int	 fd;

	snprintf(path, sizeof(path), "%s/run", root);
	if (chdir(path) == -1)
		_exit(97);
	if ((fd = open("/dev/null", O_RDONLY)) == -1 || dup2(fd, 0) == -1)
		_exit(97);
	snprintf(path, sizeof(path), "%s/out", root);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1 ||
	    dup2(fd, 1) == -1)
		_exit(97);
	snprintf(path, sizeof(path), "%s/err", root);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1 ||
	    dup2(fd, 2) == -1)
		_exit(97);
	snprintf(path, sizeof(path), "%s/run", root);
	setenv("TMPDIR", path, 1);
	setenv("ASAN_OPTIONS", "exitcode=86:abort_on_error=0", 1);
	setenv("UBSAN_OPTIONS", "halt_on_error=1:exitcode=86", 1);
	setenv("LSAN_OPTIONS", "exitcode=86", 1);
	unsetenv("http_proxy");
	unsetenv("https_proxy");
	alarm(30);
	execv(bin, argv);
	_exit(98);
}

/* The option parser in this process, for libFuzzer's coverage. */
static void
parse_here(const char *cmd, int argc, char **argv)
{
	const struct cli_cmd *c;
	struct opts	 o;
	char		*copy[MAXARGS + 2];
	int		 i;

	if ((c = cli_cmd_find(cmd)) == NULL)
		return;
	for (i = 0; i <= argc; i++)
		copy[i] = argv[i];
	copy[0] = (char *)(uintptr_t)cmd;
	/* Quiet: its messages are the child's to give. */
	fflush(stderr);
	if (cli_parse(c, argc, copy, &o) == 0) {
		(void)cli_load_opts(&o);
		cli_release(&o);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const char *const cmds[] = { "top", "diff",
	    "check-significance", "series", "check-series", NULL };
	static char	 words[MAXARGS][512];
	char		*argv[MAXARGS + 3], *buf, path[4096];
	struct stat	 st;
	size_t		 i, start;
	pid_t		 pid;
	int		 argc = 0, nw = 0, status, which, saved;
	const char	*cmd;

	if (root[0] == '\0')
		setup();
	if (len == 0)
		return 0;
	which = data[0] % 6;
	cmd = cmds[which];
	if ((buf = malloc(len)) == NULL)
		return 0;
	memcpy(buf, data + 1, len - 1);
	buf[len - 1] = '\0';
	argv[argc++] = bin;
	if (cmd != NULL)
		argv[argc++] = (char *)(uintptr_t)cmd;
	for (i = 0, start = 0; i < len && nw < MAXARGS; i++)
		if (buf[i] == '\0') {
			rewrite(buf + start, words[nw], sizeof(words[nw]));
			argv[argc++] = words[nw++];
			start = i + 1;
		}
	argv[argc] = NULL;
	free(buf);

	/* diff's parser for a bare vector, as main() runs it. */
	saved = dup(2);
	if (saved != -1) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd != -1) {
			dup2(fd, 2);
			close(fd);
		}
		parse_here(cmd != NULL ? cmd : "diff", argc - (cmd != NULL ?
		    1 : 0), argv + (cmd != NULL ? 1 : 0));
		dup2(saved, 2);
		close(saved);
	}

	clear_run();
	make_run();
	if ((pid = fork()) == -1)
		abort();
	if (pid == 0)
		child(argv);
	while (waitpid(pid, &status, 0) == -1)
		continue;
	if (!WIFEXITED(status) || WEXITSTATUS(status) > 3) {
		fprintf(stderr, "fuzz_cli: %s %d\n", WIFEXITED(status) ?
		    "exit status" : "killed by signal", WIFEXITED(status) ?
		    WEXITSTATUS(status) : WTERMSIG(status));
		snprintf(path, sizeof(path), "cat '%s/err' >&2", root);
		if (system(path) != 0)
			warnx("no stderr");
		abort();
	}
	snprintf(path, sizeof(path), "%s/err", root);
	if (WEXITSTATUS(status) == 2 && (stat(path, &st) == -1 ||
	    st.st_size == 0)) {
		fprintf(stderr, "fuzz_cli: exit 2 and nothing on stderr\n");
		abort();
	}
	check_left(argv + 1, argc - 1);
	return 0;
}

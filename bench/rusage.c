/*
 * rusage: run a command and report its wall time and peak RSS on
 * standard error, for bench/run.sh where GNU time(1) is not installed.
 *
 * usage: rusage [-o file] command [arg ...]
 *
 * Prints "wall_s maxrss_kb status" on one line (to file if -o is given,
 * appended).  The command's standard output and error are its own.
 * Exits with the command's exit status.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct timespec	 t0, t1;
	struct rusage	 ru;
	const char	*outpath = NULL;
	FILE		*out = stderr;
	pid_t		 pid;
	int		 status, ch, rc;
	double		 wall;

	while ((ch = getopt(argc, argv, "+o:")) != -1) {
		switch (ch) {
		case 'o':
			outpath = optarg;
			break;
		default:
			fprintf(stderr, "usage: rusage [-o file] command "
			    "[arg ...]\n");
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		fprintf(stderr, "usage: rusage [-o file] command [arg ...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) == -1)
		err(2, "fork");
	if (pid == 0) {
		execvp(argv[0], argv);
		err(127, "%s", argv[0]);
	}
	if (wait4(pid, &status, 0, &ru) == -1)
		err(2, "wait4");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (outpath != NULL && (out = fopen(outpath, "a")) == NULL)
		err(2, "%s", outpath);
	fprintf(out, "%.4f %ld %d\n", wall, ru.ru_maxrss, rc);
	if (out != stderr)
		fclose(out);
	return rc;
}

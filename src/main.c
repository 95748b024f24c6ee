/*
 * profdiff: compare pprof profiles and say whether the differences are
 * real.  main() only dispatches, by exact name, through the command
 * table (cmdtab.c) that the help text reads too: each subcommand lives
 * in cmd_<name>.c and parses its own options.  With no subcommand, two
 * or more profile operands mean "diff".
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "support/compat.h"
#include "input/fetch.h"
#include "profdiff.h"

/*
 * A subcommand, then libcurl's clean-up if a URL among its operands
 * loaded it (fetch.c).
 */
static int
run(const struct cli_cmd *c, int argc, char **argv)
{
	int rc;

	rc = c->fn(c, argc, argv);
	fetch_global_cleanup();
	return rc;
}

/* A word that names no command: what it may have meant, the usage, 2. */
static int
unknown(const char *word)
{
	char near[256];

	if (cli_cmd_suggest(near, sizeof(near), word) != NULL)
		cli_warn("unknown command '%s'; did you mean %s?", word, near);
	else
		cli_warn("unknown command '%s'", word);
	cli_usage(stderr, NULL);
	return 2;
}

int
main(int argc, char *argv[])
{
	const struct cli_cmd *c;

	setprogname("profdiff");
	compat_malloc_tune();	/* compat.c says what it buys */

	if (argc < 2) {
		cli_usage(stderr, NULL);
		return 2;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		if (argc > 2 && (c = cli_cmd_find(argv[2])) == NULL)
			return unknown(argv[2]);
		cli_help(stdout, argc > 2 ? c : NULL);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("profdiff %s\n", PD_VERSION);
		return 0;
	}
	if ((c = cli_cmd_find(argv[1])) != NULL)
		return run(c, argc - 1, argv + 1);
	/*
	 * Not a subcommand: treat the arguments as diff's, so that
	 * "profdiff good.pb.gz bad.pb.gz" works.  A bare word that names no
	 * file is more likely a mistyped command than a profile.
	 */
	if (argv[1][0] != '-' && strchr(argv[1], '/') == NULL &&
	    strchr(argv[1], '.') == NULL && access(argv[1], F_OK) == -1)
		return unknown(argv[1]);
	c = cli_cmd_find("diff");
	return run(c, argc, argv);
}

/*
 * The subcommands: one table, read by main.c to dispatch and by cli.c
 * for the usage and help text, so that the two cannot disagree.  Each
 * entry names the option groups its command takes; the options
 * themselves are cli.c's table.  No code here but the lookup.
 */
#include <stddef.h>
#include <string.h>

#include "cli/cli.h"

const struct cli_cmd cli_cmds[] = {
	{ "top", cmd_top, OPT_TOP, "[options] profile ...",
	  "the functions with the most flat or cumulative value" },
	{ "diff", cmd_diff, OPT_DIFF, "[options] base ... [--] new ...",
	  "findings and per-function changes between two sets of profiles" },
	{ "check-significance", cmd_check, OPT_DIFF | OPT_CHECK,
	  "[options] base ... [--] new ...",
	  "exit 1 on a regression finding; 3 when inconclusive (too few "
	  "samples or none counted, or a finding on estimated counts, one "
	  "profile a side, or in sums over windows of unknown length)" },
	{ "series", cmd_series, OPT_SERIES, "[options] point point ...",
	  "when a sequence of profiles changed, and in which functions" },
	{ "check-series", cmd_series, OPT_SERIES,
	  "[options] point point ...",
	  "exit 1 when the newest segment of a series regressed" },
};
const size_t cli_ncmds = sizeof(cli_cmds) / sizeof(cli_cmds[0]);

/* The command of exactly this name (no prefixes), or NULL. */
const struct cli_cmd *
cli_cmd_find(const char *name)
{
	size_t i;

	for (i = 0; i < cli_ncmds; i++)
		if (strcmp(name, cli_cmds[i].name) == 0)
			return &cli_cmds[i];
	return NULL;
}

/*
 * The subcommands: one table, read by main.c to dispatch and by cli.c
 * for the usage and help text, so that the two cannot disagree.  Each
 * entry carries what the code must know of its command: the option
 * groups it takes (the options themselves are cli.c's table), its
 * report's formats, its default -n, whether it is a CI gate, and what
 * its loading must keep.  No code here but the lookup.
 */
#include <stddef.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report_series.h"

const struct cli_cmd cli_cmds[] = {
	{ .name = "top", .fn = cmd_top, .options = OPT_TOP,
	  .formats = report_top_formats, .rows = 10,
	  .synopsis = "[options] profile ...",
	  .description = "the functions with the most flat or cumulative "
	  "value" },
	{ .name = "diff", .fn = cmd_diff, .options = OPT_DIFF,
	  .formats = report_diff_formats, .rows = 20,
	  .needs = CMD_EDGES | CMD_MOMENTS | CMD_COMPARES,
	  .synopsis = "[options] base ... [--] new ...",
	  .description = "findings and per-function changes between two sets "
	  "of profiles" },
	{ .name = "check-significance", .fn = cmd_check,
	  .options = OPT_DIFF | OPT_CHECK, .formats = report_diff_formats,
	  .rows = 0, .gate = 1, .needs = CMD_EDGES | CMD_MOMENTS | CMD_COMPARES,
	  .synopsis = "[options] base ... [--] new ...",
	  .description = "exit 1 on a regression finding; 3 when inconclusive "
	  "(too few samples or none counted, or a finding on estimated "
	  "counts, one profile a side, or in sums over windows of unknown "
	  "length)" },
	{ .name = "series", .fn = cmd_series, .options = OPT_SERIES,
	  .formats = report_series_formats, .rows = 20,
	  .needs = CMD_EDGES | CMD_COMPARES,
	  .synopsis = "[options] point point ...",
	  .description = "when a sequence of profiles changed, and in which "
	  "functions" },
	{ .name = "check-series", .fn = cmd_series, .options = OPT_SERIES,
	  .formats = report_series_formats, .rows = 0, .gate = 1,
	  .needs = CMD_EDGES | CMD_COMPARES,
	  .synopsis = "[options] point point ...",
	  .description = "exit 1 when the newest segment of a series "
	  "regressed" },
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

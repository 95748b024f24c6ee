/*
 * The subcommands: one table, read by main.c to dispatch and by cli.c
 * for the usage and help text, so that the two cannot disagree.  Each
 * entry carries what the code must know of its command: the option
 * groups it takes (the options themselves are cli.c's table), its
 * report's formats, its default -n, whether it is a CI gate, and what
 * its loading must keep.  No code here but the lookup, and for a word
 * that names no command, the commands it may have been meant for.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report_series.h"

const struct cli_cmd cli_cmds[] = {
	{ .name = "top", .fn = cmd_top, .options = OPT_TOP,
	  .formats = report_top_formats, .rows = 10,
	  .synopsis = "[options] profile ...",
	  .description = "the functions with the most flat or cumulative "
	  "value" },
	{ .name = "diff", .fn = cmd_diff, .options = OPT_DIFF | OPT_SIDES,
	  .formats = report_diff_formats, .rows = 20,
	  .needs = CMD_EDGES | CMD_MOMENTS | CMD_COMPARES,
	  .synopsis = "[options] base ... [--] new ...",
	  .description = "findings and per-function changes between two sets "
	  "of profiles" },
	{ .name = "check-significance", .fn = cmd_check,
	  .options = OPT_DIFF | OPT_SIDES | OPT_CHECK,
	  .formats = report_diff_formats,
	  .rows = 0, .gate = 1, .needs = CMD_EDGES | CMD_MOMENTS | CMD_COMPARES,
	  .synopsis = "[options] base ... [--] new ...",
	  .description = "exit 1 on a regression finding; 3 when inconclusive "
	  "(too few samples or none counted, or a finding on estimated "
	  "counts, one profile a side, or in sums over windows of unknown "
	  "length)" },
	{ .name = "spans", .fn = cmd_spans, .options = OPT_DIFF | OPT_SPANS,
	  .formats = report_diff_formats, .rows = 20,
	  .needs = CMD_EDGES | CMD_MOMENTS | CMD_COMPARES,
	  .synopsis = "[options] --trace FILE profile ...",
	  .description = "the slow spans of a trace against its fast ones, "
	  "from one profile whose samples carry span ids" },
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

#define NEAR_MAX	2	/* edits a typo may hold */
#define NEAR_LEN	64	/* longer words are no typo of a command */

/*
 * The edits between a and b: a character inserted, deleted or replaced,
 * or two adjacent ones swapped ("tpo" for "top"), each one (the optimal
 * string alignment distance).
 */
static size_t
edits(const char *a, const char *b)
{
	size_t	 d[NEAR_LEN + 1][NEAR_LEN + 1], na = strlen(a), nb = strlen(b);
	size_t	 i, j, c, v;

	for (i = 0; i <= na; i++)
		d[i][0] = i;
	for (j = 0; j <= nb; j++)
		d[0][j] = j;
	for (i = 1; i <= na; i++)
		for (j = 1; j <= nb; j++) {
			c = a[i - 1] != b[j - 1];
			v = d[i - 1][j - 1] + c;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[na][nb];
}

/*
 * What word, which names no command, may have meant: the commands the
 * fewest edits away, if at most NEAR_MAX and fewer than word has
 * characters; else those it begins ("check", at least 3 characters).
 * Never taken as the command: "profdiff d" must not start working
 * today and break when another command begins with d.
 */
const char *
cli_cmd_suggest(char *buf, size_t len, const char *word)
{
	size_t	 i, n = 0, best = NEAR_MAX + 1, wl = strlen(word), e[16];
	int	 pre = 0;

	if (wl == 0 || wl > NEAR_LEN || len == 0)
		return NULL;
	for (i = 0; i < cli_ncmds && i < sizeof(e) / sizeof(e[0]); i++) {
		e[i] = strlen(cli_cmds[i].name) > NEAR_LEN ? NEAR_MAX + 1 :
		    edits(word, cli_cmds[i].name);
		if (e[i] < best && e[i] < wl)
			best = e[i];
	}
	if (best > NEAR_MAX) {
		if (wl < 3)
			return NULL;
		pre = 1;
	}
	buf[0] = '\0';
	for (i = 0; i < cli_ncmds && i < sizeof(e) / sizeof(e[0]); i++) {
		if (pre ? strncmp(word, cli_cmds[i].name, wl) != 0 :
		    e[i] != best)
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s'%s'",
		    n == 0 ? "" : " or ", cli_cmds[i].name);
		n++;
	}
	return n > 0 ? buf : NULL;
}

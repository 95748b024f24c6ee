/*
 * The CLI layer: the options of the subcommands (struct opts, filled by
 * cli.c's table), the command table (cmdtab.c), the output file, and
 * the subcommands themselves.  Only this layer (main.c, cli.c,
 * cmdtab.c, cmd_*.c, pair.c, load.c) prints to stderr or exits.
 */
#ifndef CLI_H
#define CLI_H

#include <stdint.h>
#include <stdio.h>

#include "agg.h"
#include "delta.h"
#include "load.h"
#include "profdiff.h"
#include "report.h"

struct filter;

/* Which options a subcommand takes: a bit per option group. */
#define OPT_TOP		0x01	/* --cum */
#define OPT_DIFF	0x02	/* --normalize --sort --alpha --min-effect ... */
#define OPT_CHECK	0x04	/* --fail-on */
#define OPT_SERIES	0x08	/* --by-time, and diff's statistics */

/* The values of an option given as often as wanted (--tag), in order. */
struct cli_list {
	char		**v;
	size_t		 n;
};

/* --min-effect: each form sets one of the two thresholds. */
struct cli_effect {
	double		 pp;		/* percentage points */
	double		 rel;		/* relative, in percent */
};

/*
 * Every option's value, where cli.c's table puts it.  An option that
 * names its values holds one of them as an int: the enum of the room
 * that reads it.
 */
struct opts {
	struct load_opts load;		/* -i, granularity, limits, filter */
	long long	 nrows;		/* 0: all; -1: the command's */
	int		 cum;
	int		 format;	/* enum report_format */
	const char	*output;	/* NULL: stdout */
	int		 normalize;	/* enum delta_norm */
	int		 sort;		/* enum delta_sort */
	double		 alpha;
	struct cli_effect min_effect;
	int		 fail_on;	/* enum delta_fail_on */
	const char	*focus;
	const char	*ignore;
	const char	*hide;
	const char	*show;
	struct cli_list	 tags;		/* --tag KEY=VALUE */
	struct cli_list	 tag_ignores;
	int		 relative;
	struct filter	*filter;	/* cli_filters(), as load.filter */
	int		 flame_base;	/* svg: frame widths from the base */
	int		 color;		/* -1 auto, 0 never, 1 always */
	int		 quiet;		/* no warnings */
	int		 by_time;	/* series: order by time_nanos */
	char		**operands;	/* non-option arguments, in order */
	size_t		 noperands;
	int		 sep;		/* operands before "--", or -1 */
	int		 sep_argi;
	size_t		 nbase;		/* of them base profiles (diff) */
	char		*tmp_path;	/* -o's temporary file, while open */
};

/*
 * Parse argv for a subcommand that accepts the option groups in mask.
 * Options and operands may be mixed; long options must be spelled out.
 * Fills o (defaults first, operands included; free o->operands), and
 * o->load.agg.tree for the flame graph formats, and returns 0; 1 after
 * printing the help asked for with -h; or -1 after printing a usage
 * message, or a message on options that cannot go together.
 */
int	cli_parse(int argc, char **argv, int mask, const char *cmd,
	    struct opts *o);
/*
 * Split the operands of diff and check-significance into base and new
 * profiles, at "--" or, with two, one each: set o->nbase and return 0,
 * or -1 after a message and the usage.
 */
int	cli_pair_operands(struct opts *, const char *cmd);
/* Free what cli_parse() and cli_filters() allocated in o. */
void	cli_release(struct opts *);
void	cli_usage(FILE *, const char *cmd);	/* NULL: all commands */

/*
 * Open the output: stdout, or a temporary file beside o->output that
 * cli_close() renames into place only if everything was written.
 */
FILE	*cli_open_output(struct opts *);
int	 cli_close_output(FILE *, struct opts *, int ok);

/*
 * Compile the filter options into o->filter (NULL when there are none),
 * which o->load.filter lends the loading; -1 after a message on a bad
 * expression.
 */
int	 cli_filters(struct opts *, const char *cmd);
/* The active filters as the report header lists them, or NULL; free it. */
char	*cli_filters_text(const struct opts *);

/* Print "profdiff: " and a formatted warning/error line to stderr. */
void	cli_warn(const char *fmt, ...)
	    __attribute__((__format__(__printf__, 1, 2)));

/*
 * The subcommands, in the order of the help: one table (cmdtab.c) that
 * both dispatch (main.c) and the usage text read.  fn is called with
 * its own entry and the arguments from the subcommand's name on; it
 * parses its options (the groups in options) and returns the exit
 * status.
 */
struct cli_cmd {
	const char	*name;
	int		(*fn)(const struct cli_cmd *, int, char **);
	int		 options;	/* OPT_* groups */
	const char	*synopsis;	/* as in profdiff.1's SYNOPSIS */
	const char	*description;
};

extern const struct cli_cmd	cli_cmds[];
extern const size_t		cli_ncmds;

/* The command of exactly this name (no prefixes), or NULL. */
const struct cli_cmd *cli_cmd_find(const char *name);

int	cmd_top(const struct cli_cmd *, int, char **);
int	cmd_diff(const struct cli_cmd *, int, char **);
int	cmd_check(const struct cli_cmd *, int, char **);
int	cmd_series(const struct cli_cmd *, int, char **);

#endif

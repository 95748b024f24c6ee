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

#include "core/agg.h"
#include "core/delta.h"
#include "input/fetch.h"
#include "load/load.h"
#include "profdiff.h"
#include "report/report.h"

struct filter;
struct views_spec;

/* Which options a subcommand takes: a bit per option group. */
#define OPT_TOP		0x01	/* --cum */
#define OPT_DIFF	0x02	/* --normalize --sort --alpha --min-effect ... */
#define OPT_CHECK	0x04	/* --fail-on */
#define OPT_SERIES	0x08	/* --by-time, and diff's statistics */

/* --normalize auto: the quantity the sample type calls for (kind.h). */
#define CLI_NORM_AUTO	(-1)

/* The values of an option given as often as wanted (--tag), in order. */
struct cli_list {
	char		**v;
	size_t		 n;
};

/* --min-effect: each form sets one of the two thresholds. */
struct cli_effect {
	double		 pp;		/* percentage points */
	double		 rel;		/* relative, in percent */
	int		 pp_given;	/* pp is the user's, not the default */
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
	int		 normalize;	/* enum delta_norm, or CLI_NORM_AUTO */
	double		 requests[2];	/* --requests BASE,NEW; 0: unset */
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
	struct cli_list	 bases;		/* --base FILE: once, twice or per profile */
	size_t		 tag_pp;	/* 1 + the index in tags of */
	size_t		 tag_ignore_pp;	/*   -tagfocus's (-tagignore's), or 0 */
	struct cli_list	 diff_base;	/* pprof's -diff_base FILE */
	const char	*unit;		/* --unit, or NULL */
	int		 relative;
	struct filter	*filter;	/* cli_filters(), as load.filter */
	const char	*list;		/* --list RE */
	const char	*peek;		/* --peek RE */
	const char	*source_path;	/* --source-path DIR[:DIR...] */
	struct views_spec *views;	/* cli_filters(), as load.views */
	int		 flame_base;	/* svg: frame widths from the base */
	int		 color;		/* -1 auto, 0 never, 1 always */
	int		 quiet;		/* no warnings */
	struct fetch_opts fetch;	/* --seconds, --save; as load.limits.fetch */
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
/*
 * --base: which earlier snapshot each profile subtracts (o->load.minus,
 * minus_new).  Once per profile, in the operands' order; or, for diff
 * with one profile a side, once (base side: subtract it; new side:
 * subtract the base side's profile, the snapshot before it) or twice
 * (one per side).  Returns 0, or -1 after a message.
 */
int	cli_bases(struct opts *, const char *cmd, int pair);
/* Free what cli_parse() and cli_filters() allocated in o. */
void	cli_release(struct opts *);
void	cli_usage(FILE *, const char *cmd);	/* NULL: all commands */
/* The help: cli_usage() and what pprof's options are here. */
void	cli_help(FILE *, const char *cmd);

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
/*
 * Refuse a --unit of another family than the values' (ms for bytes):
 * -1 after a message naming both, else 0.  pprof would print them in
 * its default unit of their own family instead.
 */
int	 cli_check_unit(const char *unit, const char *cmd,
	    const struct facts *);
/* The active filters as the report header lists them, or NULL; free it. */
char	*cli_filters_text(const struct opts *);

/*
 * pprof's spellings, as its Go flags take them: one dash or two, the
 * value after "=" or in the next word.  Each says what it means here:
 * the option of cli_opts[] named opt, given the user's value or, for a
 * flag of pprof's, val ("" for a flag of ours); or one of the two that
 * are more than a renaming; or, when profdiff cannot do what it asks,
 * what profdiff offers instead.  The first entry of a name that the
 * subcommand takes is the one; every name has one for each subcommand.
 * The table is in cli_pprof.c; the help prints it, and man/profdiff.1
 * has it too.
 */
enum pp_how {
	PP_OPT = 0,	/* opt, with the user's value or val */
	PP_TAG,		/* -tagfocus, -tagignore: KEY=VALUE, the last wins */
	PP_DIFF_BASE,	/* the base profiles; the operands are the new ones */
	PP_NONE,	/* what profdiff does anyway */
	PP_NO,		/* not here: note says what is */
};

struct cli_pprof {
	const char	*name;		/* without the dash */
	const char	*opt;		/* PP_OPT, PP_TAG: cli_opts[]'s name */
	const char	*val;		/* a flag: the value it gives opt */
	int		 mask;		/* 0: every subcommand */
	int		 how;
	const char	*note;		/* for the user; PP_NO: what is here */
};

/* The entry for the n bytes at name that the groups in mask take, or NULL. */
const struct cli_pprof *cli_pprof_find(const char *name, size_t n, int mask);
/* Does the entry take a value, as a Go flag that is not a bool? */
int	cli_pprof_valued(const struct cli_pprof *);
/* Go's strconv.ParseBool, which pprof's "-cum=true" goes through: 1, 0, -1. */
int	cli_go_bool(const char *);
/* The help's "Coming from pprof": the table, for the groups in mask. */
void	cli_pprof_help(FILE *, int mask);
/* The value's name in the help of option --name ("N"), or NULL. */
const char *cli_opt_arg(const char *name);

/*
 * Print "profdiff: " and a formatted warning/error line to stderr, its
 * control bytes escaped as the text reports escape names
 * (report_put_text(): \n, \t, \x1b).
 */
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

/*
 * The CLI layer: the command table (cmdtab.c) and each command's facts,
 * the options of the subcommands (struct opts, filled by cli.c's
 * table), the output file, and the subcommands themselves.  Only this
 * layer and main.c print to stderr or exit.
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

struct cli_cmd;
struct filter;
struct views_spec;

/* Which options a subcommand takes: a bit per option group. */
#define OPT_TOP		0x01	/* --cum */
#define OPT_DIFF	0x02	/* --normalize none, --sort, --requests ... */
#define OPT_CHECK	0x04	/* --fail-on */
#define OPT_SERIES	0x08	/* --by-time, and diff's statistics */
#define OPT_SPANS	0x10	/* --trace, --span-name, --slow, --span-label */
#define OPT_SIDES	0x20	/* --base-tag, --new-tag, --requests: not spans */

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

/* --normalize: auto (the sample type decides, kind.h), or how. */
struct cli_norm {
	enum delta_norm	 how;
	int		 given;		/* 0: auto */
};

/* --color. */
enum cli_color {
	CLI_COLOR_AUTO = 0,		/* on a terminal, unless NO_COLOR */
	CLI_COLOR_NEVER,
	CLI_COLOR_ALWAYS,
};

/*
 * Every option's value, where cli.c's table puts it, each of its own
 * type, and what the command makes of them.
 */
struct opts {
	const struct cli_cmd *cmd;	/* the command they are for */
	/*
	 * What loading needs: -i, --granularity, --noinlines, --by-label
	 * and the limits straight from the table, the rest from
	 * cli_load_opts().
	 */
	struct load_opts load;
	struct fetch_opts fetch;	/* --seconds, --save; as load.limits.fetch */

	/* The report. */
	enum report_format format;
	const char	*output;	/* NULL: stdout */
	FILE		*out;		/* the report's stream, while open */
	char		*target;	/* what -o's temporary file replaces */
	size_t		 nrows;		/* 0: all; the command's by default */
	int		 cum;
	enum delta_sort	 sort;
	const char	*unit;		/* --unit, or NULL */
	int		 flame_base;	/* svg: frame widths from the base */
	enum cli_color	 color;
	int		 quiet;		/* no warnings */
	int		 by_time;	/* series: order by time_nanos */

	/* The statistics. */
	struct cli_norm	 normalize;
	double		 requests[2];	/* --requests BASE,NEW; 0: unset */
	double		 alpha;
	struct cli_effect min_effect;
	enum delta_fail_on fail_on;
	int		 same_process;	/* one a side: sampling alone */

	/* The filters and the views, compiled by cli_load_opts(). */
	const char	*focus;
	const char	*ignore;
	const char	*hide;
	const char	*show;
	struct cli_list	 tags;		/* --tag KEY=VALUE */
	struct cli_list	 tag_ignores;
	size_t		 tag_pp;	/* 1 + the index in tags of */
	size_t		 tag_ignore_pp;	/*   -tagfocus's (-tagignore's), or 0 */
	/*
	 * --base-tag, --new-tag: each side's samples, compiled by
	 * cli_load_opts() into select (as load.select, load.select_new);
	 * one_profile: one profile is both sides (cli_sides_operands()).
	 */
	struct cli_list	 base_tags;
	struct cli_list	 new_tags;
	struct selection *select[2];
	int		 one_profile;
	int		 relative;
	struct filter	*filter;	/* as load.filter */
	const char	*list;		/* --list RE */
	const char	*peek;		/* --peek RE */
	const char	*source_path;	/* --source-path DIR[:DIR...] */
	const char	*binary_path;	/* --binary-path DIR[:DIR...] */
	char		**sym_dirs;	/* the folders binaries are looked
					   for in, in order (load.sym) */
	struct views_spec *views;	/* as load.views */

	/* The operands. */
	char		**operands;	/* non-option arguments, in order */
	size_t		 noperands;
	int		 sep;		/* operands before "--", or -1 */
	int		 sep_argi;
	size_t		 nbase;		/* of them base profiles (diff) */
	struct cli_list	 bases;		/* --base FILE: once, twice or per profile */
	struct cli_list	 diff_base;	/* pprof's -diff_base FILE */

	/* spans: the trace, which spans, which are slow, their label. */
	const char	*trace;
	const char	*span_name;
	const char	*slow;
	const char	*span_label;
};

/*
 * Parse argv for command c.  Options and operands may be mixed; long
 * options must be spelled out.  Fills o (defaults first, the command's
 * -n among them; operands included: free o->operands) and returns 0; 1
 * after printing the help asked for with -h; or -1 after printing a
 * usage message, or a message on options that cannot go together, with
 * o released.
 */
int	cli_parse(const struct cli_cmd *c, int argc, char **argv,
	    struct opts *o);
/*
 * Split the operands of diff and check-significance into base and new
 * profiles, at "--" or, with two, one each: set o->nbase and return 0,
 * or -1 after a message and the usage.
 */
int	cli_pair_operands(struct opts *);
/*
 * --base: which earlier snapshot each profile subtracts (o->load.minus,
 * minus_new).  Once per profile, in the operands' order; or, for diff
 * with one profile a side, once (base side: subtract it; new side:
 * subtract the base side's profile, the snapshot before it, or when one
 * profile is both sides, the same snapshot) or twice (one per side).
 * Returns 0, or -1 after a message.
 */
int	cli_bases(struct opts *, int pair);
/*
 * --base-tag and --new-tag (sides.c).  Before cli_pair_operands(): one
 * operand is both sides, with both options; two that are one file are
 * one profile too (o->one_profile).  Standard input and URLs, which
 * are read once, cannot be both.  Returns 0, or -1 after a message.
 */
int	cli_sides_operands(struct opts *);
/*
 * Refuse path if it is read once (standard input; a URL, each fetch
 * another window) where reader, "spans reads each profile", needs it
 * once a side.  Returns 0, or -1 after a message.
 */
int	cli_read_twice(const struct opts *, const char *path,
	    const char *reader);
/*
 * Compile the two sides' selections into o->select and lend them to
 * loading (o->load.select, select_new, and select_other for one profile
 * both sides), reading @FILE's values.  Returns 0, or -1 after a
 * message.
 */
int	cli_selections(struct opts *);
/*
 * Once loaded, refuse a side that its selection left empty, two
 * selections of one profile that share samples, and a side that --tag
 * or --tag-ignore left empty (options apply to every profile, wherever
 * they stand).  Returns 0, or -1 after a message.
 */
int	cli_sides_check(const struct opts *, const struct side *b,
	    const struct side *n);
/*
 * The header's account of the selections, into sel (base, new), and
 * one_profile's samples on neither side into *neither (-1 if not known
 * or not one profile).
 */
void	cli_sides_head(const struct opts *, const struct side *b,
	    const struct side *n, struct report_sel sel[2],
	    int64_t *neither);
/*
 * What loading needs, decided here only: the filters and --list's and
 * --peek's expressions compiled (o->filter, o->views, which o->load
 * lends), the call tree when the format draws one, the edges and the
 * moments when the command's report reads them (struct cli_cmd), and
 * --save's note.  Returns 0, or -1 after a message on a bad expression
 * or a view the format cannot write.
 */
int	cli_load_opts(struct opts *);
/* Free the folders cli_load_opts() gave symbolization (cli_release()). */
void	cli_sym_dirs_free(struct opts *);
/*
 * The operands and --base files, each URL's password written as ***
 * (fetch_redact()), at the end of cli_parse(): 0, or -1 after a
 * message.
 */
int	cli_redact_inputs(struct opts *);
/* Free what cli_parse() and cli_load_opts() allocated in o. */
void	cli_release(struct opts *);
/* The usage lines of c, or of every command (c NULL). */
void	cli_usage(FILE *, const struct cli_cmd *c);
/* The help: c's usage and options, and what pprof's options are here. */
void	cli_help(FILE *, const struct cli_cmd *c);

/* The writer of format f in c's report table, or NULL: c has none. */
const struct report_writer *cli_writes(const struct cli_cmd *c,
	    enum report_format f);
/* The writer of -f's format in the command's report table. */
const struct report_writer *cli_writer(const struct opts *);
/*
 * "a, b or c": the names of the formats c writes whose writer keep
 * keeps, in -f's order, for a message on what a format cannot do.
 */
void	cli_formats(char *buf, size_t len, const struct cli_cmd *c,
	    int (*keep)(const struct report_writer *));
/* Colour the text: --color always, or auto on a terminal. */
int	cli_color(const struct opts *);
/*
 * Open the output before anything is read, so that a -o that cannot be
 * written fails at once: standard output; a descriptor -o names
 * (/dev/stdout, /dev/fd/N); a device, FIFO or socket, opened and
 * written where it is; or, for a regular file or a new one (a symbolic
 * link's target, the link kept), a temporary file beside it, removed
 * if the process ends before cli_write() renames it into place.  Sets
 * o->out and returns 0, or -1 after a message.  cli_release() closes
 * what was not written, and removes the temporary file.
 */
int	cli_output_open(struct opts *);
/* Close the output unwritten, its temporary file removed (if open). */
void	cli_output_discard(struct opts *);
/*
 * Write report, the struct the command's report table takes (struct
 * top_report for top, ...), in -f's format, to the output (opened
 * here if it is not yet) and close it: a temporary file is renamed
 * into place only once all of it was written.  Returns 0, or -1 after
 * a message.
 */
int	cli_write(struct opts *, const void *report);

/*
 * Refuse a --unit of another family than the values' (ms for bytes):
 * -1 after a message naming both, else 0.  pprof would print them in
 * its default unit of their own family instead.
 */
int	 cli_check_unit(const struct opts *, const struct facts *);
/* The active filters as the report header lists them, or NULL; free it. */
char	*cli_filters_text(const struct opts *);

/*
 * pprof's spellings, as its Go flags take them: one dash or two, the
 * value after "=" or in the next word.  Each says what it means here:
 * the option of cli_opts[] named opt, given the user's value or, for a
 * flag of pprof's, val ("" for a flag of ours); or one of the two that
 * are more than a renaming; or, when profdiff cannot do what it asks,
 * what profdiff offers instead.  The first entry of a name that the
 * subcommand takes is the one; every name has one for top, diff and
 * check-significance (series takes fewer).
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
 * its own entry and the arguments from the subcommand's name on, and
 * returns the exit status.  The entry is the command's one identity:
 * what the code must know of a command, it asks the entry.
 */
struct cli_cmd {
	const char	*name;
	int		(*fn)(const struct cli_cmd *, int, char **);
	int		 options;	/* the OPT_* groups it takes */
	/* Its report's formats (report.h): -f takes these only. */
	const struct report_writer *formats;
	size_t		 rows;		/* -n's default; 0: all */
	/* A CI gate: exit 1 on a regression, 3 when inconclusive. */
	int		 gate;
	unsigned	 needs;		/* CMD_EDGES, CMD_MOMENTS, CMD_COMPARES */
	const char	*synopsis;	/* as in profdiff.1's SYNOPSIS */
	const char	*description;
};

/* What a command's loading must keep (cli_load_opts()). */
#define CMD_EDGES	0x01	/* the call edges: its report walks them */
#define CMD_MOMENTS	0x02	/* the values' moments: intervals of values */
#define CMD_COMPARES	0x04	/* it judges changes: idle samples apart */

extern const struct cli_cmd	cli_cmds[];
extern const size_t		cli_ncmds;

/* The command of exactly this name (no prefixes), or NULL. */
const struct cli_cmd *cli_cmd_find(const char *name);
/*
 * For a word that names no command: the commands it may have been meant
 * for, within two edits ("dif": "'diff'") or that it begins ("check":
 * "'check-significance' or 'check-series'"), into buf; or NULL if none.
 * A suggestion for the message, never a match.
 */
const char *cli_cmd_suggest(char *buf, size_t len, const char *word);

int	cmd_top(const struct cli_cmd *, int, char **);
int	cmd_diff(const struct cli_cmd *, int, char **);
int	cmd_check(const struct cli_cmd *, int, char **);
int	cmd_series(const struct cli_cmd *, int, char **);
int	cmd_spans(const struct cli_cmd *, int, char **);

/* The notes of the help (helptext.c). */
extern const char cli_help_inputs[];
extern const char cli_help_no_change[];

#endif

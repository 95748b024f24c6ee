/*
 * The options of the subcommands, in one table: each entry says which
 * subcommands take it, how its value is parsed, where in struct opts
 * it goes, and what the help says of it, so that -i means the same
 * everywhere and the parser, the usage text and the error messages read
 * the same entry.  An option that names its values lists them, and the
 * help and the refusal of a bad one list those the command takes: for
 * -f, the formats of the command's report table (report.h).  Then the
 * operands: which are the base side and which the new, and the --base
 * snapshots.  What the options mean for loading is load_opts.c's; the
 * output is output.c's.  This is CLI code: it prints to stderr and may
 * exit.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/filter.h"
#include "support/units.h"
#include "core/views.h"
#include "support/xmalloc.h"

/* One value of an option that names its values. */
struct cli_choice {
	const char	*name;
	int		 value;
	int		 mask;		/* 0: every subcommand */
	const char	*gloss;		/* in the help: "name (gloss)" */
	const char	*refused;	/* to the others: why not */
};

/*
 * Parse arg into dst, the entry's field of struct opts, of the type the
 * function says.  Returns 0, or -1 if arg is not a valid value.
 */
typedef int	cli_parse_fn(const char *arg, void *dst);
/* Store the value of a choice in dst, the field of its type. */
typedef void	cli_set_fn(void *dst, int value);

/*
 * An option: its value is parsed by parse, or names one of choices,
 * which set stores; the entry with neither is -h.  An option with no
 * arg takes no value (a flag).  Which choices a command takes is their
 * mask's to say, or offers's when the option has one.
 */
struct cli_opt {
	const char	*name;		/* --name, spelled out */
	int		 letter;	/* -l, or 0 */
	int		 mask;		/* 0: every subcommand */
	cli_parse_fn	*parse;
	const struct cli_choice *choices;
	cli_set_fn	*set;
	int		(*offers)(const struct cli_cmd *, int value);
	size_t		 off;		/* the value's, in struct opts */
	const char	*want;		/* if a bad value's message does
					   not list the choices */
	const char	*errname;	/* for messages, if not name */
	const char	*arg;		/* the value, in the help */
	const char	*help;		/* NULL: the choices, glossed */
	const char	*refused;	/* to the commands outside mask:
					   why not */
};

#define OFF(field)	offsetof(struct opts, field)

static cli_parse_fn opt_flag, opt_string, opt_key, opt_list, opt_rows,
    opt_gran, opt_alpha, opt_min_effect, opt_bytes, opt_count, opt_count64,
    opt_requests, opt_unit, opt_seconds;
static cli_set_fn set_int, set_format, set_norm, set_sort, set_fail_on,
    set_color;
static int writes(const struct cli_cmd *, int);
static const struct cli_opt *opt_named(const char *, size_t);

/* -f: the names of the formats; a command takes its report's. */
static const struct cli_choice formats[] = {
	{ "text", FMT_TEXT, 0, NULL, NULL },
	{ "json", FMT_JSON, 0, NULL, NULL },
	{ "csv", FMT_CSV, 0, NULL, NULL },
	{ "markdown", FMT_MARKDOWN, 0, NULL, NULL },
	{ "folded", FMT_FOLDED, 0, NULL, NULL },
	{ "svg", FMT_SVG, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL },
};
/* "auto" is -1: set_norm() leaves the quantity to the sample type. */
static const struct cli_choice norms[] = {
	{ "auto", -1, 0, "default: by sample type", NULL },
	{ "total", DELTA_NORM_TOTAL, 0, "shares", NULL },
	{ "duration", DELTA_NORM_DURATION, 0, "rates per second", NULL },
	{ "none", DELTA_NORM_NONE, OPT_DIFF, "absolute values",
	  "has no model for a sequence; use total or duration" },
	{ NULL, 0, 0, NULL, NULL },
};
static const struct cli_choice sorts[] = {
	{ "delta", DELTA_SORT_DELTA, 0, NULL, NULL },
	{ "flat", DELTA_SORT_FLAT, 0, NULL, NULL },
	/*
	 * pprof's -cum on a -diff_base profile orders by the magnitude of
	 * the cumulative difference, which is what delta is: as flat is
	 * the change of flat, cum is the change of cum.
	 */
	{ "cum", DELTA_SORT_DELTA, 0, NULL, NULL },
	{ "p", DELTA_SORT_P, 0, NULL, NULL },
	{ "name", DELTA_SORT_NAME, 0, NULL, NULL },
	{ "new", DELTA_SORT_NEW, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL },
};
static const struct cli_choice fails[] = {
	{ "regression", DELTA_FAIL_REGRESSION, 0, NULL, NULL },
	{ "any-change", DELTA_FAIL_ANY_CHANGE, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL },
};
static const struct cli_choice sides[] = {
	{ "new", 0, 0, NULL, NULL },
	{ "base", 1, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL },
};
static const struct cli_choice colors[] = {
	{ "auto", CLI_COLOR_AUTO, 0, NULL, NULL },
	{ "always", CLI_COLOR_ALWAYS, 0, NULL, NULL },
	{ "never", CLI_COLOR_NEVER, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL },
};

#define W_COUNT	"a positive whole number, with k, M or G"

static const struct cli_opt cli_opts[] = {
	{ .name = "sample-index", .letter = 'i', .parse = opt_string,
	  .off = OFF(load.sample_index), .arg = "NAME|N",
	  .help = "sample type to use (default: default_sample_type, else "
	  "the last); values that differ per sample (heap bytes, Datadog's "
	  "cpu) get the values' own intervals" },
	{ .name = "rows", .letter = 'n', .parse = opt_rows, .off = OFF(nrows),
	  .want = "a whole number, 0 for all", .arg = "N",
	  .help = "show N rows; 0 shows all (top 10, diff 20, check all)" },
	{ .name = "cum", .mask = OPT_TOP, .parse = opt_flag, .off = OFF(cum),
	  .help = "sort by cumulative value" },
	{ .name = "unit", .parse = opt_unit, .off = OFF(unit),
	  .want = "one of pprof's units (ns, us, ms, s, hrs, B, kB, MB, GB, "
	  "TB, PB, GCU, in any of its spellings), minimum or auto",
	  .arg = "U", .help = "print values in unit U (ms, MB, ...), as "
	  "pprof's -unit; minimum (default) or auto" },
	{ .name = "granularity", .parse = opt_gran, .off = OFF(load.agg.gran),
	  .want = "functions, filefunctions, files, lines or addresses",
	  .arg = "G",
	  .help = "functions, filefunctions, files, lines or addresses" },
	{ .name = "noinlines", .parse = opt_flag,
	  .off = OFF(load.agg.noinlines),
	  .help = "attribute inlined frames to their out-of-line caller" },
	{ .name = "by-label", .mask = OPT_TOP | OPT_DIFF, .parse = opt_key,
	  .off = OFF(load.agg.label_key), .want = "a label key", .arg = "KEY",
	  .help = "rows are the values of label KEY instead of functions",
	  .refused = "has no call graph for a series; leave it out" },
	{ .name = "format", .letter = 'f', .choices = formats,
	  .set = set_format, .offers = writes, .off = OFF(format),
	  .arg = "F" },
	{ .name = "output", .letter = 'o', .parse = opt_string,
	  .off = OFF(output), .arg = "FILE",
	  .help = "write to FILE instead of standard output (a file "
	  "atomically, a FIFO or device in place)" },
	{ .name = "normalize", .mask = OPT_DIFF | OPT_SERIES,
	  .choices = norms, .set = set_norm, .off = OFF(normalize),
	  .arg = "HOW" },
	{ .name = "requests", .mask = OPT_SIDES, .parse = opt_requests,
	  .off = OFF(requests), .arg = "BASE,NEW",
	  .help = "compare values per request: each side's request count" },
	{ .name = "base", .parse = opt_list, .off = OFF(bases),
	  .arg = "FILE", .help = "subtract FILE, an earlier cumulative "
	  "snapshot (pprof's -base); once per profile, in order; diff "
	  "with one a side: once (the base's) or twice (one per side); "
	  "series: once, each point less the one before" },
	{ .name = "sort", .mask = OPT_DIFF, .choices = sorts, .set = set_sort,
	  .off = OFF(sort), .arg = "KEY",
	  .help = "delta (default) or cum, flat, p, name or new" },
	{ .name = "alpha", .mask = OPT_DIFF | OPT_SERIES,
	  .parse = opt_alpha,
	  .off = OFF(alpha), .want = "a number above 0 and at most 0.5",
	  .arg = "A",
	  .help = "false discovery rate for the verdicts (default 0.05)" },
	{ .name = "min-effect", .mask = OPT_DIFF | OPT_SERIES,
	  .parse = opt_min_effect,
	  .off = OFF(min_effect), .want = "points such as 0.5 or 0.5pp, or a "
	  "relative change such as 10%", .arg = "X[pp]|X%",
	  .help = "smallest change that matters, in points or relative "
	  "percent (default 1pp and 10%; the points at most 10ms/s in a "
	  "diff of a wait's rate); significant changes under its points "
	  "alone are named in a line" },
	{ .name = "same-process", .mask = OPT_DIFF, .parse = opt_flag,
	  .off = OFF(same_process),
	  .help = "one profile a side: they are windows of one process, "
	  "whose shares differ by sampling only (no allowance for how two "
	  "processes differ)" },
	{ .name = "focus", .parse = opt_string, .off = OFF(focus), .arg = "RE",
	  .help = "keep only samples with a frame matching RE" },
	{ .name = "ignore", .parse = opt_string, .off = OFF(ignore),
	  .arg = "RE", .help = "drop samples with a frame matching RE" },
	{ .name = "hide", .parse = opt_string, .off = OFF(hide), .arg = "RE",
	  .help = "remove frames matching RE from the stacks" },
	{ .name = "show", .parse = opt_string, .off = OFF(show), .arg = "RE",
	  .help = "remove frames not matching RE from the stacks" },
	{ .name = "tag", .parse = opt_list, .off = OFF(tags),
	  .arg = "KEY=VALUE", .help = "keep samples whose label KEY matches "
	  "(regex, or range 1kb:4mb)" },
	{ .name = "tag-ignore", .parse = opt_list, .off = OFF(tag_ignores),
	  .arg = "KEY=VALUE", .help = "drop samples whose label KEY matches" },
	{ .name = "base-tag", .mask = OPT_SIDES, .parse = opt_list,
	  .off = OFF(base_tags), .arg = "KEY=VALUE",
	  .help = "the base side is the samples whose label KEY matches (as "
	  "--tag, or @FILE: exact values, one a line); one profile may be "
	  "both sides", .refused = "selects one side of a comparison; --tag "
	  "selects the samples of every profile" },
	{ .name = "new-tag", .mask = OPT_SIDES, .parse = opt_list,
	  .off = OFF(new_tags), .arg = "KEY=VALUE",
	  .help = "the new side is the samples whose label KEY matches",
	  .refused = "selects one side of a comparison; --tag selects the "
	  "samples of every profile" },
	{ .name = "trace", .mask = OPT_SPANS, .parse = opt_string,
	  .off = OFF(trace), .arg = "FILE", .help = "OTLP or Jaeger JSON" },
	{ .name = "span-name", .mask = OPT_SPANS, .parse = opt_string,
	  .off = OFF(span_name), .arg = "NAME", .help = "spans of one name" },
	{ .name = "slow", .mask = OPT_SPANS, .parse = opt_string,
	  .off = OFF(slow), .arg = "pN|DUR", .help = "pN (p90) or a duration" },
	{ .name = "span-label", .mask = OPT_SPANS, .parse = opt_key,
	  .off = OFF(span_label), .arg = "KEY", .help = "label of span ids" },
	{ .name = "relative", .parse = opt_flag, .off = OFF(relative),
	  .help = "percentages of what the filters keep, not of the whole "
	  "profile" },
	{ .name = "list", .mask = OPT_DIFF, .parse = opt_string,
	  .off = OFF(list), .arg = "RE",
	  .help = "text, markdown, json: per source line of the functions "
	  "matching RE, base, new, delta and verdict" },
	{ .name = "peek", .mask = OPT_DIFF, .parse = opt_string,
	  .off = OFF(peek), .arg = "RE",
	  .help = "text, markdown, json: callers and callees of the rows "
	  "matching RE, with their changes" },
	{ .name = "source-path", .mask = OPT_DIFF, .parse = opt_string,
	  .off = OFF(source_path), .arg = "DIR[:DIR...]",
	  .help = "--list: find source files under these directories" },
	{ .name = "binary-path", .parse = opt_string, .off = OFF(binary_path),
	  .arg = "DIR[:DIR...]", .help = "name unsymbolized addresses from "
	  "binaries in these folders first, then PPROF_BINARY_PATH's" },
	{ .name = "flame-width", .mask = OPT_DIFF, .choices = sides,
	  .set = set_int, .off = OFF(flame_base), .arg = "SIDE",
	  .help = "svg: frame widths from the new (default) or base profile" },
	{ .name = "color", .mask = OPT_DIFF, .choices = colors,
	  .set = set_color, .off = OFF(color), .arg = "WHEN",
	  .help = "auto (default), always or never; NO_COLOR is honoured" },
	{ .name = "by-time", .mask = OPT_SERIES, .parse = opt_flag,
	  .off = OFF(by_time),
	  .help = "order the points by the profiles' time_nanos" },
	{ .name = "fail-on", .mask = OPT_CHECK, .choices = fails,
	  .set = set_fail_on, .off = OFF(fail_on), .arg = "WHAT",
	  .help = "regression (default) or any-change" },
	{ .name = "quiet", .letter = 'q', .parse = opt_flag, .off = OFF(quiet),
	  .help = "do not print warnings" },
	{ .name = "seconds", .parse = opt_seconds, .off = OFF(fetch.seconds),
	  .want = "a whole number of seconds, 1 or more", .arg = "N",
	  .help = "URLs: ask a /debug/pprof/ URL for a delta of N seconds "
	  "(seconds=N); of heap's, only alloc_* types (-i alloc_space)" },
	{ .name = "save", .parse = opt_string, .off = OFF(fetch.save_dir),
	  .arg = "DIR", .help = "URLs: keep the bytes fetched in new files "
	  "in DIR" },
	{ .name = "max-input", .parse = opt_bytes,
	  .off = OFF(load.limits.max_input),
	  .want = "a size in bytes, with k, M or G", .arg = "BYTES",
	  .help = "largest input file (default 1G)" },
	{ .name = "max-inflated", .parse = opt_bytes,
	  .off = OFF(load.limits.max_inflated),
	  .want = "a size in bytes, with k, M or G", .arg = "BYTES",
	  .help = "largest inflated profile (default 2G)" },
	{ .name = "max-inflate-ratio", .parse = opt_count64,
	  .off = OFF(load.limits.max_ratio), .want = W_COUNT,
	  .errname = "max-*", .arg = "N",
	  .help = "largest inflated/compressed ratio (default 256)" },
	{ .name = "max-strings", .parse = opt_count,
	  .off = OFF(load.limits.max_strings), .want = W_COUNT,
	  .errname = "max-*", .arg = "N",
	  .help = "most strings in a profile (default 16M)" },
	{ .name = "max-locations", .parse = opt_count,
	  .off = OFF(load.limits.max_locations), .want = W_COUNT,
	  .errname = "max-*", .arg = "N",
	  .help = "most locations or mappings (default 16M)" },
	{ .name = "max-functions", .parse = opt_count,
	  .off = OFF(load.limits.max_functions), .want = W_COUNT,
	  .errname = "max-*", .arg = "N",
	  .help = "most functions (default 16M)" },
	{ .name = "max-depth", .parse = opt_count,
	  .off = OFF(load.limits.max_depth), .want = W_COUNT,
	  .errname = "max-*", .arg = "N",
	  .help = "deepest stack (default 65536)" },
	{ .name = "help", .letter = 'h', .help = "show this help" },
};
#define NOPTS	(sizeof(cli_opts) / sizeof(cli_opts[0]))

/* Does command cmd take this option... */
static int
takes(const struct cli_opt *c, const struct cli_cmd *cmd)
{
	return c->mask == 0 || (c->mask & cmd->options) != 0;
}

/* ...or this one of its values? */
static int
choice_takes(const struct cli_opt *c, const struct cli_choice *ch,
    const struct cli_cmd *cmd)
{
	if (c->offers != NULL)
		return c->offers(cmd, ch->value);
	return ch->mask == 0 || (ch->mask & cmd->options) != 0;
}

const struct report_writer *
cli_writes(const struct cli_cmd *cmd, enum report_format f)
{
	const struct report_writer *w;

	for (w = cmd->formats; w->write != NULL; w++)
		if (w->format == f)
			return w;
	return NULL;
}

/* -f's choices: the formats the command's report writes. */
static int
writes(const struct cli_cmd *cmd, int f)
{
	return cli_writes(cmd, f) != NULL;
}

const struct report_writer *
cli_writer(const struct opts *o)
{
	return cli_writes(o->cmd, o->format);
}

/* "a, b or c": the n names, each followed by its gloss if any. */
static void
join_names(char *buf, size_t len, const char *const *names,
    const char *const *glosses, size_t n)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			strlcat(buf, i + 1 < n ? ", " : " or ", len);
		strlcat(buf, names[i], len);
		if (glosses != NULL && glosses[i] != NULL) {
			strlcat(buf, " (", len);
			strlcat(buf, glosses[i], len);
			strlcat(buf, ")", len);
		}
	}
}

#define MAXCHOICES	16

/*
 * "a, b or c": the names of option c's values that cmd takes, each
 * followed by its gloss if glossed: "a (gloss), b or c".
 */
static void
list_choices(char *buf, size_t len, const struct cli_opt *c,
    const struct cli_cmd *cmd, int glossed)
{
	const struct cli_choice	*ch;
	const char		*names[MAXCHOICES], *glosses[MAXCHOICES];
	size_t			 n = 0;

	for (ch = c->choices; ch->name != NULL && n < MAXCHOICES; ch++)
		if (choice_takes(c, ch, cmd)) {
			glosses[n] = ch->gloss;
			names[n++] = ch->name;
		}
	join_names(buf, len, names, glossed ? glosses : NULL, n);
}

void
cli_formats(char *buf, size_t len, const struct cli_cmd *cmd,
    int (*keep)(const struct report_writer *))
{
	const struct report_writer	*w;
	const struct cli_choice		*ch;
	const char			*names[MAXCHOICES];
	size_t				 n = 0;

	for (ch = formats; ch->name != NULL && n < MAXCHOICES; ch++)
		if ((w = cli_writes(cmd, ch->value)) != NULL && keep(w))
			names[n++] = ch->name;
	join_names(buf, len, names, NULL, n);
}

/* The options c takes, one a line, as its help lists them. */
static void
options_cmd(FILE *fp, const struct cli_cmd *c)
{
	size_t	 i;
	char	 left[64], help[256];

	for (i = 0; i < NOPTS; i++) {
		const struct cli_opt *o = &cli_opts[i];

		if (!takes(o, c))
			continue;
		if (o->letter != 0)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
			    o->letter, o->name, o->arg ? " " : "",
			    o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
			    o->arg ? " " : "", o->arg ? o->arg : "");
		if (o->help != NULL)
			strlcpy(help, o->help, sizeof(help));
		else
			list_choices(help, sizeof(help), o, c, 1);
		fprintf(fp, "    %-30s %s\n", left, help);
	}
}

static void
usage_cmd(FILE *fp, const struct cli_cmd *c, int full)
{
	fprintf(fp, "usage: profdiff %s %s\n", c->name, c->synopsis);
	if (!full)
		return;
	fprintf(fp, "  %s\n", c->description);
	options_cmd(fp, c);
}

/*
 * profdiff --help: after the usage lines, the commands and what each
 * does, and the options of diff, the command that runs when profiles
 * come without one, which most of the others share; each command's own
 * are a "profdiff help COMMAND" away.
 */
static void
help_all(FILE *fp)
{
	const struct cli_cmd *diff = cli_cmd_find("diff");
	size_t i;

	fputs("\nCommands:\n", fp);
	for (i = 0; i < cli_ncmds; i++)
		fprintf(fp, "  %-20s %s\n", cli_cmds[i].name,
		    cli_cmds[i].description);
	fputs("\nOptions of diff, the default command (profdiff help COMMAND "
	    "lists each command's):\n", fp);
	options_cmd(fp, diff);
}

void
cli_usage(FILE *fp, const struct cli_cmd *c)
{
	size_t i;

	if (c != NULL) {
		usage_cmd(fp, c, 1);
		return;
	}
	for (i = 0; i < cli_ncmds; i++)
		usage_cmd(fp, &cli_cmds[i], 0);
	fprintf(fp, "usage: profdiff [diff options] base new\n"
	    "usage: profdiff --version\n"
	    "usage: profdiff help [command]\n");
}

/* The value parsers of the table, each for one type of field. */

static int
opt_flag(const char *arg, void *dst)
{
	(void)arg;
	*(int *)dst = 1;
	return 0;
}

static int
opt_string(const char *arg, void *dst)
{
	*(const char **)dst = arg;
	return 0;
}

static int
opt_key(const char *arg, void *dst)
{
	if (arg[0] == '\0')
		return -1;
	return opt_string(arg, dst);
}

/* Appended; parse() makes room for as many as there are arguments. */
static int
opt_list(const char *arg, void *dst)
{
	struct cli_list *l = dst;

	l->v[l->n++] = (char *)(uintptr_t)arg;
	return 0;
}

/* -n: a whole number of rows, into a size_t. */
static int
opt_rows(const char *arg, void *dst)
{
	const char	*errstr;
	long long	 n;

	n = strtonum(arg, 0, LLONG_MAX, &errstr);
	if (errstr != NULL || (unsigned long long)n > SIZE_MAX)
		return -1;
	*(size_t *)dst = (size_t)n;
	return 0;
}

static int
opt_gran(const char *arg, void *dst)
{
	int v;

	if ((v = agg_gran_parse(arg)) < 0)
		return -1;
	*(enum agg_gran *)dst = (enum agg_gran)v;
	return 0;
}

static int
parse_double(const char *s, double lo, double hi, double *out)
{
	char	*end;
	double	 v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int
opt_alpha(const char *arg, void *dst)
{
	return parse_double(arg, 1e-12, 0.5, dst);
}

/* "BASE,NEW": two request counts, each at least 1. */
static int
opt_requests(const char *arg, void *dst)
{
	double	*r = dst;
	char	 buf[64], *comma;

	if (strlcpy(buf, arg, sizeof(buf)) >= sizeof(buf) ||
	    (comma = strchr(buf, ',')) == NULL)
		return -1;
	*comma = '\0';
	return parse_double(buf, 1, 1e18, &r[0]) == -1 ||
	    parse_double(comma + 1, 1, 1e18, &r[1]) == -1 ? -1 : 0;
}

/* "X%" sets the relative threshold; "X" or "Xpp" the one in points. */
static int
opt_min_effect(const char *arg, void *dst)
{
	struct cli_effect	*e = dst;
	char			 buf[32];
	size_t			 len = strlen(arg);

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, arg, len + 1);
	if (buf[len - 1] == '%') {
		buf[len - 1] = '\0';
		return parse_double(buf, 0, 1e6, &e->rel);
	}
	if (len > 2 && strcmp(buf + len - 2, "pp") == 0)
		buf[len - 2] = '\0';
	e->pp_given = 1;
	return parse_double(buf, 0, 100, &e->pp);
}

/* A size with an optional k, M or G suffix (powers of 1024). */
static int
parse_size(const char *s, unsigned long long *out)
{
	const char	*errstr;
	char		 num[32];
	size_t		 len = strlen(s);
	unsigned long long mult = 1;
	long long	 n;

	if (len == 0 || len >= sizeof(num))
		return -1;
	memcpy(num, s, len + 1);
	switch (num[len - 1]) {
	case 'k': case 'K': mult = 1ULL << 10; break;
	case 'm': case 'M': mult = 1ULL << 20; break;
	case 'g': case 'G': mult = 1ULL << 30; break;
	}
	if (mult != 1)
		num[len - 1] = '\0';
	n = strtonum(num, 1, LLONG_MAX / (long long)mult, &errstr);
	if (errstr != NULL)
		return -1;
	*out = (unsigned long long)n * mult;
	return 0;
}

/* A size in bytes, into a uint64_t. */
static int
opt_bytes(const char *arg, void *dst)
{
	unsigned long long n;

	if (parse_size(arg, &n) == -1)
		return -1;
	*(uint64_t *)dst = n;
	return 0;
}

/* A count that fits a size_t, into a size_t... */
static int
opt_count(const char *arg, void *dst)
{
	unsigned long long n;

	if (parse_size(arg, &n) == -1 || n > SIZE_MAX)
		return -1;
	*(size_t *)dst = (size_t)n;
	return 0;
}

/* ...or, so capped, into a uint64_t. */
static int
opt_count64(const char *arg, void *dst)
{
	size_t n;

	if (opt_count(arg, &n) == -1)
		return -1;
	*(uint64_t *)dst = n;
	return 0;
}

/* pprof's -unit: a unit it knows, or "minimum" or "auto". */
static int
opt_unit(const char *arg, void *dst)
{
	if (!units_output_ok(arg))
		return -1;
	return opt_string(arg, dst);
}

/* --seconds: pprof's -seconds, a whole number of seconds. */
static int
opt_seconds(const char *arg, void *dst)
{
	const char	*errstr;
	long long	 n;

	n = strtonum(arg, 1, INT_MAX, &errstr);
	if (errstr != NULL)
		return -1;
	*(int *)dst = (int)n;
	return 0;
}

/* The setters of the choices, each for the type of its field. */

static void
set_int(void *dst, int v)
{
	*(int *)dst = v;
}

static void
set_format(void *dst, int v)
{
	*(enum report_format *)dst = v;
}

static void
set_norm(void *dst, int v)
{
	struct cli_norm *n = dst;

	n->given = v >= 0;
	n->how = v >= 0 ? v : DELTA_NORM_TOTAL;
}

static void
set_sort(void *dst, int v)
{
	*(enum delta_sort *)dst = v;
}

static void
set_fail_on(void *dst, int v)
{
	*(enum delta_fail_on *)dst = v;
}

static void
set_color(void *dst, int v)
{
	*(enum cli_color *)dst = v;
}

/* One of c->choices that cmd takes, set into dst; 0, or -1 if none. */
static int
choose(const struct cli_opt *c, const char *arg, const struct cli_cmd *cmd,
    void *dst)
{
	const struct cli_choice *ch;

	for (ch = c->choices; ch->name != NULL; ch++)
		if (choice_takes(c, ch, cmd) && strcmp(arg, ch->name) == 0) {
			c->set(dst, ch->value);
			return 0;
		}
	return -1;
}

/* Option c's value arg, parsed or chosen into dst: 0, or -1. */
static int
take_value(const struct cli_opt *c, const char *arg,
    const struct cli_cmd *cmd, void *dst)
{
	return c->choices != NULL ? choose(c, arg, cmd, dst) :
	    c->parse(arg, dst);
}

static void
opts_default(struct opts *o, const struct cli_cmd *c)
{
	memset(o, 0, sizeof(*o));
	o->cmd = c;
	o->nrows = c->rows;
	o->load.agg.gran = AGG_FUNCTIONS;
	pd_limits_default(&o->load.limits);
	o->format = FMT_TEXT;
	o->normalize.how = DELTA_NORM_TOTAL;
	o->sort = DELTA_SORT_DELTA;
	o->alpha = 0.05;
	o->min_effect.pp = 1.0;
	o->min_effect.rel = 10.0;
	o->fail_on = DELTA_FAIL_REGRESSION;
	o->color = CLI_COLOR_AUTO;
	o->sep = -1;
}

/* Is arg "--name" or "--name=..." exactly? */
static int
whole_name(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, name, n) == 0 &&
	    (arg[2 + n] == '\0' || arg[2 + n] == '=');
}

/* Was the "--" at argv index i already taken as the separator? */
static int
sep_seen_at(const struct opts *o, int i)
{
	return o->sep != -1 && o->sep_argi == i;
}

/*
 * "bad value 'X' for --name: what it should be", or for pprof's spelling
 * of it, "for -spelled (--name)"; or, for a value of the option that
 * the command does not take, why not.
 */
static int
bad_arg(const struct cli_cmd *cmd, const struct cli_opt *c, const char *arg,
    const char *spelled)
{
	const struct cli_choice	*ch;
	char			 want[160];

	for (ch = c->choices; ch != NULL && ch->name != NULL; ch++)
		if (ch->refused != NULL && strcmp(arg, ch->name) == 0 &&
		    !choice_takes(c, ch, cmd)) {
			cli_warn("%s: --%s %s %s", cmd->name, c->name, arg,
			    ch->refused);
			return -1;
		}
	if (c->want != NULL)
		strlcpy(want, c->want, sizeof(want));
	else
		list_choices(want, sizeof(want), c, cmd, 0);
	if (spelled != NULL)
		cli_warn("%s: bad value '%s' for %s (--%s): %s", cmd->name,
		    arg, spelled, c->name, want);
	else
		cli_warn("%s: bad value '%s' for --%s: %s", cmd->name, arg,
		    c->errname != NULL ? c->errname : c->name, want);
	return -1;
}

/*
 * The getopt_long() tables for command cmd: the long options it takes,
 * each returning its letter or 256 plus its index in cli_opts[], and
 * the letters, after "+:" (stop at each operand; report a missing value
 * as ':').
 */
static void
getopt_tables(const struct cli_cmd *cmd, struct option *lopts,
    char *letters)
{
	size_t	 i, n = 0;
	char	*l = letters;

	*l++ = '+';
	*l++ = ':';
	for (i = 0; i < NOPTS; i++) {
		const struct cli_opt *c = &cli_opts[i];

		if (!takes(c, cmd))
			continue;
		if (c->letter != 0) {
			*l++ = (char)c->letter;
			if (c->arg != NULL)
				*l++ = ':';
		}
		lopts[n].name = c->name;
		lopts[n].has_arg = c->arg != NULL ? required_argument :
		    no_argument;
		lopts[n].flag = NULL;
		lopts[n++].val = c->letter != 0 ? c->letter : 256 + (int)i;
	}
	*l = '\0';
	memset(&lopts[n], 0, sizeof(lopts[n]));
}

/* The entry getopt_long() returned ch for, or NULL (':' or '?'). */
static const struct cli_opt *
opt_of(int ch)
{
	size_t i;

	if (ch >= 256)
		return &cli_opts[ch - 256];
	for (i = 0; i < NOPTS; i++)
		if (cli_opts[i].letter != 0 && cli_opts[i].letter == ch)
			return &cli_opts[i];
	return NULL;
}

/* A missing value or an unknown option: a message and the usage. */
static int
bad_option(int ch, char **argv, const struct cli_cmd *cmd)
{
	if (ch == ':')
		cli_warn("%s: option %s needs a value", cmd->name,
		    argv[optind - 1]);
	else if (optopt != 0 && optopt < 256)
		cli_warn("%s: unknown option -%c", cmd->name, optopt);
	else
		cli_warn("%s: unknown option %s", cmd->name, argv[optind - 1]);
	usage_cmd(stderr, cmd, 0);
	return -1;
}

/*
 * getopt_long() stopped at a word that is not an option: take it as an
 * operand, noting the first "--" as the separator between the base
 * profiles and the new ones.  Returns 0, or -1 at the end of argv.
 */
static int
operand(int argc, char **argv, struct opts *o)
{
	if (optind > 1 && optind <= argc && strcmp(argv[optind - 1], "--") ==
	    0 && o->sep == -1 && !sep_seen_at(o, optind - 1)) {
		o->sep = (int)o->noperands;
		o->sep_argi = optind - 1;
	}
	if (optind >= argc)
		return -1;
	o->operands[o->noperands++] = argv[optind++];
	return 0;
}

static int
draws_no_tree(const struct report_writer *w)
{
	return !w->tree;
}

/*
 * A flame graph draws the call tree, which rows by label do not have.
 * Returns 0, or -1 after a message that names the formats left.
 */
static int
tree_refused(const struct opts *o)
{
	char left[128];

	if (!cli_writer(o)->tree || o->load.agg.label_key == NULL)
		return 0;
	cli_formats(left, sizeof(left), o->cmd, draws_no_tree);
	cli_warn("%s: --by-label has no call tree to draw: use --format %s",
	    o->cmd->name, left);
	return -1;
}

/* pprof's spellings: cli_pprof[]. */

/* The entry of cli_opts[] whose name is the n bytes at name, or NULL. */
static const struct cli_opt *
opt_named(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (strlen(cli_opts[i].name) == n &&
		    strncmp(cli_opts[i].name, name, n) == 0)
			return &cli_opts[i];
	return NULL;
}

const char *
cli_opt_arg(const char *name)
{
	const struct cli_opt *c = opt_named(name, strlen(name));

	return c != NULL ? c->arg : NULL;
}

/*
 * -tagfocus and -tagignore: pprof keeps the last of each, and reads a
 * value with no "KEY=" as matching any label, which --tag cannot say.
 */
static int
pprof_tag(const struct cli_pprof *p, const char *spelled, const char *val,
    struct opts *o)
{
	int		 focus = strcmp(p->opt, "tag") == 0;
	struct cli_list	*l = focus ? &o->tags : &o->tag_ignores;
	size_t		*last = focus ? &o->tag_pp : &o->tag_ignore_pp;

	if (val[0] == '=' || strchr(val, '=') == NULL) {
		cli_warn("%s: %s '%s': profdiff matches one label, named: "
		    "%s KEY=VALUE (--%s)", o->cmd->name, spelled, val, spelled,
		    p->opt);
		return -1;
	}
	if (*last != 0)
		l->v[*last - 1] = (char *)(uintptr_t)val;
	else {
		l->v[l->n++] = (char *)(uintptr_t)val;
		*last = l->n;
	}
	return 0;
}

/* Do what entry p, spelled so, says, with val (NULL: a flag's own). */
static int
pprof_apply(const struct cli_pprof *p, const char *spelled, const char *val,
    struct opts *o)
{
	const struct cli_opt	*c;
	void			*dst;

	switch (p->how) {
	case PP_NO:
		cli_warn("%s: %s: %s", o->cmd->name, spelled, p->note);
		return -1;
	case PP_NONE:
		return 0;
	case PP_TAG:
		/* pprof takes an empty value as none given. */
		return val[0] == '\0' ? 0 : pprof_tag(p, spelled, val, o);
	case PP_DIFF_BASE:
		if (val[0] != '\0')
			o->diff_base.v[o->diff_base.n++] = (char *)(uintptr_t)val;
		return 0;
	}
	c = opt_named(p->opt, strlen(p->opt));
	if (val == NULL)
		val = p->val;
	dst = (char *)o + c->off;
	if (val[0] == '\0' && c->parse == opt_string) {
		*(const char **)dst = NULL;	/* -focus= is no -focus */
		return 0;
	}
	if (take_value(c, val, o->cmd, dst) == -1)
		return bad_arg(o->cmd, c, val, spelled);
	return 0;
}

/*
 * Is the single-dash word w, of more than one letter and none of pprof's,
 * a cluster of short options: letters that take no value, then perhaps
 * one that does with its value, which must be a good one (-n5, -qfjson)?
 * Returns 1 if so, else 0 after one line on what to type instead.
 */
static int
short_cluster(const char *w, const struct cli_cmd *cmd)
{
	const struct cli_opt	*c;
	struct opts		 scratch;
	const char		*p, *eq;
	size_t			 i;

	for (p = w + 1; *p != '\0'; p++) {
		for (c = NULL, i = 0; i < NOPTS && c == NULL; i++)
			if (cli_opts[i].letter == *p &&
			    takes(&cli_opts[i], cmd))
				c = &cli_opts[i];
		if (c == NULL)
			break;
		if (c->arg == NULL)
			continue;
		if (p[1] == '\0' || c->parse == opt_string)
			return 1;
		opts_default(&scratch, cmd);
		if (c->parse != opt_list && take_value(c, p + 1, cmd,
		    (char *)&scratch + c->off) == 0)
			return 1;
		break;
	}
	if (*p == '\0')
		return 1;
	eq = strchr(w, '=');
	if ((c = opt_named(w + 1, eq ? (size_t)(eq - w - 1) : strlen(w + 1)))
	    != NULL && takes(c, cmd))
		cli_warn("%s: unknown option %s; profdiff spells it --%s%s",
		    cmd->name, w, c->name, eq ? eq : "");
	else
		cli_warn("%s: unknown option %s; profdiff's options are "
		    "listed by profdiff help %s", cmd->name, w, cmd->name);
	return 0;
}

/*
 * A pprof word of entry p, spelled so, whose "=value" is at eq (or
 * NULL): with its value, or the next word's, or as a flag.  Returns how
 * many words it took, or -1 after a message.
 */
static int
pprof_take(const struct cli_pprof *p, const char *spelled, const char *eq,
    int argc, char **argv, struct opts *o)
{
	int b;

	if (p->how == PP_NO)
		return pprof_apply(p, spelled, NULL, o);
	if (cli_pprof_valued(p) && eq == NULL) {
		if (optind + 1 >= argc) {
			cli_warn("%s: option %s needs a value", o->cmd->name,
			    spelled);
			return -1;
		}
		return pprof_apply(p, spelled, argv[optind + 1], o) == -1 ?
		    -1 : 2;
	}
	if (cli_pprof_valued(p))
		return pprof_apply(p, spelled, eq + 1, o) == -1 ? -1 : 1;
	if (eq != NULL && (b = cli_go_bool(eq + 1)) != 1) {
		if (b == 0)
			return 1;	/* pprof's default: nothing to do */
		cli_warn("%s: bad value '%s' for %s: true or false",
		    o->cmd->name, eq + 1, spelled);
		return -1;
	}
	return pprof_apply(p, spelled, NULL, o) == -1 ? -1 : 1;
}

/*
 * The word at optind, before getopt_long() sees it: if it is one of
 * pprof's spellings, do what it says; if it is an option of another
 * command that says why this one has it not, say so.  Returns how many
 * words it took (the next one too for "-name VALUE"), 0 to leave the
 * word to getopt_long(), or -1 after a message.
 */
static int
pprof_word(int argc, char **argv, struct opts *o)
{
	const struct cli_pprof	*p;
	const struct cli_opt	*c;
	const char		*w = argv[optind], *name, *eq;
	char			 spelled[64];
	size_t			 n;
	int			 dashes;

	if (w[0] != '-' || w[1] == '\0' || strcmp(w, "--") == 0)
		return 0;
	dashes = w[1] == '-' ? 2 : 1;
	name = w + dashes;
	n = (eq = strchr(name, '=')) != NULL ? (size_t)(eq - name) :
	    strlen(name);
	if (dashes == 2 && (c = opt_named(name, n)) != NULL) {
		if (takes(c, o->cmd))
			return 0;
		if (c->refused != NULL) {
			cli_warn("%s: --%s %s", o->cmd->name, c->name,
			    c->refused);
			return -1;
		}
	}
	if ((p = cli_pprof_find(name, n, o->cmd->options)) == NULL) {
		if (dashes == 2 || w[2] == '\0')
			return 0;
		return short_cluster(w, o->cmd) ? 0 : -1;
	}
	snprintf(spelled, sizeof(spelled), "%.*s", (int)(n + dashes), w);
	return pprof_take(p, spelled, eq, argc, argv, o);
}

/*
 * pprof's -diff_base FILE ...: those are the base side and every operand
 * is on the new side, as though "FILE ... --" came first.
 */
static int
diff_base_operands(struct opts *o)
{
	size_t nb = o->diff_base.n;

	if (nb == 0)
		return 0;
	if (o->sep != -1) {
		cli_warn("%s: -diff_base names the base profiles; list the new "
		    "ones without --", o->cmd->name);
		return -1;
	}
	memmove(o->operands + nb, o->operands, o->noperands *
	    sizeof(o->operands[0]));
	memcpy(o->operands, o->diff_base.v, nb * sizeof(o->operands[0]));
	o->noperands += nb;
	o->sep = (int)nb;
	return 0;
}

void
cli_help(FILE *fp, const struct cli_cmd *c)
{
	int	 mask = 0;
	size_t	 i;

	cli_usage(fp, c);
	if (c != NULL)
		mask = c->options;
	else {
		help_all(fp);
		for (i = 0; i < cli_ncmds; i++)
			mask |= cli_cmds[i].options;
	}
	fputs(cli_help_inputs, fp);
	if (c == NULL || (c->needs & CMD_COMPARES))
		fputs(cli_help_no_change, fp);
	fputc('\n', fp);
	cli_pprof_help(fp, mask);
}

/*
 * glibc: optind 0 resets its internal state, which a call on no
 * arguments does at once, so that pprof_word() may move optind on
 * before the first real call.
 */
static void
getopt_reset(void)
{
	static char *none[] = { "profdiff", NULL };

	optind = 0;
	opterr = 0;
	(void)getopt(1, none, "+");
	optind = 1;
}

/*
 * What the options say once all are read: -diff_base's operands, and
 * the options that cannot go together.  Returns 0, or -1 after a
 * message.
 */
static int
parse_end(struct opts *o)
{
	if (diff_base_operands(o) == -1)
		return -1;
	o->operands[o->noperands] = NULL;
	/* flamegraph.pl and profdiff's own folded input read integers. */
	if (o->unit != NULL && o->format == FMT_FOLDED) {
		cli_warn("%s: --unit: folded stacks keep the profile's integers; "
		    "--format svg labels its frames in the unit", o->cmd->name);
		return -1;
	}
	return tree_refused(o);
}

static int
parse(const struct cli_cmd *cmd, int argc, char **argv, struct opts *o)
{
	struct option		 lopts[NOPTS + 1];
	char			 letters[2 * NOPTS + 3];
	const struct cli_opt	*c;
	int			 ch, longidx, at, rc, inword = 0;

	opts_default(o, cmd);
	getopt_tables(cmd, lopts, letters);
	o->operands = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->tags.v = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->tag_ignores.v = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->base_tags.v = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->new_tags.v = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->bases.v = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->diff_base.v = xreallocarray(NULL, argc + 1, sizeof(char *));
	getopt_reset();
	/*
	 * "+": stop at each operand, collect it and go on, so options may
	 * follow operands and a "--" between operands stays visible: it
	 * separates the base profiles from the new ones.
	 */
	for (;;) {
		/* At the end glibc would rewind optind to skipped operands. */
		if (optind >= argc)
			break;
		/* pprof's spellings, at the start of a word only. */
		if (!inword && (rc = pprof_word(argc, argv, o)) != 0) {
			if (rc == -1)
				return -1;
			optind += rc;
			continue;
		}
		longidx = -1;
		at = optind;		/* a long option's own word */
		ch = getopt_long(argc, argv, letters, lopts, &longidx);
		inword = ch != -1 && optind == at;
		/*
		 * getopt_long takes any unique prefix of a long option; a
		 * script that relies on one breaks when an option is added,
		 * so only whole names are accepted.
		 */
		if (longidx >= 0 && at < argc &&
		    !whole_name(argv[at], lopts[longidx].name)) {
			cli_warn("%s: unknown option %s (give the whole name: "
			    "--%s)", cmd->name, argv[at], lopts[longidx].name);
			usage_cmd(stderr, cmd, 0);
			return -1;
		}
		if (ch == -1) {
			if (operand(argc, argv, o) == -1)
				break;
			continue;
		}
		if ((c = opt_of(ch)) == NULL)
			return bad_option(ch, argv, cmd);
		if (c->parse == NULL && c->choices == NULL) {
			cli_help(stdout, cmd);
			return 1;
		}
		if (take_value(c, optarg, cmd, (char *)o + c->off) == -1)
			return bad_arg(cmd, c, optarg, NULL);
	}
	return parse_end(o);
}

/* Input i of all that are read: the operands, then the --base files. */
static const char *
input(const struct opts *o, size_t i)
{
	if (i < o->noperands)
		return o->operands[i];
	i -= o->noperands;
	return i < o->bases.n ? o->bases.v[i] : NULL;
}

/*
 * What input path is, as fstat() or stat() tell: "-" is standard
 * input's descriptor.  Returns 0, or -1 (a URL, a file not there,
 * which loading names).
 */
static int
input_stat(const char *path, struct stat *st)
{
	return strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, st) :
	    stat(path, st);
}

static const char *
input_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "- (standard input)" : path;
}

/*
 * -o names one of the inputs (by any name: the same path, a hard link
 * or a symlink to it, /dev/stdin, or the file standard input was
 * redirected from for "-"): the report would replace the profile it
 * was made from, so it is refused before anything is read or written.
 * Only a file that exists can be an input; a terminal or /dev/null is
 * written, never replaced.  Returns 0, or -1 after a message.
 */
static int
output_is_input(const struct opts *o)
{
	struct stat	 out, in;
	const char	*path;
	size_t		 i;

	if (o->output == NULL || strcmp(o->output, "-") == 0 ||
	    stat(o->output, &out) == -1 || S_ISCHR(out.st_mode))
		return 0;
	for (i = 0; (path = input(o, i)) != NULL; i++) {
		if (input_stat(path, &in) == -1)
			continue;
		if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
			cli_warn("%s: -o %s is the input %s: refusing to "
			    "overwrite it", o->cmd->name, o->output,
			    input_name(path));
			return -1;
		}
	}
	return 0;
}

/*
 * Standard input twice: "-" twice, or "-" and another name of the same
 * file (/dev/stdin, /dev/fd/0, the file it was redirected from), told
 * by identity, not by spelling; or one pipe, FIFO or device named
 * twice.  A stream can be read only once, and the second read would
 * find it empty (where /dev/stdin is descriptor 0 itself, as on the
 * BSDs, a file too).  A regular file named twice is read twice.
 */
static int
stdin_twice(const struct opts *o)
{
	struct stat	 s0, a, b;
	const char	*path, *prev;
	size_t		 i, j, n = 0;
	int		 have0;

	for (i = 0; (path = input(o, i)) != NULL; i++)
		n += strcmp(path, "-") == 0;
	if (n >= 2) {
		cli_warn("%s: - (standard input) is given %zu times, but "
		    "standard input can be read only once", o->cmd->name, n);
		return -1;
	}
	have0 = n == 1 && fstat(STDIN_FILENO, &s0) == 0;
	for (i = 0; (path = input(o, i)) != NULL; i++) {
		if (strcmp(path, "-") == 0 || stat(path, &a) == -1)
			continue;
		if (have0 && a.st_dev == s0.st_dev && a.st_ino == s0.st_ino) {
			cli_warn("%s: - and %s are both standard input, which "
			    "can be read only once", o->cmd->name, path);
			return -1;
		}
		if (S_ISREG(a.st_mode))
			continue;
		for (j = 0; j < i; j++) {
			prev = input(o, j);
			if (strcmp(prev, "-") == 0 || stat(prev, &b) == -1 ||
			    a.st_dev != b.st_dev || a.st_ino != b.st_ino)
				continue;
			cli_warn("%s: %s and %s are the same %s, which can be "
			    "read only once", o->cmd->name, prev, path,
			    S_ISFIFO(a.st_mode) ? "pipe" : S_ISSOCK(a.st_mode) ?
			    "socket" : "device");
			return -1;
		}
	}
	return 0;
}

int
cli_parse(const struct cli_cmd *c, int argc, char **argv, struct opts *o)
{
	int rc;

	if ((rc = parse(c, argc, argv, o)) == 0 &&
	    (rc = cli_redact_inputs(o)) == 0 &&
	    (rc = stdin_twice(o)) == 0 &&
	    (rc = output_is_input(o)) == 0)
		return 0;
	cli_release(o);
	return rc;
}

int
cli_pair_operands(struct opts *o)
{
	const char	*cmd = o->cmd->name;
	size_t		 nb;

	nb = o->sep >= 0 ? (size_t)o->sep : o->noperands == 2 ? 1 : 0;
	/* One line that says what is missing; the help is a -h away. */
	if (o->sep >= 0 && (nb == 0 || nb >= o->noperands)) {
		cli_warn("%s: no %s profile %s --: need at least one base and "
		    "one new profile", cmd, nb == 0 ? "base" : "new",
		    nb == 0 ? "before" : "after");
		return -1;
	}
	if (nb == 0) {
		if (o->noperands < 2)
			cli_warn("%s: %s: need a base and a new profile (see "
			    "profdiff help %s)", cmd, o->noperands == 0 ?
			    "no profile given" : "only one profile given", cmd);
		else
			cli_warn("%s: with more than two profiles, put -- "
			    "between the base profiles and the new ones", cmd);
		return -1;
	}
	o->nbase = nb;
	return 0;
}

int
cli_bases(struct opts *o, int pair)
{
	const char	*cmd = o->cmd->name;
	size_t		 nb = o->bases.n;

	if (nb == 0)
		return 0;
	/* Once per profile, in the operands' order. */
	if (nb == o->noperands && (nb > 2 || !pair)) {
		o->load.minus = o->bases.v;
		if (pair)
			o->load.minus_new = o->bases.v + o->nbase;
		return 0;
	}
	if (nb > (pair ? 2u : 1u) || (!pair && o->noperands != 1)) {
		cli_warn("%s: --base is given %zu times for %zu profile%s: %s",
		    cmd, nb, o->noperands, o->noperands == 1 ? "" : "s", pair ?
		    "once (the snapshot before "
		    "base), once per side, or once per profile" :
		    "once per profile");
		return -1;
	}
	if (pair && (o->nbase != 1 || o->noperands != 2)) {
		cli_warn("%s: --base given %s needs one profile a side, each a "
		    "later snapshot than the one it subtracts", cmd, nb == 1 ?
		    "once" : "twice");
		return -1;
	}
	o->load.minus = o->bases.v;
	/* Once: the new side's is the base's profile, or its snapshot. */
	if (pair)
		o->load.minus_new = nb == 2 ? o->bases.v + 1 :
		    o->one_profile ? o->bases.v : o->operands;
	return 0;
}

void
cli_release(struct opts *o)
{
	cli_output_discard(o);
	free(o->operands);
	free(o->bases.v);
	o->bases.v = NULL;
	free(o->tags.v);
	free(o->tag_ignores.v);
	free(o->base_tags.v);
	free(o->new_tags.v);
	free(o->diff_base.v);
	cli_sym_dirs_free(o);
	filter_free(o->filter);
	selection_free(o->select[0]);
	selection_free(o->select[1]);
	views_spec_free(o->views);
	o->operands = o->tags.v = o->tag_ignores.v = o->diff_base.v = NULL;
	o->base_tags.v = o->new_tags.v = NULL;
	o->select[0] = o->select[1] = NULL;
	o->load.select = o->load.select_new = o->load.select_other = NULL;
	o->filter = NULL;
	o->load.filter = NULL;
	o->views = NULL;
	o->load.views = NULL;
}

/*
 * The options of the subcommands, in one table: each entry says which
 * subcommands take it, how its value is parsed, where in struct opts
 * it goes, and what the help says of it, so that -i means the same
 * everywhere and the parser, the usage text and the error messages read
 * the same entry.  Plus the filters compiled once, and the output file
 * that is renamed into place only when complete.  This is CLI code: it
 * prints to stderr and may exit.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "support/diag.h"
#include "core/filter.h"
#include "support/units.h"
#include "core/views.h"
#include "support/xmalloc.h"

/* One value of an option that names its values. */
struct cli_choice {
	const char	*name;
	int		 value;
	int		 mask;		/* 0: every subcommand */
};

/*
 * Parse arg into dst, the entry's field of struct opts, of the type the
 * function says.  Returns 0, or -1 if arg is not a valid value.
 */
typedef int	cli_parse_fn(const char *arg, void *dst);

/*
 * An option: its value is parsed by parse, or names one of choices,
 * which is stored as an int; the entry with neither is -h.  An option
 * with no arg takes no value (a flag).
 */
struct cli_opt {
	const char	*name;		/* --name, spelled out */
	int		 letter;	/* -l, or 0 */
	int		 mask;		/* 0: every subcommand */
	cli_parse_fn	*parse;
	const struct cli_choice *choices;
	size_t		 off;		/* the value's, in struct opts */
	const char	*want;		/* if a bad value's message does
					   not list the choices */
	const char	*errname;	/* for messages, if not name */
	const char	*arg;		/* the value, in the help */
	const char	*help;
};

#define OFF(field)	offsetof(struct opts, field)

static cli_parse_fn opt_flag, opt_string, opt_key, opt_list, opt_rows,
    opt_gran, opt_alpha, opt_min_effect, opt_bytes, opt_count, opt_count64,
    opt_requests, opt_unit, opt_seconds;

static const struct cli_choice formats[] = {
	{ "text", FMT_TEXT, 0 },
	{ "json", FMT_JSON, 0 },
	{ "csv", FMT_CSV, 0 },
	{ "markdown", FMT_MARKDOWN, 0 },
	{ "folded", FMT_FOLDED, 0 },
	{ "svg", FMT_SVG, 0 },
	{ NULL, 0, 0 },
};
static const struct cli_choice norms[] = {
	{ "auto", CLI_NORM_AUTO, 0 },
	{ "total", DELTA_NORM_TOTAL, 0 },
	{ "duration", DELTA_NORM_DURATION, 0 },
	{ "none", DELTA_NORM_NONE, 0 },
	{ NULL, 0, 0 },
};
static const struct cli_choice sorts[] = {
	{ "delta", DELTA_SORT_DELTA, 0 },
	{ "flat", DELTA_SORT_FLAT, 0 },
	/*
	 * pprof's -cum on a -diff_base profile orders by the magnitude of
	 * the cumulative difference, which is what delta is: as flat is
	 * the change of flat, cum is the change of cum.
	 */
	{ "cum", DELTA_SORT_DELTA, 0 },
	{ "p", DELTA_SORT_P, 0 },
	{ "name", DELTA_SORT_NAME, 0 },
	{ "new", DELTA_SORT_NEW, 0 },
	{ NULL, 0, 0 },
};
static const struct cli_choice fails[] = {
	{ "regression", DELTA_FAIL_REGRESSION, 0 },
	{ "any-change", DELTA_FAIL_ANY_CHANGE, 0 },
	{ NULL, 0, 0 },
};
static const struct cli_choice sides[] = {
	{ "new", 0, 0 },
	{ "base", 1, 0 },
	{ NULL, 0, 0 },
};
static const struct cli_choice colors[] = {
	{ "auto", -1, 0 },
	{ "always", 1, 0 },
	{ "never", 0, 0 },
	{ NULL, 0, 0 },
};

#define W_COUNT	"a positive whole number, with k, M or G"

static const struct cli_opt cli_opts[] = {
	{ .name = "sample-index", .letter = 'i', .parse = opt_string,
	  .off = OFF(load.sample_index), .arg = "NAME|N",
	  .help = "sample type to use (default: default_sample_type, else "
	  "the last)" },
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
	{ .name = "by-label", .parse = opt_key, .off = OFF(load.agg.label_key),
	  .want = "a label key", .arg = "KEY",
	  .help = "rows are the values of label KEY instead of functions" },
	{ .name = "format", .letter = 'f', .choices = formats,
	  .off = OFF(format), .arg = "F",
	  .help = "text, json, csv, markdown, folded or svg" },
	{ .name = "output", .letter = 'o', .parse = opt_string,
	  .off = OFF(output), .arg = "FILE",
	  .help = "write to FILE (atomically) instead of standard output" },
	{ .name = "normalize", .mask = OPT_DIFF | OPT_SERIES,
	  .choices = norms,
	  .off = OFF(normalize), .arg = "HOW",
	  .help = "auto (default: by sample type), total (shares), duration "
	  "(rates per second) or none (absolute values)" },
	{ .name = "requests", .mask = OPT_DIFF, .parse = opt_requests,
	  .off = OFF(requests), .arg = "BASE,NEW",
	  .help = "compare values per request: each side's request count" },
	{ .name = "base", .parse = opt_list, .off = OFF(bases),
	  .arg = "FILE", .help = "subtract FILE, an earlier cumulative "
	  "snapshot (pprof's -base); once per profile, in order; diff "
	  "with one a side: once (the base's) or twice (one per side); "
	  "series: once, each point less the one before" },
	{ .name = "sort", .mask = OPT_DIFF, .choices = sorts, .off = OFF(sort),
	  .arg = "KEY",
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
	{ .name = "flame-width", .mask = OPT_DIFF, .choices = sides,
	  .off = OFF(flame_base), .arg = "SIDE",
	  .help = "svg: frame widths from the new (default) or base profile" },
	{ .name = "color", .mask = OPT_DIFF, .choices = colors,
	  .off = OFF(color), .arg = "WHEN",
	  .help = "auto (default), always or never; NO_COLOR is honoured" },
	{ .name = "by-time", .mask = OPT_SERIES, .parse = opt_flag,
	  .off = OFF(by_time),
	  .help = "order the points by the profiles' time_nanos" },
	{ .name = "fail-on", .mask = OPT_CHECK, .choices = fails,
	  .off = OFF(fail_on), .arg = "WHAT",
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

/*
 * Every message goes through here, and most name a file or quote an
 * argument: a control byte in one (an ESC, a newline in a file name)
 * would reach the terminal raw, so each is written as an escape.  The
 * messages themselves contain none.
 */
void
cli_warn(const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[1024], *s = buf;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {	/* a long path: all of it */
		s = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	fputs("profdiff: ", stderr);
	report_put_text(stderr, n >= 0 ? s : fmt);
	fputc('\n', stderr);
	if (s != buf)
		free(s);
}

/*
 * --save: where a URL's bytes went.  The two sides fetch on two
 * threads: stderr is held for the whole line.
 */
static void
note_saved(const char *url, const char *path, size_t len)
{
	flockfile(stderr);
	cli_warn("saved %s (%zu bytes) as %s", url, len, path);
	funlockfile(stderr);
}

/* Does the subcommand of option groups mask take this option... */
static int
takes(const struct cli_opt *c, int mask)
{
	return c->mask == 0 || (c->mask & mask) != 0;
}

/* ...or this one of its values? */
static int
choice_takes(const struct cli_choice *ch, int mask)
{
	return ch->mask == 0 || (ch->mask & mask) != 0;
}

static void
usage_cmd(FILE *fp, const struct cli_cmd *c, int full)
{
	size_t	 i;
	char	 left[64];

	fprintf(fp, "usage: profdiff %s %s\n", c->name, c->synopsis);
	if (!full)
		return;
	fprintf(fp, "  %s\n", c->description);
	for (i = 0; i < NOPTS; i++) {
		const struct cli_opt *o = &cli_opts[i];

		if (!takes(o, c->options))
			continue;
		if (o->letter != 0)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
			    o->letter, o->name, o->arg ? " " : "",
			    o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
			    o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(fp, "    %-30s %s\n", left, o->help);
	}
}

void
cli_usage(FILE *fp, const char *cmd)
{
	const struct cli_cmd	*c;
	size_t			 i;

	if (cmd != NULL && (c = cli_cmd_find(cmd)) != NULL) {
		usage_cmd(fp, c, 1);
		return;
	}
	for (i = 0; i < cli_ncmds; i++)
		usage_cmd(fp, &cli_cmds[i], 0);
	fprintf(fp, "usage: profdiff [diff options] base new\n"
	    "usage: profdiff --version\n"
	    "usage: profdiff help [command]\n");
}

/* The entry for cmd's usage; a bare "profdiff a b" is diff. */
static const struct cli_cmd *
find_cmd(const char *cmd)
{
	const struct cli_cmd *c;

	if ((c = cli_cmd_find(cmd)) == NULL)
		c = cli_cmd_find("diff");
	return c;
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

static int
opt_rows(const char *arg, void *dst)
{
	const char	*errstr;
	long long	 n;

	n = strtonum(arg, 0, LLONG_MAX, &errstr);
	if (errstr != NULL)
		return -1;
	*(long long *)dst = n;
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

/* One of c->choices that the subcommand takes, stored as an int. */
static int
choose(const struct cli_opt *c, const char *arg, int mask, int *dst)
{
	const struct cli_choice *ch;

	for (ch = c->choices; ch->name != NULL; ch++)
		if (choice_takes(ch, mask) && strcmp(arg, ch->name) == 0) {
			*dst = ch->value;
			return 0;
		}
	return -1;
}

static void
opts_default(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->nrows = -1;
	o->load.agg.gran = AGG_FUNCTIONS;
	pd_limits_default(&o->load.limits);
	o->load.limits.fetch = &o->fetch;
	o->format = FMT_TEXT;
	o->normalize = CLI_NORM_AUTO;
	o->sort = DELTA_SORT_DELTA;
	o->alpha = 0.05;
	o->min_effect.pp = 1.0;
	o->min_effect.rel = 10.0;
	o->fail_on = DELTA_FAIL_REGRESSION;
	o->color = -1;
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
 * "a, b or c": the names of the choices that mask takes, leaving out
 * those that skip, if not NULL, says to.
 */
static void
list_choices(char *buf, size_t len, const struct cli_choice *choices,
    int mask, int (*skip)(const struct cli_choice *))
{
	const struct cli_choice	*ch;
	size_t			 n = 0, i = 0;

	buf[0] = '\0';
	for (ch = choices; ch->name != NULL; ch++)
		n += choice_takes(ch, mask) && (skip == NULL || !skip(ch));
	for (ch = choices; ch->name != NULL; ch++) {
		if (!choice_takes(ch, mask) || (skip != NULL && skip(ch)))
			continue;
		if (i++ > 0)
			strlcat(buf, i < n ? ", " : " or ", len);
		strlcat(buf, ch->name, len);
	}
}

/*
 * "bad value 'X' for --name: what it should be", or for pprof's spelling
 * of it, "for -spelled (--name)".
 */
static int
bad_arg(const char *cmd, const struct cli_opt *c, const char *arg, int mask,
    const char *spelled)
{
	char want[160];

	if (c->want != NULL)
		strlcpy(want, c->want, sizeof(want));
	else
		list_choices(want, sizeof(want), c->choices, mask, NULL);
	if (spelled != NULL)
		cli_warn("%s: bad value '%s' for %s (--%s): %s", cmd, arg,
		    spelled, c->name, want);
	else
		cli_warn("%s: bad value '%s' for --%s: %s", cmd, arg,
		    c->errname != NULL ? c->errname : c->name, want);
	return -1;
}

/*
 * The getopt_long() tables for a subcommand's mask: the long options it
 * takes, each returning its letter or 256 plus its index in cli_opts[],
 * and the letters, after "+:" (stop at each operand; report a missing
 * value as ':').
 */
static void
getopt_tables(int mask, struct option *lopts, char *letters)
{
	size_t	 i, n = 0;
	char	*l = letters;

	*l++ = '+';
	*l++ = ':';
	for (i = 0; i < NOPTS; i++) {
		const struct cli_opt *c = &cli_opts[i];

		if (!takes(c, mask))
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
bad_option(int ch, char **argv, const char *cmd)
{
	if (ch == ':')
		cli_warn("%s: option %s needs a value", cmd, argv[optind - 1]);
	else if (optopt != 0 && optopt < 256)
		cli_warn("%s: unknown option -%c", cmd, optopt);
	else
		cli_warn("%s: unknown option %s", cmd, argv[optind - 1]);
	usage_cmd(stderr, find_cmd(cmd), 0);
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
draws_tree(const struct cli_choice *ch)
{
	return ch->value == FMT_SVG || ch->value == FMT_FOLDED;
}

/*
 * The flame graph formats draw the call tree, which the loading must
 * then build; rows by label have none.  Returns 0, or -1 after a
 * message that names the formats left.
 */
static int
need_tree(struct opts *o, int mask, const char *cmd)
{
	char left[128];

	if (o->format != FMT_SVG && o->format != FMT_FOLDED)
		return 0;
	if (o->load.agg.label_key == NULL) {
		o->load.agg.tree = 1;
		return 0;
	}
	list_choices(left, sizeof(left), formats, mask, draws_tree);
	cli_warn("%s: --by-label has no call tree to draw: use --format %s",
	    cmd, left);
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
    const char *cmd, struct opts *o)
{
	int		 focus = strcmp(p->opt, "tag") == 0;
	struct cli_list	*l = focus ? &o->tags : &o->tag_ignores;
	size_t		*last = focus ? &o->tag_pp : &o->tag_ignore_pp;

	if (val[0] == '=' || strchr(val, '=') == NULL) {
		cli_warn("%s: %s '%s': profdiff matches one label, named: "
		    "%s KEY=VALUE (--%s)", cmd, spelled, val, spelled, p->opt);
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
    int mask, const char *cmd, struct opts *o)
{
	const struct cli_opt	*c;
	void			*dst;
	int			 rc;

	switch (p->how) {
	case PP_NO:
		cli_warn("%s: %s: %s", cmd, spelled, p->note);
		return -1;
	case PP_NONE:
		return 0;
	case PP_TAG:
		/* pprof takes an empty value as none given. */
		return val[0] == '\0' ? 0 : pprof_tag(p, spelled, val, cmd, o);
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
	rc = c->choices != NULL ? choose(c, val, mask, dst) :
	    c->parse(val, dst);
	return rc == -1 ? bad_arg(cmd, c, val, mask, spelled) : 0;
}

/*
 * Is the single-dash word w, of more than one letter and none of pprof's,
 * a cluster of short options: letters that take no value, then perhaps
 * one that does with its value, which must be a good one (-n5, -qfjson)?
 * Returns 1 if so, else 0 after one line on what to type instead.
 */
static int
short_cluster(const char *w, int mask, const char *cmd)
{
	const struct cli_opt	*c;
	struct opts		 scratch;
	const char		*p, *eq;
	void			*dst;
	size_t			 i;

	for (p = w + 1; *p != '\0'; p++) {
		for (c = NULL, i = 0; i < NOPTS && c == NULL; i++)
			if (cli_opts[i].letter == *p &&
			    takes(&cli_opts[i], mask))
				c = &cli_opts[i];
		if (c == NULL)
			break;
		if (c->arg == NULL)
			continue;
		if (p[1] == '\0' || c->parse == opt_string)
			return 1;
		opts_default(&scratch);
		dst = (char *)&scratch + c->off;
		if (c->choices != NULL ? choose(c, p + 1, mask, dst) == 0 :
		    c->parse != opt_list && c->parse(p + 1, dst) == 0)
			return 1;
		break;
	}
	if (*p == '\0')
		return 1;
	eq = strchr(w, '=');
	if ((c = opt_named(w + 1, eq ? (size_t)(eq - w - 1) : strlen(w + 1)))
	    != NULL && takes(c, mask))
		cli_warn("%s: unknown option %s; profdiff spells it --%s%s", cmd,
		    w, c->name, eq ? eq : "");
	else
		cli_warn("%s: unknown option %s; profdiff's options are "
		    "listed by profdiff help %s", cmd, w, find_cmd(cmd)->name);
	return 0;
}

/*
 * The word at optind, before getopt_long() sees it: if it is one of
 * pprof's spellings, do what it says.  Returns how many words it took
 * (the next one too for "-name VALUE"), 0 to leave the word to
 * getopt_long(), or -1 after a message.
 */
static int
pprof_word(int argc, char **argv, int mask, const char *cmd, struct opts *o)
{
	const struct cli_pprof	*p;
	const char		*w = argv[optind], *name, *eq;
	char			 spelled[64];
	size_t			 n;
	int			 dashes, b;

	if (w[0] != '-' || w[1] == '\0' || strcmp(w, "--") == 0)
		return 0;
	dashes = w[1] == '-' ? 2 : 1;
	name = w + dashes;
	n = (eq = strchr(name, '=')) != NULL ? (size_t)(eq - name) :
	    strlen(name);
	if (dashes == 2 && opt_named(name, n) != NULL &&
	    takes(opt_named(name, n), mask))
		return 0;
	if ((p = cli_pprof_find(name, n, mask)) == NULL) {
		if (dashes == 2 || w[2] == '\0')
			return 0;
		return short_cluster(w, mask, cmd) ? 0 : -1;
	}
	snprintf(spelled, sizeof(spelled), "%.*s", (int)(n + dashes), w);
	if (p->how == PP_NO)
		return pprof_apply(p, spelled, NULL, mask, cmd, o);
	if (cli_pprof_valued(p) && eq == NULL) {
		if (optind + 1 >= argc) {
			cli_warn("%s: option %s needs a value", cmd, spelled);
			return -1;
		}
		return pprof_apply(p, spelled, argv[optind + 1], mask, cmd,
		    o) == -1 ? -1 : 2;
	}
	if (cli_pprof_valued(p))
		return pprof_apply(p, spelled, eq + 1, mask, cmd, o) == -1 ?
		    -1 : 1;
	if (eq != NULL && (b = cli_go_bool(eq + 1)) != 1) {
		if (b == 0)
			return 1;	/* pprof's default: nothing to do */
		cli_warn("%s: bad value '%s' for %s: true or false", cmd,
		    eq + 1, spelled);
		return -1;
	}
	return pprof_apply(p, spelled, NULL, mask, cmd, o) == -1 ? -1 : 1;
}

/*
 * pprof's -diff_base FILE ...: those are the base side and every operand
 * is on the new side, as though "FILE ... --" came first.
 */
static int
diff_base_operands(struct opts *o, const char *cmd)
{
	size_t nb = o->diff_base.n;

	if (nb == 0)
		return 0;
	if (o->sep != -1) {
		cli_warn("%s: -diff_base names the base profiles; list the new "
		    "ones without --", cmd);
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
cli_help(FILE *fp, const char *cmd)
{
	const struct cli_cmd	*c;
	int			 mask = 0;
	size_t			 i;

	cli_usage(fp, cmd);
	if (cmd != NULL && (c = cli_cmd_find(cmd)) != NULL)
		mask = c->options;
	else
		for (i = 0; i < cli_ncmds; i++)
			mask |= cli_cmds[i].options;
	fputc('\n', fp);
	cli_pprof_help(fp, mask);
}

static int
parse(int argc, char **argv, int mask, const char *cmd, struct opts *o)
{
	static char		*none[] = { "profdiff", NULL };
	struct option		 lopts[NOPTS + 1];
	char			 letters[2 * NOPTS + 3];
	const struct cli_opt	*c;
	void			*dst;
	int			 ch, longidx, at, rc, inword = 0;

	opts_default(o);
	getopt_tables(mask, lopts, letters);
	o->operands = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->tags.v = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->tag_ignores.v = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->bases.v = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->diff_base.v = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->sep = -1;
	/*
	 * glibc: optind 0 resets its internal state, which a call on no
	 * arguments does at once, so that pprof_word() may move optind on
	 * before the first real call.
	 */
	optind = 0;
	opterr = 0;
	(void)getopt(1, none, "+");
	optind = 1;
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
		if (!inword && (rc = pprof_word(argc, argv, mask, cmd, o)) != 0) {
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
			    "--%s)", cmd, argv[at], lopts[longidx].name);
			usage_cmd(stderr, find_cmd(cmd), 0);
			return -1;
		}
		if (ch == -1) {
			if (operand(argc, argv, o) == -1)
				break;
			continue;
		}
		if ((c = opt_of(ch)) == NULL)
			return bad_option(ch, argv, cmd);
		dst = (char *)o + c->off;
		if (c->choices != NULL)
			rc = choose(c, optarg, mask, dst);
		else if (c->parse != NULL)
			rc = c->parse(optarg, dst);
		else {
			cli_help(stdout, find_cmd(cmd)->name);
			return 1;
		}
		if (rc == -1)
			return bad_arg(cmd, c, optarg, mask, NULL);
	}
	if (diff_base_operands(o, cmd) == -1)
		return -1;
	/* flamegraph.pl and profdiff's own folded input read integers. */
	if (o->unit != NULL && o->format == FMT_FOLDED) {
		cli_warn("%s: --unit: folded stacks keep the profile's integers; "
		    "--format svg labels its frames in the unit", cmd);
		return -1;
	}
	o->operands[o->noperands] = NULL;
	if (!o->quiet)
		o->fetch.saved = note_saved;
	if (o->color == -1 && getenv("NO_COLOR") != NULL &&
	    getenv("NO_COLOR")[0] != '\0')
		o->color = 0;
	return need_tree(o, mask, cmd);
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
 * -o names one of the inputs (the same path, a hard link or a symlink
 * to it): the report would replace the profile it was made from, so
 * it is refused before anything is read.  Only a file that exists can
 * be an input; stdin ("-") is none.  Returns 0, or -1 after a message.
 */
static int
output_is_input(const struct opts *o, const char *cmd)
{
	struct stat	 out, in;
	const char	*path;
	size_t		 i;

	if (o->output == NULL || strcmp(o->output, "-") == 0 ||
	    stat(o->output, &out) == -1)
		return 0;
	for (i = 0; (path = input(o, i)) != NULL; i++) {
		if (strcmp(path, "-") == 0 || stat(path, &in) == -1)
			continue;
		if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
			cli_warn("%s: -o %s is the input %s: refusing to "
			    "overwrite it", cmd, o->output, path);
			return -1;
		}
	}
	return 0;
}

/*
 * "-" twice: standard input can be read only once, and the second read
 * would find it empty (or, from a file, the same profile again).
 */
static int
stdin_twice(const struct opts *o, const char *cmd)
{
	const char *path;
	size_t i, n = 0;

	for (i = 0; (path = input(o, i)) != NULL; i++)
		n += strcmp(path, "-") == 0;
	if (n < 2)
		return 0;
	cli_warn("%s: - (standard input) is given %zu times, but standard "
	    "input can be read only once", cmd, n);
	return -1;
}

int
cli_parse(int argc, char **argv, int mask, const char *cmd, struct opts *o)
{
	int rc;

	if ((rc = parse(argc, argv, mask, cmd, o)) == 0 &&
	    (rc = stdin_twice(o, cmd)) == 0 &&
	    (rc = output_is_input(o, cmd)) == 0)
		return 0;
	cli_release(o);
	return rc;
}

int
cli_pair_operands(struct opts *o, const char *cmd)
{
	size_t nb;

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
cli_bases(struct opts *o, const char *cmd, int pair)
{
	size_t	 nb = o->bases.n;

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
	if (pair)
		o->load.minus_new = nb == 2 ? o->bases.v + 1 : o->operands;
	return 0;
}

void
cli_release(struct opts *o)
{
	free(o->operands);
	free(o->bases.v);
	o->bases.v = NULL;
	free(o->tags.v);
	free(o->tag_ignores.v);
	free(o->diff_base.v);
	filter_free(o->filter);
	views_spec_free(o->views);
	o->operands = o->tags.v = o->tag_ignores.v = o->diff_base.v = NULL;
	o->filter = NULL;
	o->load.filter = NULL;
	o->views = NULL;
	o->load.views = NULL;
}

/*
 * --list and --peek, compiled once into o->views for the loading and
 * the views: reports of text, Markdown or JSON, of call stacks.
 * Returns 0, or -1 with the diag filled or after a message.
 */
static int
cli_views(struct opts *o, const char *cmd, struct diag *d)
{
	const char *what = o->list != NULL ? "--list" : "--peek";

	if (o->list == NULL && o->peek == NULL) {
		if (o->source_path != NULL)
			cli_warn("%s: --source-path is for --list", cmd);
		return o->source_path != NULL ? -1 : 0;
	}
	if (o->format != FMT_TEXT && o->format != FMT_MARKDOWN &&
	    o->format != FMT_JSON) {
		cli_warn("%s: %s is written in text, markdown or json only",
		    cmd, what);
		return -1;
	}
	if (o->load.agg.label_key != NULL) {
		cli_warn("%s: %s needs call stacks, and --by-label rows have "
		    "none", cmd, what);
		return -1;
	}
	if (views_spec_new(o->list, o->peek, &o->views, d) == -1)
		return -1;
	o->load.views = o->views;
	return 0;
}

/*
 * The filter options, for every subcommand, compiled once into
 * o->filter; load.c applies it to each profile as it is loaded.
 */
int
cli_filters(struct opts *o, const char *cmd)
{
	struct filter_spec	 sp;
	struct diag		 d;

	memset(&sp, 0, sizeof(sp));
	sp.focus = o->focus;
	sp.ignore = o->ignore;
	sp.hide = o->hide;
	sp.show = o->show;
	sp.tags = o->tags.v;
	sp.ntags = o->tags.n;
	sp.tag_ignores = o->tag_ignores.v;
	sp.ntag_ignores = o->tag_ignores.n;
	sp.relative = o->relative;
	diag_init(&d, NULL);
	if (filter_new(&sp, &o->filter, &d) == -1 ||
	    cli_views(o, cmd, &d) == -1) {
		if (d.msg[0] != '\0')
			cli_warn("%s: %s", cmd, d.msg);
		return -1;
	}
	o->load.filter = o->filter;
	return 0;
}

int
cli_check_unit(const char *unit, const char *cmd, const struct facts *f)
{
	const char *want, *have;

	if (unit == NULL || strcmp(unit, "minimum") == 0 ||
	    strcmp(unit, "auto") == 0)
		return 0;
	want = units_kind(unit);
	if ((have = units_kind(f->unit)) != NULL && strcmp(have, want) == 0)
		return 0;
	if (f->unit[0] == '\0')
		cli_warn("%s: --unit %s is a %s unit, but %s values have no "
		    "unit", cmd, unit, want, f->sample_type);
	else
		cli_warn("%s: --unit %s is a %s unit, but %s values are in %s",
		    cmd, unit, want, f->sample_type, f->unit);
	return -1;
}

static void
text_add(char **s, const char *opt, const char *arg)
{
	char *t;

	xasprintf(&t, "%s%s%s%s%s", *s ? *s : "", *s ? " " : "", opt,
	    arg ? " " : "", arg ? arg : "");
	free(*s);
	*s = t;
}

/* The active filters as the report header lists them, or NULL. */
char *
cli_filters_text(const struct opts *o)
{
	char	*s = NULL;
	size_t	 i;

	if (o->focus != NULL)
		text_add(&s, "--focus", o->focus);
	if (o->ignore != NULL)
		text_add(&s, "--ignore", o->ignore);
	if (o->hide != NULL)
		text_add(&s, "--hide", o->hide);
	if (o->show != NULL)
		text_add(&s, "--show", o->show);
	for (i = 0; i < o->tags.n; i++)
		text_add(&s, "--tag", o->tags.v[i]);
	for (i = 0; i < o->tag_ignores.n; i++)
		text_add(&s, "--tag-ignore", o->tag_ignores.v[i]);
	if (o->relative)
		text_add(&s, "--relative", NULL);
	return s;
}

/* Output: stdout, or a temporary file renamed into place when complete. */

FILE *
cli_open_output(struct opts *o)
{
	FILE	*fp;
	mode_t	 um;
	int	 fd;

	if (o->output == NULL || strcmp(o->output, "-") == 0)
		return stdout;
	xasprintf(&o->tmp_path, "%s.tmpXXXXXX", o->output);
	if ((fd = mkstemp(o->tmp_path)) == -1) {
		cli_warn("%s: cannot create: %s", o->output, strerror(errno));
		free(o->tmp_path);
		o->tmp_path = NULL;
		return NULL;
	}
	/* mkstemp makes it 0600; a report is as readable as any file. */
	um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um) == -1 || (fp = fdopen(fd, "w")) == NULL) {
		cli_warn("%s: %s", o->output, strerror(errno));
		close(fd);
		unlink(o->tmp_path);
		free(o->tmp_path);
		o->tmp_path = NULL;
		return NULL;
	}
	return fp;
}

/*
 * Finish the output.  Returns 0, or -1 after a message when anything
 * could not be written; a failed or abandoned file is removed.
 */
int
cli_close_output(FILE *fp, struct opts *o, int ok)
{
	int err;

	if (fp == NULL)
		return -1;
	if (fp == stdout) {
		if (fflush(stdout) == EOF || ferror(stdout)) {
			cli_warn("write error on standard output: %s",
			    strerror(errno));
			return -1;
		}
		return 0;
	}
	err = fflush(fp) == EOF || ferror(fp);
	err |= fsync(fileno(fp)) == -1 && errno != EINVAL;
	if (fclose(fp) == EOF)
		err = 1;
	if (!ok || err) {
		if (err)
			cli_warn("%s: write error: %s", o->output,
			    strerror(errno));
		unlink(o->tmp_path);
	} else if (rename(o->tmp_path, o->output) == -1) {
		cli_warn("%s: cannot rename into place: %s", o->output,
		    strerror(errno));
		unlink(o->tmp_path);
		err = 1;
	}
	free(o->tmp_path);
	o->tmp_path = NULL;
	return ok && !err ? 0 : -1;
}

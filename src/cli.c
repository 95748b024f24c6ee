/*
 * Options shared by the subcommands, in one table, so that -i means the
 * same everywhere and the usage text lives in one place; plus the output
 * file that is renamed into place only when complete.  This is CLI code:
 * it prints to stderr and may exit.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "filter.h"
#include "xmalloc.h"

enum {
	O_CUM = 256, O_GRAN, O_NOINLINES, O_MAX_INPUT, O_MAX_INFLATED,
	O_MAX_RATIO, O_MAX_STRINGS, O_MAX_LOCATIONS, O_MAX_FUNCTIONS,
	O_MAX_DEPTH, O_NORMALIZE, O_SORT, O_ALPHA, O_MIN_EFFECT, O_FAIL_ON,
	O_FOCUS, O_IGNORE, O_COLOR, O_HIDE, O_SHOW, O_TAG, O_TAG_IGNORE,
	O_RELATIVE, O_BY_LABEL, O_FLAME_WIDTH,
};

struct cli_opt {
	struct option	 lo;
	int		 mask;		/* 0: every subcommand */
	const char	*arg;		/* for the help text */
	const char	*help;
};

static const struct cli_opt cli_opts[] = {
	{ { "sample-index", required_argument, NULL, 'i' }, 0, "NAME|N",
	  "sample type to use (default: default_sample_type, else the last)" },
	{ { "rows", required_argument, NULL, 'n' }, 0, "N",
	  "show N rows; 0 shows all (top 10, diff 20, check all)" },
	{ { "cum", no_argument, NULL, O_CUM }, OPT_TOP, NULL,
	  "sort by cumulative value" },
	{ { "granularity", required_argument, NULL, O_GRAN }, 0, "G",
	  "functions, filefunctions, files, lines or addresses" },
	{ { "noinlines", no_argument, NULL, O_NOINLINES }, 0, NULL,
	  "attribute inlined frames to their out-of-line caller" },
	{ { "by-label", required_argument, NULL, O_BY_LABEL }, 0, "KEY",
	  "rows are the values of label KEY instead of functions" },
	{ { "format", required_argument, NULL, 'f' }, 0, "F",
	  "text, json, csv, folded or svg; diff and check also markdown" },
	{ { "output", required_argument, NULL, 'o' }, 0, "FILE",
	  "write to FILE (atomically) instead of standard output" },
	{ { "normalize", required_argument, NULL, O_NORMALIZE },
	  OPT_DIFF, "HOW", "total (shares, default), duration (rates) or none" },
	{ { "sort", required_argument, NULL, O_SORT }, OPT_DIFF, "KEY",
	  "delta (default), flat, p, name or new" },
	{ { "alpha", required_argument, NULL, O_ALPHA }, OPT_DIFF, "A",
	  "false discovery rate for the verdicts (default 0.05)" },
	{ { "min-effect", required_argument, NULL, O_MIN_EFFECT }, OPT_DIFF,
	  "X[pp]|X%", "smallest change that matters, in points or relative "
	  "percent (default 1pp and 10%)" },
	{ { "focus", required_argument, NULL, O_FOCUS }, 0, "RE",
	  "keep only samples with a frame matching RE" },
	{ { "ignore", required_argument, NULL, O_IGNORE }, 0, "RE",
	  "drop samples with a frame matching RE" },
	{ { "hide", required_argument, NULL, O_HIDE }, 0, "RE",
	  "remove frames matching RE from the stacks" },
	{ { "show", required_argument, NULL, O_SHOW }, 0, "RE",
	  "remove frames not matching RE from the stacks" },
	{ { "tag", required_argument, NULL, O_TAG }, 0, "KEY=VALUE",
	  "keep samples whose label KEY matches (regex, or range 1kb:4mb)" },
	{ { "tag-ignore", required_argument, NULL, O_TAG_IGNORE }, 0,
	  "KEY=VALUE", "drop samples whose label KEY matches" },
	{ { "relative", no_argument, NULL, O_RELATIVE }, 0, NULL,
	  "percentages of what the filters keep, not of the whole profile" },
	{ { "flame-width", required_argument, NULL, O_FLAME_WIDTH }, OPT_DIFF,
	  "SIDE", "svg: frame widths from the new (default) or base profile" },
	{ { "color", required_argument, NULL, O_COLOR }, OPT_DIFF, "WHEN",
	  "auto (default), always or never; NO_COLOR is honoured" },
	{ { "fail-on", required_argument, NULL, O_FAIL_ON }, OPT_CHECK,
	  "WHAT", "regression (default) or any-change" },
	{ { "quiet", no_argument, NULL, 'q' }, 0, NULL,
	  "do not print warnings" },
	{ { "max-input", required_argument, NULL, O_MAX_INPUT }, 0, "BYTES",
	  "largest input file (default 1G)" },
	{ { "max-inflated", required_argument, NULL, O_MAX_INFLATED }, 0,
	  "BYTES", "largest inflated profile (default 2G)" },
	{ { "max-inflate-ratio", required_argument, NULL, O_MAX_RATIO }, 0,
	  "N", "largest inflated/compressed ratio (default 256)" },
	{ { "max-strings", required_argument, NULL, O_MAX_STRINGS }, 0, "N",
	  "most strings in a profile (default 16M)" },
	{ { "max-locations", required_argument, NULL, O_MAX_LOCATIONS }, 0,
	  "N", "most locations or mappings (default 16M)" },
	{ { "max-functions", required_argument, NULL, O_MAX_FUNCTIONS }, 0,
	  "N", "most functions (default 16M)" },
	{ { "max-depth", required_argument, NULL, O_MAX_DEPTH }, 0, "N",
	  "deepest stack (default 65536)" },
	{ { "help", no_argument, NULL, 'h' }, 0, NULL, "show this help" },
};
#define NOPTS	(sizeof(cli_opts) / sizeof(cli_opts[0]))

void
cli_warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "profdiff: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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

		if (o->mask != 0 && (o->mask & c->options) == 0)
			continue;
		if (o->lo.val < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
			    o->lo.val, o->lo.name, o->arg ? " " : "",
			    o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->lo.name,
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
parse_min_effect(const char *s, struct opts *o)
{
	char	 buf[32];
	size_t	 len = strlen(s);
	double	 v;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len + 1);
	if (buf[len - 1] == '%') {
		buf[len - 1] = '\0';
		if (parse_double(buf, 0, 1e6, &v) == -1)
			return -1;
		o->min_effect_rel = v;
		return 0;
	}
	if (len > 2 && strcmp(buf + len - 2, "pp") == 0)
		buf[len - 2] = '\0';
	if (parse_double(buf, 0, 100, &v) == -1)
		return -1;
	o->min_effect_pp = v;
	return 0;
}

static int
pick(const char *arg, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(arg, names[i]) == 0)
			return i;
	return -1;
}

static void
opts_default(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->nrows = 10;
	o->load.agg.gran = AGG_FUNCTIONS;
	o->format = FMT_TEXT;
	pd_limits_default(&o->load.limits);
	o->normalize = NORM_TOTAL;
	o->sort = DELTA_SORT_DELTA;
	o->alpha = 0.05;
	o->min_effect_pp = 1.0;
	o->min_effect_rel = 10.0;
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

static int
bad_arg(const char *cmd, const char *opt, const char *arg, const char *want)
{
	cli_warn("%s: bad value '%s' for --%s: %s", cmd, arg, opt, want);
	return -1;
}

static int
parse(int argc, char **argv, int mask, const char *cmd, struct opts *o)
{
	static const char *const fmts[] = { "text", "json", "csv",
	    "markdown", "folded", "svg" };
	static const char *const norms[] = { "total", "duration", "none" };
	static const char *const sorts[] = { "delta", "flat", "p", "name",
	    "new" };
	static const char *const fails[] = { "regression", "any-change" };
	static const char *const colors[] = { "never", "always", "auto" };
	struct option	 lopts[NOPTS + 1];
	const char	*errstr;
	unsigned long long sz;
	size_t		 i, n = 0;
	int		 ch, v, longidx, at;

	opts_default(o);
	for (i = 0; i < NOPTS; i++)
		if (cli_opts[i].mask == 0 || (cli_opts[i].mask & mask) != 0)
			lopts[n++] = cli_opts[i].lo;
	memset(&lopts[n], 0, sizeof(lopts[n]));

	o->operands = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->noperands = 0;
	o->tags = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->tag_ignores = xreallocarray(NULL, argc + 1, sizeof(char *));
	o->sep = -1;
	optind = 0;		/* glibc: also resets its internal state */
	opterr = 0;
	/*
	 * "+": stop at each operand, collect it and go on, so options may
	 * follow operands and a "--" between operands stays visible: it
	 * separates the base profiles from the new ones.
	 */
	for (;;) {
		/* At the end glibc would rewind optind to skipped operands. */
		if (optind >= argc && optind != 0)
			break;
		longidx = -1;
		at = optind == 0 ? 1 : optind;	/* a long option's own word */
		ch = getopt_long(argc, argv, "+:i:n:f:o:qh", lopts, &longidx);
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
			if (optind > 1 && optind <= argc &&
			    strcmp(argv[optind - 1], "--") == 0 &&
			    o->sep == -1 && !sep_seen_at(o, optind - 1)) {
				o->sep = (int)o->noperands;
				o->sep_argi = optind - 1;
			}
			if (optind >= argc)
				break;
			o->operands[o->noperands++] = argv[optind++];
			continue;
		}
		switch (ch) {
		case 'i':
			o->load.sample_index = optarg;
			break;
		case 'n':
			o->nrows = strtonum(optarg, 0, LLONG_MAX, &errstr);
			if (errstr != NULL)
				return bad_arg(cmd, "rows", optarg,
				    "a whole number, 0 for all");
			o->nrows_set = 1;
			break;
		case O_CUM:
			o->cum = 1;
			break;
		case O_GRAN:
			if ((v = agg_gran_parse(optarg)) < 0)
				return bad_arg(cmd, "granularity", optarg,
				    "functions, filefunctions, files, lines "
				    "or addresses");
			o->load.agg.gran = (enum agg_gran)v;
			break;
		case O_NOINLINES:
			o->load.agg.noinlines = 1;
			break;
		case 'f':
			v = pick(optarg, fmts, 6);
			if (v < 0 || (v == FMT_MARKDOWN && !(mask & OPT_DIFF)))
				return bad_arg(cmd, "format", optarg,
				    (mask & OPT_DIFF) ?
				    "text, json, csv, markdown, folded or svg" :
				    "text, json, csv, folded or svg");
			o->format = (enum cli_format)v;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case O_NORMALIZE:
			if ((v = pick(optarg, norms, 3)) < 0)
				return bad_arg(cmd, "normalize", optarg,
				    "total, duration or none");
			o->normalize = (enum cli_normalize)v;
			break;
		case O_SORT:
			if ((v = pick(optarg, sorts, 5)) < 0)
				return bad_arg(cmd, "sort", optarg,
				    "delta, flat, p, name or new");
			o->sort = (enum delta_sort)v;
			break;
		case O_ALPHA:
			if (parse_double(optarg, 1e-12, 0.5, &o->alpha) == -1)
				return bad_arg(cmd, "alpha", optarg,
				    "a number above 0 and at most 0.5");
			break;
		case O_MIN_EFFECT:
			if (parse_min_effect(optarg, o) == -1)
				return bad_arg(cmd, "min-effect", optarg,
				    "points such as 0.5 or 0.5pp, or a "
				    "relative change such as 10%");
			break;
		case O_FAIL_ON:
			if ((v = pick(optarg, fails, 2)) < 0)
				return bad_arg(cmd, "fail-on", optarg,
				    "regression or any-change");
			o->fail_on = (enum delta_fail_on)v;
			break;
		case O_FOCUS:
			o->focus = optarg;
			break;
		case O_IGNORE:
			o->ignore = optarg;
			break;
		case O_HIDE:
			o->hide = optarg;
			break;
		case O_SHOW:
			o->show = optarg;
			break;
		case O_TAG:
			o->tags[o->ntags++] = optarg;
			break;
		case O_TAG_IGNORE:
			o->tag_ignores[o->ntag_ignores++] = optarg;
			break;
		case O_RELATIVE:
			o->relative = 1;
			break;
		case O_BY_LABEL:
			if (optarg[0] == '\0')
				return bad_arg(cmd, "by-label", optarg,
				    "a label key");
			o->load.agg.label_key = optarg;
			break;
		case O_FLAME_WIDTH:
			if ((v = pick(optarg, (const char *const []){ "new",
			    "base" }, 2)) < 0)
				return bad_arg(cmd, "flame-width", optarg,
				    "new or base");
			o->flame_base = v;
			break;
		case O_COLOR:
			if ((v = pick(optarg, colors, 3)) < 0)
				return bad_arg(cmd, "color", optarg,
				    "auto, always or never");
			o->color = v == 2 ? -1 : v;
			break;
		case O_MAX_INPUT:
		case O_MAX_INFLATED:
			if (parse_size(optarg, &sz) == -1)
				return bad_arg(cmd, lopts[0].name == NULL ? "" :
				    ch == O_MAX_INPUT ? "max-input" :
				    "max-inflated", optarg,
				    "a size in bytes, with k, M or G");
			if (ch == O_MAX_INPUT)
				o->load.limits.max_input = sz;
			else
				o->load.limits.max_inflated = sz;
			break;
		case O_MAX_RATIO:
		case O_MAX_STRINGS:
		case O_MAX_LOCATIONS:
		case O_MAX_FUNCTIONS:
		case O_MAX_DEPTH:
			if (parse_size(optarg, &sz) == -1 || sz > SIZE_MAX)
				return bad_arg(cmd, "max-*", optarg,
				    "a positive whole number, with k, M or G");
			if (ch == O_MAX_RATIO)
				o->load.limits.max_ratio = sz;
			else if (ch == O_MAX_STRINGS)
				o->load.limits.max_strings = (size_t)sz;
			else if (ch == O_MAX_LOCATIONS)
				o->load.limits.max_locations = (size_t)sz;
			else if (ch == O_MAX_FUNCTIONS)
				o->load.limits.max_functions = (size_t)sz;
			else
				o->load.limits.max_depth = (size_t)sz;
			break;
		case 'h':
			usage_cmd(stdout, find_cmd(cmd), 1);
			return 1;
		case ':':
			cli_warn("%s: option %s needs a value", cmd,
			    argv[optind - 1]);
			usage_cmd(stderr, find_cmd(cmd), 0);
			return -1;
		default:
			if (optopt != 0 && optopt < 256)
				cli_warn("%s: unknown option -%c", cmd, optopt);
			else
				cli_warn("%s: unknown option %s", cmd,
				    argv[optind - 1]);
			usage_cmd(stderr, find_cmd(cmd), 0);
			return -1;
		}
	}
	o->operands[o->noperands] = NULL;
	if (o->color == -1 && getenv("NO_COLOR") != NULL &&
	    getenv("NO_COLOR")[0] != '\0')
		o->color = 0;
	return 0;
}

int
cli_parse(int argc, char **argv, int mask, const char *cmd, struct opts *o)
{
	int rc;

	if ((rc = parse(argc, argv, mask, cmd, o)) == 0)
		return 0;
	cli_release(o);
	return rc;
}

void
cli_release(struct opts *o)
{
	free(o->operands);
	free(o->tags);
	free(o->tag_ignores);
	filter_free(o->filter);
	o->operands = o->tags = o->tag_ignores = NULL;
	o->filter = NULL;
	o->load.filter = NULL;
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
	sp.tags = o->tags;
	sp.ntags = o->ntags;
	sp.tag_ignores = o->tag_ignores;
	sp.ntag_ignores = o->ntag_ignores;
	sp.relative = o->relative;
	diag_init(&d, NULL);
	if (filter_new(&sp, &o->filter, &d) == -1) {
		cli_warn("%s: %s", cmd, d.msg);
		return -1;
	}
	o->load.filter = o->filter;
	return 0;
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
	for (i = 0; i < o->ntags; i++)
		text_add(&s, "--tag", o->tags[i]);
	for (i = 0; i < o->ntag_ignores; i++)
		text_add(&s, "--tag-ignore", o->tag_ignores[i]);
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

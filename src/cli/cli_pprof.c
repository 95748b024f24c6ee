/*
 * pprof's spellings of profdiff's options, in one table (cli_pprof[]):
 * which of pprof's flags mean which option here, which are refused and
 * what profdiff offers instead.  cli.c's parser looks words up here and
 * does what the entry says; the help prints the table.  This is CLI
 * code: it prints only the help.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

#define PP_FLAG(n, o, v, m)	{ n, o, v, m, PP_OPT, NULL }
#define PP_NO(n, m, why)	{ n, NULL, NULL, m, PP_NO, why }

static const char pp_graph[] = "profdiff draws no call graph; --format svg "
    "writes a flame graph, --format folded its stacks";
static const char pp_views[] = "profdiff has no assembly or call-tree "
    "views; diff --list and --peek show lines, callers and callees";
static const char pp_raw[] = "--format folded prints every stack and its "
    "value";
static const char pp_save[] = "profdiff writes reports, not profiles; "
    "--format csv or json for other tools";
static const char pp_labels[] = "--by-label KEY makes the rows the values "
    "of a label; --tag filters by label";
static const char pp_fetch[] = "profdiff reads profiles and URLs as they "
    "are: symbolize them with go tool pprof -proto";
static const char pp_prune[] = "profdiff drops no rows by size; -n N "
    "shows the first N";
static const char pp_scale[] = "profdiff does not rescale values; --unit "
    "changes their unit, diff's --normalize duration makes rates";
static const char pp_frames[] = "--hide and --show remove frames, --focus "
    "and --ignore keep or drop samples";
/* series writes neither flame graphs nor folded stacks nor CSV. */
static const char pp_graph_s[] = "series draws no call graph; --format svg "
    "charts each change";
static const char pp_raw_s[] = "series keeps each function's counts, not "
    "the stacks";
static const char pp_save_s[] = "series writes reports, not profiles; "
    "--format json for other tools";
static const char pp_labels_s[] = "series has no rows by label; --tag "
    "filters by label";

#define TD	(OPT_TOP | OPT_DIFF)

static const struct cli_pprof cli_pprof[] = {
	{ "nodecount", "rows", NULL, 0, PP_OPT, NULL },
	{ "sample_index", "sample-index", NULL, 0, PP_OPT, NULL },
	PP_FLAG("inuse_space", "sample-index", "inuse_space", 0),
	PP_FLAG("inuse_objects", "sample-index", "inuse_objects", 0),
	PP_FLAG("alloc_space", "sample-index", "alloc_space", 0),
	PP_FLAG("alloc_objects", "sample-index", "alloc_objects", 0),
	PP_FLAG("total_delay", "sample-index", "delay", 0),
	PP_FLAG("contentions", "sample-index", "contentions", 0),
	{ "focus", "focus", NULL, 0, PP_OPT, NULL },
	{ "ignore", "ignore", NULL, 0, PP_OPT, NULL },
	{ "hide", "hide", NULL, 0, PP_OPT, NULL },
	{ "show", "show", NULL, 0, PP_OPT, NULL },
	{ "tagfocus", "tag", NULL, 0, PP_TAG, NULL },
	{ "tagignore", "tag-ignore", NULL, 0, PP_TAG, NULL },
	PP_FLAG("functions", "granularity", "functions", 0),
	PP_FLAG("filefunctions", "granularity", "filefunctions", 0),
	PP_FLAG("files", "granularity", "files", 0),
	PP_FLAG("lines", "granularity", "lines", 0),
	PP_FLAG("addresses", "granularity", "addresses", 0),
	PP_FLAG("noinlines", "noinlines", "", 0),
	PP_FLAG("cum", "cum", "", OPT_TOP),
	{ "cum", "sort", "delta", OPT_DIFF, PP_OPT, "the change of cum" },
	{ "flat", NULL, NULL, OPT_TOP, PP_NONE, "top's order already" },
	PP_FLAG("flat", "sort", "flat", OPT_DIFF),
	{ "diff_base", NULL, NULL, OPT_DIFF, PP_DIFF_BASE, NULL },
	PP_NO("diff_base", OPT_TOP, "profdiff diff BASE NEW compares"),
	{ "normalize", "normalize", "total", OPT_DIFF, PP_OPT, "shares of "
	  "each side's total, the default: what scaling the base gives" },
	PP_NO("normalize", OPT_TOP, "no base to scale; diff compares shares"),
	{ "base", "base", NULL, 0, PP_OPT, NULL },
	{ "unit", "unit", NULL, 0, PP_OPT, NULL },
	{ "output", "output", NULL, 0, PP_OPT, NULL },
	PP_FLAG("relative_percentages", "relative", "", 0),
	PP_FLAG("top", "format", "text", 0),
	PP_FLAG("text", "format", "text", 0),
	PP_NO("web", TD, pp_graph), PP_NO("http", TD, pp_graph),
	PP_NO("no_browser", TD, pp_graph), PP_NO("svg", TD, pp_graph),
	PP_NO("png", TD, pp_graph), PP_NO("pdf", TD, pp_graph),
	PP_NO("gif", TD, pp_graph), PP_NO("ps", TD, pp_graph),
	PP_NO("dot", TD, pp_graph), PP_NO("eog", TD, pp_graph),
	PP_NO("evince", TD, pp_graph), PP_NO("gv", TD, pp_graph),
	PP_NO("call_tree", TD, pp_graph),
	{ "list", "list", NULL, OPT_DIFF, PP_OPT, NULL },
	{ "peek", "peek", NULL, OPT_DIFF, PP_OPT, NULL },
	{ "source_path", "source-path", NULL, OPT_DIFF, PP_OPT, NULL },
	PP_NO("list", OPT_TOP, "diff --list RE lists a function's lines"),
	PP_NO("peek", OPT_TOP, "diff --peek RE shows its callers and "
	  "callees"),
	PP_NO("source_path", OPT_TOP, "diff --source-path DIR, with --list"),
	PP_NO("weblist", 0, pp_views),
	PP_NO("disasm", 0, pp_views), PP_NO("tree", 0, pp_views),
	PP_NO("trim_path", 0, pp_views), PP_NO("intel_syntax", 0, pp_views),
	PP_NO("showcolumns", 0, pp_views),
	PP_NO("raw", TD, pp_raw), PP_NO("traces", TD, pp_raw),
	PP_NO("proto", TD, pp_save), PP_NO("topproto", TD, pp_save),
	PP_NO("callgrind", TD, pp_save), PP_NO("kcachegrind", TD, pp_save),
	PP_NO("tags", TD, pp_labels), PP_NO("comments", TD, pp_labels),
	PP_NO("tagshow", TD, pp_labels), PP_NO("taghide", TD, pp_labels),
	PP_NO("tagroot", TD, pp_labels), PP_NO("tagleaf", TD, pp_labels),
	PP_NO("compact_labels", TD, pp_labels),
	{ "seconds", "seconds", NULL, 0, PP_OPT, NULL },
	PP_NO("timeout", 0, pp_fetch),
	PP_NO("symbolize", 0, pp_fetch), PP_NO("buildid", 0, pp_fetch),
	PP_NO("tools", 0, pp_fetch), PP_NO("add_comment", 0, pp_fetch),
	PP_NO("all_frames", 0, pp_fetch),
	PP_NO("nodefraction", 0, pp_prune), PP_NO("edgefraction", 0, pp_prune),
	PP_NO("trim", 0, pp_prune), PP_NO("drop_negative", 0, pp_prune),
	PP_NO("mean", 0, pp_scale), PP_NO("mean_delay", 0, pp_scale),
	PP_NO("divide_by", 0, pp_scale),
	PP_NO("prune_from", 0, pp_frames), PP_NO("show_from", 0, pp_frames),
	/* The same names for series, whose formats and rows differ. */
	PP_NO("web", OPT_SERIES, pp_graph_s),
	PP_NO("http", OPT_SERIES, pp_graph_s),
	PP_NO("no_browser", OPT_SERIES, pp_graph_s),
	PP_NO("svg", OPT_SERIES, pp_graph_s),
	PP_NO("png", OPT_SERIES, pp_graph_s),
	PP_NO("pdf", OPT_SERIES, pp_graph_s),
	PP_NO("gif", OPT_SERIES, pp_graph_s),
	PP_NO("ps", OPT_SERIES, pp_graph_s),
	PP_NO("dot", OPT_SERIES, pp_graph_s),
	PP_NO("eog", OPT_SERIES, pp_graph_s),
	PP_NO("evince", OPT_SERIES, pp_graph_s),
	PP_NO("gv", OPT_SERIES, pp_graph_s),
	PP_NO("call_tree", OPT_SERIES, pp_graph_s),
	PP_NO("raw", OPT_SERIES, pp_raw_s),
	PP_NO("traces", OPT_SERIES, pp_raw_s),
	PP_NO("proto", OPT_SERIES, pp_save_s),
	PP_NO("topproto", OPT_SERIES, pp_save_s),
	PP_NO("callgrind", OPT_SERIES, pp_save_s),
	PP_NO("kcachegrind", OPT_SERIES, pp_save_s),
	PP_NO("tags", OPT_SERIES, pp_labels_s),
	PP_NO("comments", OPT_SERIES, pp_labels_s),
	PP_NO("tagshow", OPT_SERIES, pp_labels_s),
	PP_NO("taghide", OPT_SERIES, pp_labels_s),
	PP_NO("tagroot", OPT_SERIES, pp_labels_s),
	PP_NO("tagleaf", OPT_SERIES, pp_labels_s),
	PP_NO("compact_labels", OPT_SERIES, pp_labels_s),
};
#define NPPROF	(sizeof(cli_pprof) / sizeof(cli_pprof[0]))

const struct cli_pprof *
cli_pprof_find(const char *name, size_t n, int mask)
{
	size_t i;

	for (i = 0; i < NPPROF; i++)
		if (strlen(cli_pprof[i].name) == n &&
		    strncmp(cli_pprof[i].name, name, n) == 0 &&
		    (cli_pprof[i].mask == 0 || (cli_pprof[i].mask & mask)))
			return &cli_pprof[i];
	return NULL;
}

int
cli_pprof_valued(const struct cli_pprof *p)
{
	return p->how == PP_TAG || p->how == PP_DIFF_BASE ||
	    (p->how == PP_OPT && p->val == NULL);
}

int
cli_go_bool(const char *s)
{
	static const char *const yes[] = { "1", "t", "T", "TRUE", "true",
	    "True" }, *const no[] = { "0", "f", "F", "FALSE", "false",
	    "False" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcmp(s, yes[i]) == 0)
			return 1;
		if (strcmp(s, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* "--rows N", "--granularity lines": what entry p stands for. */
static void
pprof_means(char *buf, size_t len, const struct cli_pprof *p)
{
	switch (p->how) {
	case PP_OPT:
		snprintf(buf, len, "--%s%s%s%s%s%s", p->opt, p->val == NULL ||
		    p->val[0] != '\0' ? " " : "", p->val ? p->val :
		    cli_opt_arg(p->opt),
		    p->note ? " (" : "", p->note ? p->note : "",
		    p->note ? ")" : "");
		break;
	case PP_TAG:
		snprintf(buf, len, "--%s KEY=VALUE (a key is needed)",
		    p->opt);
		break;
	case PP_DIFF_BASE:
		snprintf(buf, len, "FILE is the base side, the operands the "
		    "new");
		break;
	case PP_NONE:
		snprintf(buf, len, "nothing to do: %s", p->note);
		break;
	default:
		snprintf(buf, len, "not here: %s", p->note);
		break;
	}
}

/* Is p's note shared with another entry: one of a group refused alike? */
static int
pprof_grouped(const struct cli_pprof *p)
{
	size_t i;

	if (p->how != PP_NO)
		return 0;
	for (i = 0; i < NPPROF; i++)
		if (&cli_pprof[i] != p && cli_pprof[i].note == p->note)
			return 1;
	return 0;
}

/* The names refused for note, wrapped, then the note. */
static void
pprof_group(FILE *fp, const char *note)
{
	size_t	 i, col = 4;

	fputs("   ", fp);
	for (i = 0; i < NPPROF; i++) {
		if (cli_pprof[i].note != note)
			continue;
		if (col + strlen(cli_pprof[i].name) + 2 > 78) {
			fputs("\n   ", fp);
			col = 4;
		}
		fprintf(fp, " -%s", cli_pprof[i].name);
		col += strlen(cli_pprof[i].name) + 2;
	}
	fprintf(fp, "\n        %s\n", note);
}

/*
 * A name a line: "-cum" says what it means for top and for diff when
 * mask is both.  The refusals that share a note are listed together.
 */
void
cli_pprof_help(FILE *fp, int mask)
{
	const struct cli_pprof	*p, *q;
	char			 left[64], right[256], one[160];
	size_t			 i, j;

	fputs("  Coming from pprof: its options work here with one dash or "
	    "two,\n  as -name=VALUE or -name VALUE, and mean what they mean "
	    "there:\n", fp);
	for (i = 0; i < NPPROF; i++) {
		p = &cli_pprof[i];
		if ((p->mask != 0 && !(p->mask & mask)) || pprof_grouped(p))
			continue;
		for (j = 0; j < i && strcmp(cli_pprof[j].name, p->name); j++)
			continue;
		if (j < i)
			continue;	/* its name's line is printed */
		snprintf(left, sizeof(left), "-%s%s%s", p->name,
		    cli_pprof_valued(p) ? " " : "", !cli_pprof_valued(p) ? "" :
		    p->how == PP_TAG ? "KEY=VALUE" : p->how == PP_DIFF_BASE ?
		    "FILE" : cli_opt_arg(p->opt));
		right[0] = '\0';
		for (j = i; j < NPPROF; j++) {
			q = &cli_pprof[j];
			if (strcmp(q->name, p->name) != 0 ||
			    (q->mask != 0 && !(q->mask & mask)))
				continue;
			pprof_means(one, sizeof(one), q);
			if (right[0] != '\0')
				strlcat(right, "; ", sizeof(right));
			strlcat(right, one, sizeof(right));
			if (q->mask != 0 && (mask & ~q->mask & (OPT_TOP |
			    OPT_DIFF)))
				strlcat(right, q->mask & OPT_TOP ? " (top)" :
				    " (diff, check)", sizeof(right));
		}
		fprintf(fp, "    %-30s %s\n", left, right);
	}
	fputs("  Not here, and what profdiff offers instead:\n", fp);
	for (i = 0; i < NPPROF; i++) {
		p = &cli_pprof[i];
		if (!pprof_grouped(p) || (p->mask != 0 && !(p->mask & mask)))
			continue;
		for (j = 0; j < i && cli_pprof[j].note != p->note; j++)
			continue;
		if (j == i)
			pprof_group(fp, p->note);
	}
}

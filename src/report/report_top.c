/*
 * The top report in text (pprof's columns and value formatting),
 * markdown (the same for an incident note, as diff's looks), JSON (a
 * documented schema with exact integers) and CSV, or the flame graph
 * of the one side: report_top_formats[] says which writes each format.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_flame.h"
#include "support/units.h"

/*
 * The table's writers: each takes the struct top_report the table is
 * for.  The flame graphs draw the one side's frames under top's header.
 */
static int
top_text(FILE *fp, const void *r)
{
	return report_top_text(fp, r);
}

static int
top_json(FILE *fp, const void *r)
{
	return report_top_json(fp, r);
}

static int
top_csv(FILE *fp, const void *r)
{
	return report_top_csv(fp, r);
}

static int
top_markdown(FILE *fp, const void *r)
{
	return report_top_markdown(fp, r);
}

static struct flame_report
top_flame(const struct top_report *r)
{
	return (struct flame_report){
		.h = { .new = &r->merged, .nnew = r->nprofiles,
		    .filters = r->filters },
		.fl = r->fl,
		.out_unit = r->out_unit,
	};
}

static int
top_svg(FILE *fp, const void *r)
{
	struct flame_report fr = top_flame(r);

	return report_flame_svg(fp, &fr);
}

static int
top_folded(FILE *fp, const void *r)
{
	struct flame_report fr = top_flame(r);

	return report_flame_folded(fp, &fr);
}

const struct report_writer report_top_formats[] = {
	{ .format = FMT_TEXT, .write = top_text },
	{ .format = FMT_JSON, .write = top_json },
	{ .format = FMT_CSV, .write = top_csv },
	{ .format = FMT_MARKDOWN, .write = top_markdown },
	{ .format = FMT_FOLDED, .write = top_folded, .tree = 1 },
	{ .format = FMT_SVG, .write = top_svg, .tree = 1 },
	{ .write = NULL },
};

/*
 * The smallest non-zero |flat| of the rows shown, |cum| for a row with
 * no flat, or 0: what pprof chooses the report's unit from.
 */
static int64_t
top_minval(const struct top_report *r)
{
	int64_t	 minval = 0, v;
	size_t	 i;

	for (i = 0; i < r->nshow; i++) {
		v = llabs(r->rows[i].flat);
		if (v == 0)
			v = llabs(r->rows[i].cum);
		if (v != 0 && (minval == 0 || v < minval))
			minval = v;
	}
	return minval;
}

/* --unit minimum (the default) or none: pprof's choice of one unit. */
static int
unit_minimum(const char *u)
{
	return u == NULL || strcmp(u, "minimum") == 0;
}

int
report_top_text(FILE *fp, const struct top_report *r)
{
	char		 flat[UNITS_BUFSZ], cum[UNITS_BUFSZ], fp1[UNITS_BUFSZ],
			 sp[UNITS_BUFSZ], cp[UNITS_BUFSZ], tot[UNITS_BUFSZ],
			 shown[UNITS_BUFSZ];
	const char	*unit;
	int64_t		 sum = 0;
	size_t		 i;

	for (i = 0; i < r->nshow; i++)
		sum += r->rows[i].flat;
	/* As pprof: a unit of -unit's is used as it is. */
	if (!unit_minimum(r->out_unit))
		unit = r->out_unit;
	else
		unit = r->nshow > 0 ? units_pick(top_minval(r), r->pct_total,
		    r->merged.unit) : "minimum";

	report_facts_text(fp, &r->merged, "File: ", r->nprofiles,
	    unit_minimum(r->out_unit) ? NULL : r->out_unit);
	report_symbols_text(fp, r->sym, "Symbols: ");
	if (r->filters != NULL) {
		fputs("Filters: ", fp);
		report_put_text(fp, r->filters);
		fprintf(fp, " (they keep %.2f%% of the profile; percentages "
		    "are of %s)\n", 100 * r->kept, r->relative ?
		    "what they keep" : "the whole profile");
	}
	units_label(shown, sizeof(shown), sum, r->merged.unit, unit);
	units_label(tot, sizeof(tot), r->pct_total, r->merged.unit, unit);
	units_percent(sp, sizeof(sp), sum, r->pct_total);
	fprintf(fp, "Showing %zu of %zu %s%s, accounting for %s, %s of %s "
	    "total\n", r->nshow, r->nrows, r->by_label ? "values of label " :
	    r->granularity, r->by_label ? r->by_label : "", shown,
	    sp + strspn(sp, " "), tot);
	fprintf(fp, "%10s %6s %6s %10s %6s\n", "flat", "flat%", "sum%", "cum",
	    "cum%");
	sum = 0;
	for (i = 0; i < r->nshow; i++) {
		const struct top_row *row = &r->rows[i];

		sum += row->flat;
		units_label(flat, sizeof(flat), row->flat, r->merged.unit, unit);
		units_label(cum, sizeof(cum), row->cum, r->merged.unit, unit);
		units_percent(fp1, sizeof(fp1), row->flat, r->pct_total);
		units_percent(sp, sizeof(sp), sum, r->pct_total);
		units_percent(cp, sizeof(cp), row->cum, r->pct_total);
		fprintf(fp, "%10s %s %s %10s %s  ", flat, fp1, sp, cum, cp);
		report_put_text(fp, row->name);
		fputc('\n', fp);
	}
	return ferror(fp) ? -1 : 0;
}

/* The unit the text table picks for the rows shown: the smallest. */
static const char *
shown_unit(const struct top_report *r)
{
	return r->nshow > 0 ? units_pick(top_minval(r), r->pct_total,
	    r->merged.unit) : "minimum";
}

/* A units_percent() cell without its padding. */
static const char *
md_pct(char *buf, size_t len, int64_t v, int64_t total)
{
	units_percent(buf, len, v, total);
	return buf + strspn(buf, " ");
}

int
report_top_markdown(FILE *fp, const struct top_report *r)
{
	char		 flat[UNITS_BUFSZ], cum[UNITS_BUFSZ], fp1[UNITS_BUFSZ],
			 sp[UNITS_BUFSZ], cp[UNITS_BUFSZ], tot[UNITS_BUFSZ],
			 shown[UNITS_BUFSZ];
	const char	*unit = shown_unit(r);
	int64_t		 sum = 0;
	size_t		 i;

	fputs("## profdiff top\n\n", fp);
	report_facts_md(fp, r->nprofiles > 1 ? "Profiles" : "Profile",
	    &r->merged, r->nprofiles, unit_minimum(r->out_unit) ? NULL :
	    r->out_unit);
	report_symbols_md(fp, r->sym, "Symbols");
	if (r->filters != NULL) {
		fputs("\nFilters: ", fp);
		report_put_md(fp, r->filters);
		fprintf(fp, " (they keep %.2f%% of the profile; percentages "
		    "are of %s)\n", 100 * r->kept, r->relative ?
		    "what they keep" : "the whole profile");
	}
	report_warnings_md(fp, r->warnings);
	for (i = 0; i < r->nshow; i++)
		sum += r->rows[i].flat;
	units_label(shown, sizeof(shown), sum, r->merged.unit, unit);
	units_label(tot, sizeof(tot), r->pct_total, r->merged.unit, unit);
	fprintf(fp, "\nShowing %zu of %zu %s", r->nshow, r->nrows,
	    r->by_label ? "values of label " : r->granularity);
	if (r->by_label != NULL)
		report_put_md_text(fp, r->by_label);
	fprintf(fp, ", accounting for %s, %s of %s total, by %s value.\n",
	    shown, md_pct(sp, sizeof(sp), sum, r->pct_total), tot,
	    r->sort_cum ? "cumulative" : "flat");
	if (r->nshow == 0)
		return ferror(fp) ? -1 : 0;
	fputs("\n| flat | flat% | sum% | cum | cum% | ", fp);
	report_put_md_text(fp, r->by_label ? r->by_label : r->granularity);
	fputs(" |\n", fp);
	fputs("|---:|---:|---:|---:|---:|---|\n", fp);
	for (sum = 0, i = 0; i < r->nshow; i++) {
		const struct top_row *row = &r->rows[i];

		sum += row->flat;
		units_label(flat, sizeof(flat), row->flat, r->merged.unit,
		    unit);
		units_label(cum, sizeof(cum), row->cum, r->merged.unit, unit);
		fprintf(fp, "| %s | %s | ", flat, md_pct(fp1, sizeof(fp1),
		    row->flat, r->pct_total));
		fprintf(fp, "%s | %s | ", md_pct(sp, sizeof(sp), sum,
		    r->pct_total), cum);
		fprintf(fp, "%s | ", md_pct(cp, sizeof(cp), row->cum,
		    r->pct_total));
		report_put_md(fp, row->name);
		fputs(" |\n", fp);
	}
	return ferror(fp) ? -1 : 0;
}

int
report_top_json(FILE *fp, const struct top_report *r)
{
	const char	*to, *name, *from = r->merged.unit;
	size_t		 i;

	to = report_value_unit(r->out_unit, top_minval(r), r->pct_total,
	    from, &name);
	fputs("{\"profiles\":[", fp);
	for (i = 0; i < r->nprofiles; i++) {
		if (i > 0)
			fputc(',', fp);
		report_facts_json(fp, &r->profiles[i], to);
	}
	fputs("],\"merged\":", fp);
	report_facts_json(fp, &r->merged, to);
	if (to != NULL) {
		fputs(",\"value_unit\":", fp);
		report_put_json(fp, name);
	}
	fputs(",\"total\":", fp);
	report_put_value(fp, r->pct_total, from, to);
	fputs(",\"granularity\":", fp);
	report_put_json(fp, r->by_label ? "label" : r->granularity);
	if (r->by_label != NULL) {
		fputs(",\"by_label\":", fp);
		report_put_json(fp, r->by_label);
	}
	if (r->filters != NULL) {
		fputs(",\"filters\":", fp);
		report_put_json(fp, r->filters);
		fprintf(fp, ",\"relative\":%s,\"filters_keep\":",
		    r->relative ? "true" : "false");
		report_put_num(fp, r->kept);
	}
	report_warnings_json(fp, r->warnings, 0);
	report_symbols_json(fp, r->sym);
	fprintf(fp, ",\"sort\":\"%s\",\"rows\":[", r->sort_cum ? "cum" :
	    "flat");
	for (i = 0; i < r->nshow; i++) {
		fputs(i > 0 ? ",\n{\"name\":" : "\n{\"name\":", fp);
		report_put_json(fp, r->rows[i].name);
		fputs(",\"flat\":", fp);
		report_put_value(fp, r->rows[i].flat, from, to);
		fputs(",\"cum\":", fp);
		report_put_value(fp, r->rows[i].cum, from, to);
		fputc('}', fp);
	}
	fputs("]}\n", fp);
	return ferror(fp) ? -1 : 0;
}

int
report_top_csv(FILE *fp, const struct top_report *r)
{
	char		 a[REPORT_NUMSZ], b[REPORT_NUMSZ];
	const char	*to, *name, *from = r->merged.unit;
	size_t		 i;

	to = report_value_unit(r->out_unit, top_minval(r), r->pct_total,
	    from, &name);
	fputs("name,flat,flat_pct,cum,cum_pct,unit\n", fp);
	for (i = 0; i < r->nshow; i++) {
		double t = (double)r->pct_total;

		report_put_csv(fp, r->rows[i].name);
		report_fmt_num(a, sizeof(a), t != 0 ?
		    100.0 * (double)r->rows[i].flat / t : 0.0);
		report_fmt_num(b, sizeof(b), t != 0 ?
		    100.0 * (double)r->rows[i].cum / t : 0.0);
		fputc(',', fp);
		report_put_value(fp, r->rows[i].flat, from, to);
		fprintf(fp, ",%s,", a);
		report_put_value(fp, r->rows[i].cum, from, to);
		fprintf(fp, ",%s,", b);
		report_put_csv(fp, name);
		fputc('\n', fp);
	}
	return ferror(fp) ? -1 : 0;
}

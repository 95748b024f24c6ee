/*
 * The writers of profdiff series: text, Markdown, JSON and SVG.  Each
 * change says the function and its path, the level before and after
 * with their intervals, the two operands the change fell between (their
 * files and times), and q; the Test: line says what was scanned.  The
 * SVG draws one small chart a change: the function's level at each
 * point with its interval, the segments' levels, and the change marked.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report.h"
#include "report/report_flame.h"
#include "report/report_series.h"
#include "core/series.h"
#include "support/xmalloc.h"

static const char *
verdict_name(enum series_verdict v)
{
	switch (v) {
	case SERIES_REGRESSED:
		return "regressed";
	case SERIES_IMPROVED:
		return "improved";
	default:
		return "transient";
	}
}

/* A point's time as UTC, or "no time". */
static void
fmt_time(char *buf, size_t len, int64_t ns)
{
	struct tm	 tm;
	time_t		 t = (time_t)(ns / 1000000000);

	if (ns == 0 || gmtime_r(&t, &tm) == NULL) {
		snprintf(buf, len, "no time");
		return;
	}
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A level: a share in percent, or a rate in samples a second. */
static void
fmt_level(char *buf, size_t len, const struct series_result *r, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (r->rates)
		snprintf(buf, len, "%.4g/s", v);
	else
		snprintf(buf, len, "%.2f%%", 100 * v);
}

static void
put_point(FILE *fp, const struct series *s, size_t t)
{
	char tb[32];

	fmt_time(tb, sizeof(tb), s->pts[t].time_ns);
	fprintf(fp, "operand %zu (", t + 1);
	report_put_text(fp, s->pts[t].label);
	fprintf(fp, ", %s)", tb);
}

static void
test_line(FILE *fp, const struct series_report *sr, const char *pre)
{
	const struct series_result *r = sr->r;

	fprintf(fp, "%sTest: likelihood-ratio scan of %zu functions (%zu "
	    "tests, flat and cum) over %zu split point%s each, %s; p bounded "
	    "by Bonferroni over the splits of the exact test at the best "
	    "split; discrete FDR at %g: %zu kept, %zu discoveries; intervals "
	    "at %.2f%% (FCR)", pre, r->nfuncs, r->nhyps, r->nsplits,
	    r->nsplits == 1 ? "" : "s", r->rates ? "rates (Poisson, by duration)" :
	    "shares (binomial)", sr->alpha, r->kept, r->rejected,
	    100 * r->ci_level);
	if (r->phi > 1)
		fprintf(fp, "; quasi-likelihood at the dispersion the "
		    "replicates show (%.2f times sampling's, shared across "
		    "functions)", r->phi);
	fputc('\n', fp);
}

static void
text_change(FILE *fp, const struct series_report *sr,
    const struct series_change *c)
{
	const struct series	*s = sr->s;
	char			 b[32], bl[32], bh[32], a[32], al[32], ah[32];
	size_t			 i;

	fmt_level(b, sizeof(b), sr->r, c->before);
	fmt_level(bl, sizeof(bl), sr->r, c->before_lo);
	fmt_level(bh, sizeof(bh), sr->r, c->before_hi);
	fmt_level(a, sizeof(a), sr->r, c->after);
	fmt_level(al, sizeof(al), sr->r, c->after_lo);
	fmt_level(ah, sizeof(ah), sr->r, c->after_hi);
	fprintf(fp, "%-10s ", verdict_name(c->verdict));
	report_put_text(fp, s->names[c->fid]);
	fprintf(fp, " (%s)\n", c->cum ? "cum" : "flat");
	fprintf(fp, "  path:    ");
	for (i = 0; i < c->npath; i++) {
		if (i > 0)
			fputs(" > ", fp);
		report_put_text(fp, c->path[i]);
	}
	/* A rate counts samples, whatever the sample type's unit. */
	fprintf(fp, "\n  level:   %s [%s, %s] -> %s [%s, %s]%s%s\n", b, bl, bh,
	    a, al, ah, sr->r->rates ? " (samples)" : "",
	    c->verdict == SERIES_TRANSIENT ? ", and back" : "");
	fprintf(fp, "  changed: between ");
	put_point(fp, s, c->at - 1);
	fprintf(fp, " and ");
	put_point(fp, s, c->at);
	fputc('\n', fp);
	if (c->verdict == SERIES_TRANSIENT) {
		fprintf(fp, "  back:    between ");
		put_point(fp, s, c->until - 1);
		fprintf(fp, " and ");
		put_point(fp, s, c->until);
		fputc('\n', fp);
	}
	fprintf(fp, "  q:       %.3g\n", c->q);
	if (c->ncarriers > 0) {
		fprintf(fp, "  carries: ");
		for (i = 0; i < c->ncarriers; i++) {
			if (i > 0)
				fputs(", ", fp);
			report_put_text(fp, s->names[c->carriers[i]]);
		}
		fputc('\n', fp);
	}
	if (c->nparts > 0) {
		fprintf(fp, "  parts:   ");
		for (i = 0; i < c->nparts; i++) {
			if (i > 0)
				fputs(", ", fp);
			report_put_text(fp, s->names[c->parts[i]]);
		}
		fputc('\n', fp);
	}
	if (c->ncrowded > 0) {
		fprintf(fp, "  crowds %s: ", c->verdict == SERIES_REGRESSED ?
		    "out" : "in");
		for (i = 0; i < c->ncrowded; i++) {
			if (i > 0)
				fputs(", ", fp);
			report_put_text(fp, s->names[c->crowded[i]]);
		}
		fputc('\n', fp);
	}
}

static int
series_text(FILE *fp, const struct series_report *sr)
{
	const struct series_result	*r = sr->r;
	size_t				 i;

	fprintf(fp, "Series: %zu points, ", sr->s->npts);
	report_put_text(fp, sr->sample_type);
	fprintf(fp, " (%s), %s", sr->unit, sr->granularity);
	if (sr->filters != NULL) {
		fputs(", ", fp);
		report_put_text(fp, sr->filters);
	}
	fputc('\n', fp);
	report_symbols_text(fp, sr->sym, "Symbols: ");
	test_line(fp, sr, "");
	if (r->nchanges == 0)
		fprintf(fp, "\nNo change along the sequence.\n");
	else
		fprintf(fp, "\n%zu change%s", r->nchanges, r->nchanges == 1 ?
		    "" : "s");
	if (r->nchanges > 0 && r->ncarried + r->ncrowded + r->nparts > 0)
		fprintf(fp, " (%zu more grouped under them)", r->ncarried +
		    r->ncrowded + r->nparts);
	if (r->nchanges > 0)
		fprintf(fp, ", largest first:\n");
	for (i = 0; i < r->nchanges && i < sr->nshow; i++) {
		fputc('\n', fp);
		text_change(fp, sr, &r->changes[i]);
	}
	if (i < r->nchanges)
		fprintf(fp, "\n(%zu more; -n 0 shows all)\n", r->nchanges - i);
	if (sr->conclusion != NULL)
		fprintf(fp, "\n%s\n", sr->conclusion);
	return ferror(fp) ? -1 : 0;
}

static int
series_markdown(FILE *fp, const struct series_report *sr)
{
	const struct series_result	*r = sr->r;
	const struct series		*s = sr->s;
	char				 b[32], a[32], lo[32], hi[32];
	size_t				 i, j;

	fprintf(fp, "## profdiff series: %zu points\n\n", s->npts);
	test_line(fp, sr, "");
	report_symbols_md(fp, sr->sym, "Symbols");
	report_warnings_md(fp, sr->warnings);
	if (r->nchanges == 0) {
		fprintf(fp, "\nNo change along the sequence.\n");
		goto out;
	}
	fprintf(fp, "\n| verdict | function | before%s | after%s | between "
	    "| q | path |\n|---|---|---|---|---|---|---|\n", r->rates ?
	    " (samples/s)" : "", r->rates ? " (samples/s)" : "");
	for (i = 0; i < r->nchanges && i < sr->nshow; i++) {
		const struct series_change *c = &r->changes[i];

		fprintf(fp, "| %s | ", verdict_name(c->verdict));
		report_put_md(fp, s->names[c->fid]);
		fmt_level(b, sizeof(b), r, c->before);
		fmt_level(lo, sizeof(lo), r, c->before_lo);
		fmt_level(hi, sizeof(hi), r, c->before_hi);
		fprintf(fp, " %s | %s [%s, %s] | ", c->cum ? "cum" : "flat",
		    b, lo, hi);
		fmt_level(a, sizeof(a), r, c->after);
		fmt_level(lo, sizeof(lo), r, c->after_lo);
		fmt_level(hi, sizeof(hi), r, c->after_hi);
		fprintf(fp, "%s [%s, %s] | ", a, lo, hi);
		report_put_md(fp, s->pts[c->at - 1].label);
		fputs(" → ", fp);
		report_put_md(fp, s->pts[c->at].label);
		if (c->verdict == SERIES_TRANSIENT) {
			fputs(", back at ", fp);
			report_put_md(fp, s->pts[c->until].label);
		}
		fprintf(fp, " | %.3g | ", c->q);
		for (j = 0; j < c->npath; j++) {
			if (j > 0)
				fputs(" → ", fp);
			report_put_md(fp, c->path[j]);
		}
		fputs(" |\n", fp);
	}
out:
	if (sr->conclusion != NULL)
		fprintf(fp, "\n**%s**\n", sr->conclusion);
	return ferror(fp) ? -1 : 0;
}

static void
json_num(FILE *fp, const char *key, double v)
{
	if (isfinite(v))
		fprintf(fp, "\"%s\": %.6g", key, v);
	else
		fprintf(fp, "\"%s\": null", key);
}

static void
json_level(FILE *fp, const struct series_result *r, const char *side,
    double v, double lo, double hi)
{
	char	 k[32];
	double	 f = r->rates ? 1 : 100;
	const char *u = r->rates ? "rate" : "pct";

	snprintf(k, sizeof(k), "%s_%s", side, u);
	json_num(fp, k, f * v);
	snprintf(k, sizeof(k), "%s_%s_ci_low", side, u);
	fputs(", ", fp);
	json_num(fp, k, f * lo);
	snprintf(k, sizeof(k), "%s_%s_ci_high", side, u);
	fputs(", ", fp);
	json_num(fp, k, f * hi);
}

static void
json_change(FILE *fp, const struct series_report *sr,
    const struct series_change *c)
{
	const struct series	*s = sr->s;
	size_t			 i;

	fprintf(fp, "    {\"verdict\": \"%s\", \"function\": ",
	    verdict_name(c->verdict));
	report_put_json(fp, s->names[c->fid]);
	fprintf(fp, ", \"view\": \"%s\", \"path\": [", c->cum ? "cum" :
	    "flat");
	for (i = 0; i < c->npath; i++) {
		if (i > 0)
			fputs(", ", fp);
		report_put_json(fp, c->path[i]);
	}
	fprintf(fp, "], \"at\": %zu, ", c->at);
	if (c->verdict == SERIES_TRANSIENT)
		fprintf(fp, "\"until\": %zu, ", c->until);
	json_level(fp, sr->r, "before", c->before, c->before_lo,
	    c->before_hi);
	fputs(", ", fp);
	json_level(fp, sr->r, "after", c->after, c->after_lo, c->after_hi);
	fputs(", ", fp);
	json_num(fp, "p_value", c->p);
	fputs(", ", fp);
	json_num(fp, "q_value", c->q);
	fputs(", \"carriers\": [", fp);
	for (i = 0; i < c->ncarriers; i++) {
		if (i > 0)
			fputs(", ", fp);
		report_put_json(fp, s->names[c->carriers[i]]);
	}
	fputs("], \"parts\": [", fp);
	for (i = 0; i < c->nparts; i++) {
		if (i > 0)
			fputs(", ", fp);
		report_put_json(fp, s->names[c->parts[i]]);
	}
	fputs("], \"crowded\": [", fp);
	for (i = 0; i < c->ncrowded; i++) {
		if (i > 0)
			fputs(", ", fp);
		report_put_json(fp, s->names[c->crowded[i]]);
	}
	fputs("]}", fp);
}

static int
series_json(FILE *fp, const struct series_report *sr)
{
	const struct series_result	*r = sr->r;
	const struct series		*s = sr->s;
	size_t				 i;

	fprintf(fp, "{\n  \"command\": \"%s\",\n  \"sample_type\": ",
	    sr->gate ? "check-series" : "series");
	report_put_json(fp, sr->sample_type);
	fprintf(fp, ",\n  \"model\": \"%s\",\n  \"alpha\": %g,\n",
	    r->rates ? "rates" : "shares", sr->alpha);
	fprintf(fp, "  \"scanned\": %zu,\n  \"tests\": %zu,\n  "
	    "\"split_points\": %zu,\n  \"discoveries\": %zu,\n  ",
	    r->nfuncs, r->nhyps, r->nsplits, r->rejected);
	json_num(fp, "dispersion", r->phi);
	fputs(",\n  ", fp);
	json_num(fp, "ci_level", r->ci_level);
	if (sr->gate)
		fprintf(fp, ",\n  \"exit_status\": %d", sr->exit_status);
	report_warnings_json(fp, sr->warnings, 1);
	report_symbols_json(fp, sr->sym);
	fputs(",\n  \"points\": [\n", fp);
	for (i = 0; i < s->npts; i++) {
		fprintf(fp, "    {\"index\": %zu, \"operand\": ", i);
		report_put_json(fp, s->pts[i].label);
		fprintf(fp, ", \"time_nanos\": %lld, \"samples\": %lld, "
		    "\"seconds\": %.6g, \"profiles\": %zu}%s\n",
		    (long long)s->pts[i].time_ns, (long long)s->pts[i].n,
		    s->pts[i].seconds, s->pts[i].nrep,
		    i + 1 < s->npts ? "," : "");
	}
	fputs("  ],\n  \"changes\": [", fp);
	for (i = 0; i < r->nchanges && i < sr->nshow; i++) {
		fputs(i > 0 ? ",\n" : "\n", fp);
		json_change(fp, sr, &r->changes[i]);
	}
	fputs(i > 0 ? "\n  ]\n}\n" : "]\n}\n", fp);
	return ferror(fp) ? -1 : 0;
}

#define SVG_W		640
#define SVG_H		170	/* a chart, with its title */
#define SVG_PAD		40
#define SVG_TOP		34
#define SVG_TITLE_C	84	/* characters of a chart's title, at 12px */

/* The x of point t, and the y of level v in a chart of top y0. */
static double
svg_x(size_t t, size_t T)
{
	return SVG_PAD + (T > 1 ? (double)t / (double)(T - 1) : 0.5) *
	    (SVG_W - 2 * SVG_PAD);
}

static double
svg_y(double v, double vmax, double y0)
{
	double h = SVG_H - SVG_TOP - 20;

	return y0 + SVG_TOP + h - (vmax > 0 ? v / vmax : 0) * h;
}

/*
 * A segment's level, from half a step before its first point to half a
 * step after its last, so that a segment of one point shows too.
 */
static void
svg_segment(FILE *fp, size_t from, size_t to, double v, double vmax,
    double y0, size_t T)
{
	double	 h = T > 1 ? (svg_x(1, T) - svg_x(0, T)) / 2 : 0;
	double	 x0 = svg_x(from, T) - h, x1 = svg_x(to - 1, T) + h;
	double	 y = svg_y(v, vmax, y0);

	x0 = x0 < SVG_PAD ? SVG_PAD : x0;
	x1 = x1 > SVG_W - SVG_PAD ? SVG_W - SVG_PAD : x1;
	fprintf(fp, "<line class=\"lv\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
	    "y2=\"%.1f\"/>\n", x0, y, x1, y);
}

/*
 * Change c's chart, the k-th; lv, lvlo and lvhi have room for a level
 * at each point, worked out here (series_levels()).
 */
static void
svg_chart(FILE *fp, const struct series_report *sr,
    const struct series_change *c, size_t k, double *lv, double *lvlo,
    double *lvhi)
{
	const struct series	*s = sr->s;
	const char		*v = verdict_name(c->verdict);
	size_t			 t, T = s->npts, used;
	double			 y0 = (double)k * SVG_H, vmax = 0, x;
	char			 b[32], a[32], *rest, *name;

	series_levels(s, sr->r, c, lv, lvlo, lvhi);
	for (t = 0; t < T; t++)
		if (isfinite(lvhi[t]) && lvhi[t] > vmax)
			vmax = lvhi[t];
	fmt_level(b, sizeof(b), sr->r, c->before);
	fmt_level(a, sizeof(a), sr->r, c->after);
	/*
	 * "verdict: name (cum), 1.01% to 20.41%, q 2.83e-90", the name
	 * elided to fit the chart, the whole title its tooltip then.
	 */
	xasprintf(&rest, " (%s), %s to %s, q %.3g", c->cum ? "cum" : "flat",
	    b, a, c->q);
	used = strlen(v) + 2 + strlen(rest);
	name = report_elide(s->names[c->fid], used < SVG_TITLE_C ?
	    SVG_TITLE_C - used : 0);
	fputs("<g class=\"chart ", fp);
	report_put_xml(fp, v, SIZE_MAX);
	fprintf(fp, "\">\n<text x=\"%d\" y=\"%.1f\">", SVG_PAD, y0 + 18);
	if (strcmp(name, s->names[c->fid]) != 0) {
		fputs("<title>", fp);
		report_put_xmlf(fp, "%s: ", v);
		report_put_xml(fp, s->names[c->fid], SIZE_MAX);
		report_put_xmlf(fp, "%s", rest);
		fputs("</title>", fp);
	}
	report_put_xmlf(fp, "%s: ", v);
	report_put_xml(fp, name, SIZE_MAX);
	report_put_xmlf(fp, "%s", rest);
	fputs("</text>\n", fp);
	free(name);
	free(rest);
	fprintf(fp, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
	    "y2=\"%.1f\"/>\n", SVG_PAD, svg_y(0, vmax, y0), SVG_W - SVG_PAD,
	    svg_y(0, vmax, y0));
	fmt_level(b, sizeof(b), sr->r, vmax);
	fprintf(fp, "<text class=\"tick\" x=\"2\" y=\"%.1f\">",
	    svg_y(vmax, vmax, y0) + 4);
	report_put_xmlf(fp, "%s", b);
	fputs("</text>\n", fp);
	fprintf(fp, "<text class=\"tick\" x=\"2\" y=\"%.1f\">0</text>\n"
	    "<text class=\"tick\" x=\"%d\" y=\"%.1f\">operand 1</text>\n"
	    "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">"
	    "operand %zu</text>\n", svg_y(0, vmax, y0) + 4, SVG_PAD,
	    svg_y(0, vmax, y0) + 14, SVG_W - SVG_PAD, svg_y(0, vmax, y0) + 14,
	    T);
	for (t = 0; t < T; t++) {
		if (isnan(lv[t]))
			continue;
		x = svg_x(t, T);
		fprintf(fp, "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\"/><circle cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"2.5\"><title>", x, svg_y(lvlo[t], vmax, y0), x,
		    svg_y(isfinite(lvhi[t]) ? lvhi[t] : vmax, vmax, y0),
		    x, svg_y(lv[t], vmax, y0));
		report_put_xml(fp, s->pts[t].label, SIZE_MAX);
		fmt_level(b, sizeof(b), sr->r, lv[t]);
		report_put_xmlf(fp, ": %s", b);
		fputs("</title></circle>\n", fp);
	}
	svg_segment(fp, c->from, c->at, c->before, vmax, y0, T);
	svg_segment(fp, c->at, c->to, c->after, vmax, y0, T);
	x = (svg_x(c->at - 1, T) + svg_x(c->at, T)) / 2;
	fprintf(fp, "<line class=\"cp\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
	    "y2=\"%.1f\"/>\n", x, y0 + SVG_TOP - 6, x, svg_y(0, vmax, y0));
	if (c->verdict == SERIES_TRANSIENT) {
		x = (svg_x(c->until - 1, T) + svg_x(c->until, T)) / 2;
		fprintf(fp, "<line class=\"cp\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\"/>\n", x, y0 + SVG_TOP - 6, x,
		    svg_y(0, vmax, y0));
	}
	fputs("</g>\n", fp);
}

static int
series_svg(FILE *fp, const struct series_report *sr)
{
	const struct series_result	*r = sr->r;
	size_t				 i, n, T = sr->s->npts;
	double				*lv;

	n = r->nchanges < sr->nshow ? r->nchanges : sr->nshow;
	/* One chart's levels at a time: lv, then its lows and highs. */
	lv = xreallocarray(NULL, 3 * (T + 1), sizeof(*lv));
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%zu\" viewBox=\"0 0 %d %zu\">\n", SVG_W,
	    (n > 0 ? n : 1) * SVG_H, SVG_W, (n > 0 ? n : 1) * SVG_H);
	fputs("<style>text{font:12px sans-serif}.tick{font-size:10px;"
	    "fill:#555}.axis{stroke:#999}.ci{stroke:#8aa}.lv{stroke:#d62;"
	    "stroke-width:2}.cp{stroke:#333;stroke-dasharray:4 3}"
	    "circle{fill:#246}</style>\n", fp);
	if (n == 0)
		fprintf(fp, "<text x=\"%d\" y=\"40\">No change along the "
		    "sequence of %zu points.</text>\n", SVG_PAD, sr->s->npts);
	for (i = 0; i < n; i++)
		svg_chart(fp, sr, &r->changes[i], i, lv, lv + T + 1,
		    lv + 2 * (T + 1));
	free(lv);
	fputs("</svg>\n", fp);
	return ferror(fp) ? -1 : 0;
}

/* The table's writers: each takes the struct series_report it is for. */
static int
write_text(FILE *fp, const void *sr)
{
	return series_text(fp, sr);
}

static int
write_markdown(FILE *fp, const void *sr)
{
	return series_markdown(fp, sr);
}

static int
write_json(FILE *fp, const void *sr)
{
	return series_json(fp, sr);
}

/* The SVG is of levels, one chart a change: no flame graph, no tree. */
static int
write_svg(FILE *fp, const void *sr)
{
	return series_svg(fp, sr);
}

const struct report_writer report_series_formats[] = {
	{ .format = FMT_TEXT, .write = write_text },
	{ .format = FMT_JSON, .write = write_json },
	{ .format = FMT_MARKDOWN, .write = write_markdown },
	{ .format = FMT_SVG, .write = write_svg },
	{ .write = NULL },
};

/*
 * The spans' part of a diff report (profdiff spans): per side, how many
 * spans and how many had samples, their durations' quantiles, the value
 * per span and the share of the duration it covers; then whether the
 * slow spans computed more or waited, and the runtime's rows that grow
 * with a span's length.  Written as text, Markdown and JSON, under the
 * header of the diff.  Nothing here is computed but formatting.
 */
#include <math.h>
#include <stdio.h>

#include "report/report.h"
#include "support/units.h"

static const char *const side_name[2] = { "fast", "slow" };

/* A duration in ns, as pprof prints one. */
static void
dur(char *buf, size_t len, int64_t ns)
{
	units_label(buf, len, ns, "nanoseconds", "auto");
}

/* A value per span, in the sample type's unit. */
static void
per_span(char *buf, size_t len, double v, const struct diff_report *r)
{
	units_label(buf, len, (int64_t)llround(v), r->unit,
	    r->out_unit != NULL ? r->out_unit : "auto");
}

static void
side_text(FILE *fp, const struct diff_report *r, int i, const char *lead)
{
	const struct report_spans	*s = r->spans;
	const struct report_spans_side	*x = &s->side[i];
	char	 a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ],
		 v[UNITS_BUFSZ];

	dur(a, sizeof(a), x->p50);
	dur(b, sizeof(b), x->p90);
	dur(c, sizeof(c), x->p99);
	per_span(v, sizeof(v), x->cpu, r);
	fprintf(fp, "%s%zu %s spans (%zu with samples), duration p50 %s, "
	    "p90 %s, p99 %s; %s per span", lead, x->n, side_name[i], x->with,
	    a, b, c, v);
	if (isfinite(x->covered))
		fprintf(fp, ", %.1f%% of their duration", 100 * x->covered);
	fputc('\n', fp);
}

/*
 * Both sides' lines under lead, then what went to neither side, if any
 * did, naming label there unless it is NULL (Markdown's line does not).
 */
static void
sides(FILE *fp, const struct diff_report *r, const char *lead,
    const char *label)
{
	const struct report_spans *s = r->spans;
	char	 a[UNITS_BUFSZ], b[UNITS_BUFSZ];

	side_text(fp, r, 0, lead);
	side_text(fp, r, 1, lead);
	if (s->unlabeled > 0 || s->unmatched > 0) {
		per_span(a, sizeof(a), (double)s->unlabeled, r);
		per_span(b, sizeof(b), (double)s->unmatched, r);
		fprintf(fp, "%sneither side: %s of samples without the label",
		    lead, a);
		if (label != NULL)
			fprintf(fp, " %s", label);
		fprintf(fp, ", %s of spans not taken\n", b);
	}
}

/*
 * The runtime's rows that grow with a span's length after head, each
 * escaped by put, on one line; nothing when there is none.
 */
static void
lengths(FILE *fp, const struct report_spans *s, const char *head,
    void (*put)(FILE *, const char *))
{
	size_t	 i;

	for (i = 0; i < s->nlength; i++) {
		fputs(i == 0 ? head : ", ", fp);
		put(fp, s->length[i]);
	}
	if (s->nlength > 0)
		fputc('\n', fp);
}

void
report_spans_text(FILE *fp, const struct diff_report *r)
{
	const struct report_spans *s = r->spans;
	char	 t[UNITS_BUFSZ];

	if (s == NULL)
		return;
	dur(t, sizeof(t), s->threshold_ns);
	fprintf(fp, "Spans: %s (%s), ", s->trace, s->format);
	if (s->name != NULL) {
		fputs("spans named ", fp);
		report_put_text(fp, s->name);
	} else
		fputs("every span name with samples", fp);
	fprintf(fp, ", label %s; slow: %s%s at or above %s\n", s->label,
	    s->slow[0] == 'p' ? "the " : "", s->slow, t);
	sides(fp, r, "  ", s->label);
	fprintf(fp, "  %s\n", s->say);
	lengths(fp, s, "  grows with a span's length, not its code: ",
	    report_put_text);
}

void
report_spans_md(FILE *fp, const struct diff_report *r)
{
	const struct report_spans *s = r->spans;
	char	 t[UNITS_BUFSZ];

	if (s == NULL)
		return;
	dur(t, sizeof(t), s->threshold_ns);
	fputs("- **Spans**: ", fp);
	report_put_md(fp, s->trace);
	fprintf(fp, " (%s), ", s->format);
	if (s->name != NULL) {
		fputs("spans named `", fp);
		report_put_md(fp, s->name);
		fputs("`", fp);
	} else
		fputs("every span name with samples", fp);
	fprintf(fp, ", label `%s`; slow: %s at or above %s\n", s->label,
	    s->slow, t);
	sides(fp, r, "  - ", NULL);
	fprintf(fp, "- **%s**: %s\n", s->verdict, s->say);
	lengths(fp, s, "- Grows with a span's length, not its code: ",
	    report_put_md);
}

static void
side_json(FILE *fp, const struct report_spans_side *x)
{
	fprintf(fp, "{\"spans\":%zu,\"with_samples\":%zu,\"replicates\":%zu,"
	    "\"duration_ns\":{\"p50\":%lld,\"p90\":%lld,\"p99\":%lld,"
	    "\"mean\":", x->n, x->with, x->parts, (long long)x->p50,
	    (long long)x->p90, (long long)x->p99);
	report_put_num(fp, x->mean_ns);
	fputs("},\"value_per_span\":", fp);
	report_put_num(fp, x->cpu);
	fputs(",\"duration_covered\":", fp);
	report_put_num(fp, x->covered);
	fputc('}', fp);
}

void
report_spans_json(FILE *fp, const struct diff_report *r)
{
	const struct report_spans *s = r->spans;
	size_t i;

	if (s == NULL)
		return;
	fputs(",\"spans\":{\"trace\":", fp);
	report_put_json(fp, s->trace);
	fputs(",\"format\":", fp);
	report_put_json(fp, s->format);
	fputs(",\"span_name\":", fp);
	if (s->name != NULL)
		report_put_json(fp, s->name);
	else
		fputs("null", fp);
	fputs(",\"label\":", fp);
	report_put_json(fp, s->label);
	fputs(",\"split\":", fp);
	report_put_json(fp, s->slow);
	fprintf(fp, ",\"threshold_ns\":%lld,\"fast\":",
	    (long long)s->threshold_ns);
	side_json(fp, &s->side[0]);
	fputs(",\"slow\":", fp);
	side_json(fp, &s->side[1]);
	fprintf(fp, ",\"value_unlabeled\":%lld,\"value_unmatched\":%lld",
	    (long long)s->unlabeled, (long long)s->unmatched);
	fputs(",\"value_ratio\":", fp);
	report_put_num(fp, s->ratio);
	fputs(",\"value_p\":", fp);
	report_put_num(fp, s->p);
	fputs(",\"verdict\":", fp);
	report_put_json(fp, s->verdict);
	fputs(",\"says\":", fp);
	report_put_json(fp, s->say);
	fputs(",\"grows_with_length\":[", fp);
	for (i = 0; i < s->nlength; i++) {
		if (i > 0)
			fputc(',', fp);
		report_put_json(fp, s->length[i]);
	}
	fputs("]}", fp);
}

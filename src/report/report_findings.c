/*
 * A diff's findings as the text and Markdown reports lead with them
 * (report.h): each finding's line, its path, and what it holds under
 * it: the calls its change went through, the findings that joined it,
 * the callees that moved into its own frames, the runtime's work it
 * moved, and what it crowded.  JSON writes the same lists as members
 * (report_diff.c).  Every number was computed in findings.c.
 */
#include <stdio.h>
#include <string.h>

#include "core/delta.h"
#include "core/runtime.h"
#include "report/report.h"
#include "support/units.h"

/* The lead of a finding's crowded rows, after the indent ("   " or "; "). */
static const char *
crowded_lead(enum verdict v, const struct diff_report *r)
{
	if (r->d->exposure)
		return v == VERDICT_CROWDED_OUT ? "fell with it:" :
		    "rose with it:";
	return v == VERDICT_CROWDED_OUT ? "crowded out:" : "crowded in:";
}

/* A finding's path, outermost first, and whether its function came or went. */
static void
put_finding_path(FILE *fp, const struct delta *d,
    const struct delta_finding *f, const char *sep,
    void (*put)(FILE *, const char *))
{
	const struct delta_row *x = &d->rows[f->row];
	size_t i;

	for (i = 0; i < f->npath; i++) {
		if (i > 0)
			fputs(sep, fp);
		put(fp, d->rows[f->path[i]].name);
	}
	if (x->status == STATUS_NEW)
		fputs(" (new)", fp);
	else if (x->status == STATUS_GONE)
		fputs(" (gone)", fp);
}

/* "regressed +33.0pp [+30.2, +36.0] q 1.5e-111", or with "flat". */
static void
fmt_finding(char *buf, size_t len, const struct delta_finding *f,
    const struct diff_report *r)
{
	char q[16], dl[UNITS_BUFSZ + 8], ci[2 * UNITS_BUFSZ + 24];

	report_put_p(q, sizeof(q), f->q);
	if (r->d->exposure)
		report_diff_delta(dl, sizeof(dl), f->delta * r->d->level, r);
	else {
		units_signed(dl, sizeof(dl), 100 * f->delta, 1);
		strlcat(dl, "pp", sizeof(dl));
	}
	report_diff_interval(ci, sizeof(ci), f->lo, f->hi, r, 1);
	snprintf(buf, len, "%s %s%s %s q %s", report_verdict_name(f->verdict), dl,
	    f->hyp == DELTA_HYP_FLAT ? " flat" : "", ci, q);
}

/* A change of the engine's shares as the findings write it. */
static void
fmt_change(char *buf, size_t len, double change, const struct diff_report *r)
{
	if (r->d->exposure)
		report_diff_delta(buf, len, r->d->level * change, r);
	else {
		units_signed(buf, len, 100 * change, 1);
		strlcat(buf, "pp", len);
	}
}

/*
 * The rows finding f crowded with verdict v, the first max of them,
 * after lead ("crowded out:" or "crowded in:"), each as its change and
 * its name written by put; "and N more" after them.  Returns how many.
 */
static size_t
put_crowded(FILE *fp, const struct diff_report *r,
    const struct delta_finding *f, enum verdict v, size_t max,
    const char *lead, void (*put)(FILE *, const char *))
{
	const struct delta *d = r->d;
	char	 dl[UNITS_BUFSZ + 8];
	size_t	 i, n = 0;

	for (i = 0; i < f->ncrowded; i++) {
		const struct delta_row *c = &d->rows[f->crowded[i]];

		if (c->verdict != v)
			continue;
		if (n++ < max) {
			fmt_change(dl, sizeof(dl), delta_row_change(c), r);
			fprintf(fp, "%s %s ", n == 1 ? lead : ",", dl);
			put(fp, c->name);
		}
	}
	if (n > max)
		fprintf(fp, " and %zu more", n - max);
	return n;
}

/*
 * Parts of a finding (delta.h, struct delta_part), each its change and
 * row, the first max of them after lead.  Returns how many there are.
 */
static size_t
put_parts(FILE *fp, const struct diff_report *r, const struct delta_part *p,
    size_t n, size_t max, const char *lead, void (*put)(FILE *, const char *))
{
	char	 dl[UNITS_BUFSZ + 8];
	size_t	 i;

	for (i = 0; i < n && i < max; i++) {
		fmt_change(dl, sizeof(dl), p[i].change, r);
		fprintf(fp, "%s %s ", i == 0 ? lead : ",", dl);
		put(fp, r->d->rows[p[i].row].name);
	}
	if (n > max)
		fprintf(fp, " and %zu more", n - max);
	return n;
}

/*
 * Where a change of a function's cum is: its calls into the finding's
 * rows (delta.h, under), the first max of them after lead.  Returns how
 * many there are.
 */
static size_t
put_under(FILE *fp, const struct diff_report *r,
    const struct delta_finding *f, size_t max, const char *lead,
    void (*put)(FILE *, const char *))
{
	return put_parts(fp, r, f->under, f->nunder, max, lead, put);
}

/*
 * The findings that entered through the same calls as f and joined it
 * (delta.h, joined), the first max after lead, and where they entered.
 * Returns how many.
 */
static size_t
put_joined(FILE *fp, const struct diff_report *r,
    const struct delta_finding *f, size_t max, const char *lead,
    void (*put)(FILE *, const char *))
{
	if (f->njoined == 0)
		return 0;
	fputs(lead, fp);
	if (f->entry != SIZE_MAX) {
		fputs("entered through the calls of ", fp);
		put(fp, r->d->rows[f->entry].name);
		fputs(", with", fp);
	} else
		fputs("with it", fp);
	return put_parts(fp, r, f->joined, f->njoined, max, ":", put);
}

/*
 * The runtime's work that finding f moved (delta.h, background: the
 * collection its allocations made, the scheduling its work changed),
 * the first max of them after lead and what they are.  Returns how
 * many.
 */
static size_t
put_background(FILE *fp, const struct diff_report *r,
    const struct delta_finding *f, size_t max, const char *lead,
    void (*put)(FILE *, const char *))
{
	char	 dl[UNITS_BUFSZ + 8];
	size_t	 i, k;
	int	 seen[RT_NCLASS] = { 0 }, n = 0;
	enum rt_frame what;

	if (f->nbackground == 0)
		return 0;
	fputs(lead, fp);
	for (i = 0; i < f->nbackground; i++)
		if (r->d->rows[f->background[i]].runtime < RT_NCLASS)
			seen[r->d->rows[f->background[i]].runtime] = 1;
	for (k = 0; k < RT_NCLASS; k++) {
		what = (enum rt_frame)k;
		if (!seen[k] || rt_frame_what(what) == NULL)
			continue;
		fprintf(fp, "%s%s", n++ ? " and " : "", rt_frame_what(what));
	}
	fputs(" it moved:", fp);
	for (i = 0; i < f->nbackground && i < max; i++) {
		fmt_change(dl, sizeof(dl),
		    delta_row_change(&r->d->rows[f->background[i]]), r);
		fprintf(fp, "%s %s ", i == 0 ? "" : ",", dl);
		put(fp, r->d->rows[f->background[i]].name);
	}
	if (f->nbackground > max)
		fprintf(fp, " and %zu more", f->nbackground - max);
	return f->nbackground;
}

/*
 * What a finding of the C library's waits alone is.  (The scheduler's
 * moves alone are no finding: findings.c sets them aside.)
 */
#define WAIT_NOTE	"waiting, not code: the CPU of going to sleep " \
	"and waking follows how often the threads wait, so it fails no gate"
#define LOAD_NOTE(f)	(delta_finding_gates(f) ? NULL : WAIT_NOTE)

/*
 * What finding f holds, after its line: its note, the calls its change
 * went through, the findings that joined it, the callees that moved
 * into its frames, the runtime's work it moved and what it crowded,
 * each part that has any after in and before end, the first max names
 * of each written by put.
 */
static void
put_holds(FILE *fp, const struct diff_report *r,
    const struct delta_finding *f, const char *in, const char *end,
    size_t max, void (*put)(FILE *, const char *))
{
	static const enum verdict crowd[] = {
		VERDICT_CROWDED_OUT, VERDICT_CROWDED_IN,
	};
	char	 lead[64];
	size_t	 k;

	if (LOAD_NOTE(f) != NULL)
		fprintf(fp, "%s%s%s", in, LOAD_NOTE(f), end);
	snprintf(lead, sizeof(lead), "%sunder it:", in);
	if (put_under(fp, r, f, max, lead, put) > 0)
		fputs(end, fp);
	if (put_joined(fp, r, f, max, in, put) > 0)
		fputs(end, fp);
	snprintf(lead, sizeof(lead), "%smoved into its callers' own frames:",
	    in);
	if (put_parts(fp, r, f->moved, f->nmoved, max, lead, put) > 0)
		fputs(end, fp);
	if (put_background(fp, r, f, max, in, put) > 0)
		fputs(end, fp);
	for (k = 0; k < sizeof(crowd) / sizeof(crowd[0]); k++) {
		snprintf(lead, sizeof(lead), "%s%s", in,
		    crowded_lead(crowd[k], r));
		if (put_crowded(fp, r, f, crowd[k], max, lead, put) > 0)
			fputs(end, fp);
	}
}

/*
 * The findings, one line each, then what each holds, as the text
 * report leads with them: the changes the rows add up to.
 */
void
report_findings_text(FILE *fp, const struct diff_report *r)
{
	const struct delta *d = r->d;
	char	 buf[320];
	size_t	 i;

	if (d->nfindings == 0)
		return;
	fputc('\n', fp);
	for (i = 0; i < d->nfindings; i++) {
		const struct delta_finding *f = &d->findings[i];
		const char *color = !r->color ? NULL :
		    f->verdict == VERDICT_REGRESSED ? REPORT_RED : REPORT_GREEN;

		fmt_finding(buf, sizeof(buf), f, r);
		fprintf(fp, "#%zu %s%s%s  ", i + 1, color ? color : "", buf,
		    color ? REPORT_RESET : "");
		put_finding_path(fp, d, f, " -> ", report_put_text);
		fputc('\n', fp);
		put_holds(fp, r, f, "   ", "\n", 3, report_put_text);
	}
}

/* The findings as a numbered list, the summary an incident note needs. */
void
report_findings_md(FILE *fp, const struct diff_report *r)
{
	const struct delta *d = r->d;
	char	 buf[320];
	size_t	 i;

	if (d->nfindings == 0)
		return;
	fputs("\n### Findings\n\n", fp);
	for (i = 0; i < d->nfindings; i++) {
		const struct delta_finding *f = &d->findings[i];

		fmt_finding(buf, sizeof(buf), f, r);
		fprintf(fp, "%zu. **%s**: ", i + 1, buf);
		put_finding_path(fp, d, f, " → ", report_put_md);
		put_holds(fp, r, f, "; ", "", 5, report_put_md);
		fputc('\n', fp);
	}
}

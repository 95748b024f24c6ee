/*
 * The diff and check-significance reports: text for terminals (aligned
 * columns, colour only when asked or on a terminal), Markdown for
 * incident notes, JSON for scripts (schema in profdiff.1) and CSV, or
 * the flame graph writers with the same header: report_diff_formats[]
 * says which writes each format.  Every number printed here was
 * computed in delta.c and stats.c.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/delta.h"
#include "core/runtime.h"
#include "report/report.h"
#include "report/report_flame.h"
#include "support/units.h"


/* What a value is printed in: --unit's, else each its own best unit. */
static const char *
to_unit(const struct diff_report *r)
{
	return r->out_unit != NULL ? r->out_unit : "auto";
}

/* The totals of the facts: --unit's, unless it leaves them as they were. */
static const char *
facts_unit(const struct diff_report *r)
{
	return r->out_unit != NULL && strcmp(r->out_unit, "minimum") != 0 ?
	    r->out_unit : NULL;
}

/* A normalized value: a share in percent, a rate, or a raw value. */
static void
fmt_norm(char *buf, size_t len, double v, const struct diff_report *r)
{
	char u[UNITS_BUFSZ];

	switch (r->norm) {
	case DELTA_NORM_TOTAL:
		snprintf(buf, len, "%.2f%%", 100 * v);
		break;
	case DELTA_NORM_DURATION:
	case DELTA_NORM_REQUESTS:
		units_label(u, sizeof(u), (int64_t)llround(v), r->unit,
		    to_unit(r));
		snprintf(buf, len, "%s/%s", u, r->norm == DELTA_NORM_DURATION ?
		    "s" : r->spans != NULL ? "span" : "req");
		break;
	default:
		units_label(buf, len, (int64_t)llround(v), r->unit, to_unit(r));
		break;
	}
}

static void
fmt_delta(char *buf, size_t len, double v, const struct diff_report *r)
{
	char u[UNITS_BUFSZ];

	switch (r->norm) {
	case DELTA_NORM_TOTAL:
		units_signed(u, sizeof(u), 100 * v, 2);
		snprintf(buf, len, "%spp", u);
		break;
	case DELTA_NORM_DURATION:
	case DELTA_NORM_REQUESTS:
		units_label(u, sizeof(u), (int64_t)llround(fabs(v)), r->unit,
		    to_unit(r));
		snprintf(buf, len, "%s%s/%s", units_sign(v, u), u,
		    r->norm == DELTA_NORM_DURATION ? "s" : r->spans != NULL ?
		    "span" : "req");
		break;
	default:
		units_label(u, sizeof(u), (int64_t)llround(fabs(v)), r->unit,
		    to_unit(r));
		snprintf(buf, len, "%s%s", units_sign(v, u), u);
		break;
	}
}

/* --min-effect's points as judged: two digits when a wait floored them. */
static void
fmt_pp(char *buf, size_t len, const struct diff_report *r)
{
	snprintf(buf, len, r->h.min_floor > 0 ? "%.2g" : "%g",
	    r->h.min_effect_pp);
}

/*
 * --min-effect's points in the quantity compared: "1pp" of shares, but
 * of rates or values what they are of the level, "9.96ms/s (1pp of the
 * level)", or a wait's floor, "10ms/s (1% of one thread's time; ...)".
 */
void
report_diff_min_effect(char *buf, size_t len, const struct diff_report *r)
{
	char	 pp[32], v[UNITS_BUFSZ + 8];

	fmt_pp(pp, sizeof(pp), r);
	if (!r->d->exposure || r->d->level <= 0) {
		snprintf(buf, len, "%spp", pp);
		return;
	}
	fmt_delta(v, sizeof(v), r->h.min_effect_pp / 100 * r->d->level, r);
	if (r->h.min_floor > 0)
		snprintf(buf, len, "%s (1%% of one thread's time; 1pp of this "
		    "level is more)", v[0] == '+' ? v + 1 : v);
	else
		snprintf(buf, len, "%s (%spp of the level)", v[0] == '+' ?
		    v + 1 : v, pp);
}

static void
fmt_rel(char *buf, size_t len, const struct delta_row *row)
{
	if (row->status == STATUS_NEW)
		snprintf(buf, len, "new");
	else if (row->status == STATUS_GONE)
		snprintf(buf, len, "gone");
	else if (row->rel == HUGE_VAL)
		snprintf(buf, len, "new");
	else {
		units_signed(buf, len, 100 * row->rel, 0);
		strlcat(buf, "%", len);
	}
}

/*
 * An interval of the engine's shares: in points for shares, else in the
 * report's unit (the level turns a share of the pooled level into it).
 */
static void
fmt_interval(char *buf, size_t len, double lo, double hi,
    const struct diff_report *r, int digits)
{
	char a[UNITS_BUFSZ + 8], b[UNITS_BUFSZ + 8];

	if (!r->d->exposure) {
		units_signed(a, sizeof(a), 100 * lo, digits);
		units_signed(b, sizeof(b), 100 * hi, digits);
		snprintf(buf, len, "[%s, %s]", a, b);
		return;
	}
	fmt_delta(a, sizeof(a), lo * r->d->level, r);
	fmt_delta(b, sizeof(b), hi * r->d->level, r);
	snprintf(buf, len, "[%s, %s]", a, b);
}

static void
fmt_ci(char *buf, size_t len, const struct delta_row *row,
    const struct diff_report *r)
{
	if (!row->tested)
		snprintf(buf, len, "-");
	else
		fmt_interval(buf, len, row->st.lo, row->st.hi, r, 2);
}

/* One row's printed cells, shared by the text and Markdown tables. */
struct cells {
	char	 bf[UNITS_BUFSZ + 8], nf[UNITS_BUFSZ + 8];
	char	 bc[UNITS_BUFSZ + 8], nc[UNITS_BUFSZ + 8];
	char	 dl[UNITS_BUFSZ + 8], rel[16], ci[2 * UNITS_BUFSZ + 24], p[16], q[16];
};

static void
fmt_cells(struct cells *c, const struct delta_row *row,
    const struct diff_report *r)
{
	fmt_norm(c->bf, sizeof(c->bf), row->base_flat_n, r);
	fmt_norm(c->nf, sizeof(c->nf), row->new_flat_n, r);
	fmt_norm(c->bc, sizeof(c->bc), row->base_cum_n, r);
	fmt_norm(c->nc, sizeof(c->nc), row->new_cum_n, r);
	fmt_delta(c->dl, sizeof(c->dl), row->delta, r);
	fmt_rel(c->rel, sizeof(c->rel), row);
	fmt_ci(c->ci, sizeof(c->ci), row, r);
	report_put_p(c->p, sizeof(c->p), row->tested ? row->st.p : NAN);
	report_put_p(c->q, sizeof(c->q), row->tested ? row->q : NAN);
}

/* The verdict as scripts read it (JSON, CSV)... */
static const char *
verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_REGRESSED:
		return "regressed";
	case VERDICT_IMPROVED:
		return "improved";
	case VERDICT_UNCHANGED:
		return "unchanged";
	case VERDICT_CROWDED_OUT:
		return "crowded_out";
	case VERDICT_CROWDED_IN:
		return "crowded_in";
	default:
		return "insufficient";
	}
}

/*
 * ...and as people read it (text, Markdown).  Against an exposure
 * (rates, values per request, absolute values) no share is compared, so
 * nothing is crowded: a row that moved only with a finding fell or rose
 * with it.
 */
static const char *
verdict_text(enum verdict v, int exposure)
{
	if (v == VERDICT_UNCHANGED)
		return "~";
	if (v == VERDICT_INSUFFICIENT)
		return "too few samples";
	if (v == VERDICT_CROWDED_OUT)
		return exposure ? "fell with" : "crowded out";
	if (v == VERDICT_CROWDED_IN)
		return exposure ? "rose with" : "crowded in";
	return verdict_name(v);
}

/* Which of a row's hypotheses flagged it, as JSON names it. */
static const char *
hyp_name(int hyp)
{
	switch (hyp) {
	case DELTA_HYP_FLAT:
		return "flat";
	case DELTA_HYP_CUM:
		return "cum";
	case DELTA_HYP_BOTH:
		return "both";
	default:
		return NULL;
	}
}

/* A "runtime" member: what runtime work rt is (runtime.h), or null. */
static void
json_runtime(FILE *fp, int rt)
{
	const char *what = rt_frame_what((enum rt_frame)rt);

	fputs(",\"runtime\":", fp);
	if (what != NULL)
		report_put_json(fp, what);
	else
		fputs("null", fp);
}

/*
 * A row's verdict cell: the verdict, "flat" when only the flat share's
 * test flagged it, and the number of its finding.
 */
static void
fmt_verdict(char *buf, size_t len, const struct delta_row *row,
    const struct diff_report *r)
{
	char n[24] = "";

	if (row->finding >= 0)
		snprintf(n, sizeof(n), " #%ld", row->finding + 1);
	/* Set aside with no finding (the load), or moved (findings.c). */
	else if (row->verdict == VERDICT_UNCHANGED &&
	    (row->runtime == RT_SCHED || row->runtime == RT_THREADS ||
	    row->runtime == RT_PROFILER))
		strlcpy(n, row->runtime == RT_SCHED ? " scheduler" :
		    row->runtime == RT_PROFILER ? " profiler" :
		    " other threads", sizeof(n));
	else if (row->verdict == VERDICT_UNCHANGED && row->moved)
		strlcpy(n, " moved", sizeof(n));
	snprintf(buf, len, "%s%s%s", verdict_text(row->verdict,
	    r->d->exposure),
	    row->hyp == DELTA_HYP_FLAT && (row->verdict == VERDICT_REGRESSED ||
	    row->verdict == VERDICT_IMPROVED) ? " flat" : "", n);
}

/* The sentence on what these sample counts can detect. */
static void
put_detectable(FILE *fp, const struct diff_report *r)
{
	const struct delta *d = r->d;
	char t[16];

	if (!r->h.has_counts) {
		fputs("No sample counts for this sample type: significance "
		    "cannot be tested.\n", fp);
		return;
	}
	if (d->noise < 0) {
		fputs("No function could be tested.\n", fp);
		return;
	}
	report_put_p(t, sizeof(t), d->judge.fdr.threshold);
	if (d->exposure) {
		char nz[UNITS_BUFSZ + 8], md[UNITS_BUFSZ + 8];

		fmt_delta(nz, sizeof(nz), d->noise * d->level, r);
		fmt_delta(md, sizeof(md), d->mde * d->level, r);
		fprintf(fp, "With %" PRId64 " and %" PRId64 " samples, changes "
		    "under %s cannot be told from noise; %s are found 80%% of "
		    "the time (for a function at %.0f%% of the level, and p "
		    "<= %s, what a further finding needs).\n", d->base_n,
		    d->new_n, nz + 1, md + 1, 100 * d->mde_share, t);
		return;
	}
	fprintf(fp, "With %" PRId64 " and %" PRId64 " samples, changes under "
	    "±%.1f points cannot be told from noise; ±%.1f points are found "
	    "80%% of the time (at a %.0f%% share, and p <= %s, what a further "
	    "%s needs).\n", d->base_n, d->new_n, 100 * d->noise,
	    100 * d->mde, 100 * d->mde_share, t, d->rest_n[0] > 0 ?
	    "discovery" : "finding");
	if (d->rest_n[0] <= 0 || d->rest_mde < 0)
		return;
	report_put_p(t, sizeof(t), d->rest_threshold);
	fprintf(fp, "Beside the findings, a change is one of its own if it "
	    "holds on the rest of the profile (%" PRId64 " and %" PRId64
	    " samples) at p <= %s: there, ±%.1f points of a %.0f%% share of "
	    "the rest are found 80%% of the time.\n", d->rest_n[0],
	    d->rest_n[1], t, 100 * d->rest_mde, 100 * d->rest_share);
}

/* The test line, and the filters' line, their expressions written by put. */
static void
put_method(FILE *fp, const struct diff_report *r,
    void (*put)(FILE *, const char *))
{
	const struct judge *j = &r->d->judge;
	char	 me[UNITS_BUFSZ + 96];

	report_diff_min_effect(me, sizeof(me), r);
	fprintf(fp, "Test: %s; Benjamini-Hochberg at %g over the %zu of %zu "
	    "hypotheses that can reach it (Tarone; flat and cum of %zu %s, "
	    "the same samples counted once); %.4g%% intervals (false "
	    "coverage rate %g); minimum effect %s and %g%%.\n",
	    r->h.method, r->h.alpha, j->fdr.kept, r->d->ntested,
	    r->d->nrows, r->by_label ? "label values" : r->granularity,
	    100 * (1 - j->ci_alpha), r->h.alpha, me, r->h.min_effect_rel);
	if (r->h.quantity != NULL)
		fprintf(fp, "Compared: %s.\n", r->h.quantity);
	if (r->h.filters != NULL) {
		fputs("Filters: ", fp);
		put(fp, r->h.filters);
		fprintf(fp, " (they keep %.2f%% of base and %.2f%% of new; "
		    "shares are of %s)\n", 100 * r->base_kept,
		    100 * r->new_kept, r->relative ? "what they keep" :
		    "the whole profiles");
	}
}

/*
 * The table's writers: each takes the struct diff_report the table is
 * for.  The flame graphs draw r->fl under the tables' header.
 */
static int
diff_text(FILE *fp, const void *r)
{
	return report_diff_text(fp, r);
}

static int
diff_json(FILE *fp, const void *r)
{
	return report_diff_json(fp, r);
}

static int
diff_csv(FILE *fp, const void *r)
{
	return report_diff_csv(fp, r);
}

static int
diff_markdown(FILE *fp, const void *r)
{
	return report_diff_markdown(fp, r);
}

static struct flame_report
diff_flame(const struct diff_report *r)
{
	return (struct flame_report){
		.h = r->h,
		.fl = r->fl,
		.width_base = r->width_base,
		.out_unit = r->out_unit,
		.diff = r,
	};
}

static int
diff_svg(FILE *fp, const void *r)
{
	struct flame_report fr = diff_flame(r);

	return report_flame_svg(fp, &fr);
}

static int
diff_folded(FILE *fp, const void *r)
{
	struct flame_report fr = diff_flame(r);

	return report_flame_folded(fp, &fr);
}

const struct report_writer report_diff_formats[] = {
	{ .format = FMT_TEXT, .write = diff_text, .views = 1 },
	{ .format = FMT_JSON, .write = diff_json, .views = 1 },
	{ .format = FMT_CSV, .write = diff_csv },
	{ .format = FMT_MARKDOWN, .write = diff_markdown, .views = 1 },
	{ .format = FMT_FOLDED, .write = diff_folded, .tree = 1 },
	{ .format = FMT_SVG, .write = diff_svg, .tree = 1 },
	{ .write = NULL },
};

/*
 * What one count is called, from the count type: "object" for Go's
 * alloc_objects and inuse_objects, "contention" for contentions.
 */
static const char *
per_name(const struct diff_report *r)
{
	const char *ct = r->h.base->count_type;

	if (strstr(ct, "objects") != NULL)
		return "object";
	if (strstr(ct, "contention") != NULL)
		return "contention";
	return ct;
}

/*
 * "per object: 48B -> 96B [+40B, +52B], each costs more": a row's
 * values per count on each side and the interval of their change, which
 * tells more of the same (a count that grew) from each one costing
 * more; "more" or "less" needs the interval to exclude no change and
 * the change to pass --min-effect's relative part.
 */
static int
fmt_per(char *buf, size_t len, const struct delta_row *row,
    const struct diff_report *r)
{
	char	 a[UNITS_BUFSZ], b[UNITS_BUFSZ], l[UNITS_BUFSZ],
		 h[UNITS_BUFSZ], lo[UNITS_BUFSZ + 2], hi[UNITS_BUFSZ + 2];
	/* Relevant as --min-effect's relative part says, and not noise. */
	double	 rel = row->per_base > 0 ? 100 * fabs(row->per_new /
		    row->per_base - 1) : 0;
	int	 big = rel >= r->h.min_effect_rel;
	int	 up = big && row->per_lo > 0, down = big && row->per_hi < 0;

	if (!row->has_per)
		return 0;
	units_format(a, sizeof(a), (int64_t)llround(row->per_base), r->unit);
	units_format(b, sizeof(b), (int64_t)llround(row->per_new), r->unit);
	units_format(l, sizeof(l), (int64_t)llround(fabs(row->per_lo)),
	    r->unit);
	units_format(h, sizeof(h), (int64_t)llround(fabs(row->per_hi)),
	    r->unit);
	snprintf(lo, sizeof(lo), "%s%s", units_sign(row->per_lo, l), l);
	snprintf(hi, sizeof(hi), "%s%s", units_sign(row->per_hi, h), h);
	snprintf(buf, len, "per %s: %s -> %s [%s, %s], %s", per_name(r), a, b,
	    lo, hi, up ? "each costs more" : down ? "each costs less" :
	    "the same per one");
	return 1;
}

/*
 * The discoveries that --min-effect keeps from being verdicts, the
 * largest relative changes named (delta_small()): a change the counts
 * prove, however small it is against the level, is not hidden.
 */
#define SMALL_NAMED	3

static void
put_small(FILE *fp, const struct diff_report *r, const char *lead,
    void (*put)(FILE *, const char *))
{
	const struct delta *d = r->d;
	size_t	 at[SMALL_NAMED], n, i;
	char	 dl[UNITS_BUFSZ + 8], rel[32], me[UNITS_BUFSZ + 96];

	if ((n = delta_small(d, at, SMALL_NAMED)) == 0)
		return;
	if (d->exposure)
		report_diff_min_effect(me, sizeof(me), r);
	else {
		fmt_pp(me, sizeof(me), r);
		strlcat(me, "pp of the level", sizeof(me));
	}
	fprintf(fp, "%sUnder --min-effect's %s, so not "
	    "verdicts: %zu significant change%s of %g%% or more%s", lead,
	    me, n, n == 1 ? "" : "s", r->h.min_effect_rel,
	    n == 1 ? "," : ", the largest relative");
	for (i = 0; i < n && i < SMALL_NAMED; i++) {
		const struct delta_row *row = &d->rows[at[i]];

		fmt_delta(dl, sizeof(dl), row->delta, r);
		fmt_rel(rel, sizeof(rel), row);
		fprintf(fp, "%s %s (%s) ", i > 0 ? "," : "", dl, rel);
		put(fp, row->name);
	}
	if (n > SMALL_NAMED)
		fprintf(fp, " and %zu more", n - SMALL_NAMED);
	fprintf(fp, "; lower --min-effect, or --focus %s with --relative, "
	    "to judge %s.\n", n == 1 ? "it" : "them", n == 1 ? "it" : "them");
}

/*
 * What leads do to the gate.  check-significance fails only on a
 * regression (or any change, with --fail-on=any-change), so a lead
 * makes it inconclusive only then: said as the conclusion says it
 * (r->lead), never "exits 3" beside "exit 0".  diff says the rule.
 */
static const char *
leads_gate(const struct diff_report *r)
{
	if (r->kind != DIFF_CHECK)
		return " (check-significance exits 3, not 1, where one of "
		    "them would fail it)";
	if (r->lead == REPORT_LEAD_APPROX || r->lead == REPORT_LEAD_LIVE ||
	    r->lead == REPORT_LEAD_UNTIMED)
		return ", so this check is inconclusive (exit 3)";
	return ", and none is a regression, so none decides this check";
}

/*
 * Findings on counts nothing recovered, one profile a side, or on sums
 * over windows of unknown length: leads, said after before.  Findings
 * of waits, one profile a side, get a caveat: between processes, their
 * rates differ by more than their counts show.
 */
static void
put_leads(FILE *fp, const struct diff_report *r, const char *before)
{
	int	 waits = r->waits && !r->approx && !r->untimed &&
		    (r->h.nbase < 2 || r->h.nnew < 2);

	if (r->d->nfindings == 0 || (!r->approx && !r->untimed && !waits))
		return;
	fputs(before, fp);
	if (waits) {
		fputs("Contention rises and falls with load and scheduling, "
		    "which differ between processes by more than these counts "
		    "show: with one profile a side, a finding may be that, not "
		    "the code; compare several profiles per side, taken under "
		    "the same load.\n", fp);
		return;
	}
	if (r->approx_live)
		fputs("These findings compare live-heap snapshots, one a side, "
		    "whose uncollected garbage varies between processes by more "
		    "than their counts show: leads, not proof", fp);
	else if (r->approx)
		fputs("These findings rest on counts the profiler scaled up "
		    "and nothing recovered, with one profile a side: leads, "
		    "not proof", fp);
	else
		fputs("These findings compare sums over windows of unknown "
		    "length, which a longer window makes larger: leads, not "
		    "proof", fp);
	fputs(leads_gate(r), fp);
	fputs(r->approx ? "; compare several profiles per side.\n" :
	    "; give each profile an earlier snapshot of it (--base).\n", fp);
}

int
report_diff_text(FILE *fp, const struct diff_report *r)
{
	const struct delta *d = r->d;
	struct cells c;
	char	 dl[UNITS_BUFSZ + 8], v[32], per[6 * UNITS_BUFSZ];
	size_t	 i, k;

	report_facts_text(fp, r->h.base, "Base: ", r->h.nbase, facts_unit(r));
	report_sel_text(fp, &r->h, 0);
	report_symbols_text(fp, r->h.sym[0], "Base symbols: ");
	report_facts_text(fp, r->h.new, "New:  ", r->h.nnew, facts_unit(r));
	report_sel_text(fp, &r->h, 1);
	report_symbols_text(fp, r->h.sym[1], "New symbols:  ");
	report_spans_text(fp, r);
	put_detectable(fp, r);
	put_method(fp, r, report_put_text);
	report_findings_text(fp, r);
	put_leads(fp, r, "");
	put_small(fp, r, d->nfindings > 0 ? "" : "\n", report_put_text);
	if (r->kind == DIFF_CHECK && r->nshow == 0) {
		report_views_text(fp, r);
		fprintf(fp, "%sResult: %s (exit %d)\n", d->nfindings > 0 ||
		    r->views != NULL ? "\n" : "", r->conclusion,
		    r->exit_status);
		return ferror(fp) ? -1 : 0;
	}
	fprintf(fp, "\n%10s %10s %10s %10s %11s %6s %16s %8s %8s  %-18s %s\n",
	    "base flat", "new flat", "base cum", "new cum", "delta", "rel",
	    d->exposure ? "CI" : "CI (pp)", "p", "q", "verdict", r->by_label ?
	    r->by_label : r->granularity);
	for (k = 0; k < r->nshow; k++) {
		const struct delta_row *row = &d->rows[r->order[k]];
		const char *color = NULL;

		fmt_cells(&c, row, r);
		fmt_verdict(v, sizeof(v), row, r);
		if (r->color && row->verdict == VERDICT_REGRESSED)
			color = REPORT_RED;
		else if (r->color && row->verdict == VERDICT_IMPROVED)
			color = REPORT_GREEN;
		fprintf(fp, "%10s %10s %10s %10s %11s %6s %16s %8s %8s  %s%-18s%s ",
		    c.bf, c.nf, c.bc, c.nc, c.dl, c.rel, c.ci, c.p, c.q,
		    color ? color : "", v, color ? REPORT_RESET : "");
		report_put_text(fp, row->name);
		fputc('\n', fp);
		if (row->npath > 1) {
			fputs("    path: ", fp);
			for (i = 0; i < row->npath; i++) {
				if (i > 0)
					fputs(" -> ", fp);
				report_put_text(fp, row->path[i]);
			}
			fputc('\n', fp);
		}
		for (i = 0; i < row->ncallers; i++) {
			fmt_delta(dl, sizeof(dl), row->callers[i].delta, r);
			fprintf(fp, "    %s %s ", i == 0 ? "callers:" :
			    "        ", dl);
			report_put_text(fp, row->callers[i].name);
			fputc('\n', fp);
		}
		if ((row->verdict == VERDICT_REGRESSED ||
		    row->verdict == VERDICT_IMPROVED) &&
		    fmt_per(per, sizeof(per), row, r))
			fprintf(fp, "    %s\n", per);
	}
	report_views_text(fp, r);
	if (r->kind == DIFF_CHECK)
		fprintf(fp, "\nResult: %s (exit %d)\n", r->conclusion,
		    r->exit_status);
	return ferror(fp) ? -1 : 0;
}

int
report_diff_markdown(FILE *fp, const struct diff_report *r)
{
	const struct delta *d = r->d;
	struct cells c;
	char	 dl[UNITS_BUFSZ + 8], v[32], per[6 * UNITS_BUFSZ];
	size_t	 i, k;

	fprintf(fp, "## profdiff %s\n\n", r->kind == DIFF_CHECK ?
	    "check-significance" : r->spans != NULL ? "spans" : "diff");
	report_facts_md(fp, "Base", r->h.base, r->h.nbase, facts_unit(r));
	report_sel_md(fp, &r->h, 0);
	report_symbols_md(fp, r->h.sym[0], "Base symbols");
	report_facts_md(fp, "New", r->h.new, r->h.nnew, facts_unit(r));
	report_sel_md(fp, &r->h, 1);
	report_symbols_md(fp, r->h.sym[1], "New symbols");
	report_spans_md(fp, r);
	fputs("\n", fp);
	put_detectable(fp, r);
	fputs("\n", fp);
	put_method(fp, r, report_put_md);
	if (r->kind == DIFF_CHECK)
		fprintf(fp, "\n**Result: %s** (exit %d)\n", r->conclusion,
		    r->exit_status);
	report_warnings_md(fp, r->h.warnings);
	report_findings_md(fp, r);
	put_leads(fp, r, "\n");
	put_small(fp, r, "\n", report_put_md);
	if (r->nshow == 0)
		return report_views_markdown(fp, r) == 0 && !ferror(fp) ? 0 :
		    -1;
	fprintf(fp, "\n| base flat | new flat | base cum | new cum | delta | rel | "
	    "%s | p | q | verdict | ", r->d->exposure ? "CI" : "CI (pp)");
	report_put_md_text(fp, r->by_label ? r->by_label : r->granularity);
	fputs(" |\n", fp);
	fputs("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n", fp);
	for (k = 0; k < r->nshow; k++) {
		const struct delta_row *row = &d->rows[r->order[k]];

		fmt_cells(&c, row, r);
		fmt_verdict(v, sizeof(v), row, r);
		fprintf(fp, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | "
		    "%s%s%s | ", c.bf, c.nf, c.bc, c.nc, c.dl, c.rel, c.ci, c.p,
		    c.q, row->verdict == VERDICT_REGRESSED ? "**" : "", v,
		    row->verdict == VERDICT_REGRESSED ? "**" : "");
		report_put_md(fp, row->name);
		fputs(" |\n", fp);
	}
	fputs("\n", fp);
	for (k = 0; k < r->nshow; k++) {
		const struct delta_row *row = &d->rows[r->order[k]];

		if (row->npath <= 1 && row->ncallers == 0 && !row->has_per)
			continue;
		fputs("- ", fp);
		report_put_md(fp, row->name);
		fprintf(fp, " (%s)", verdict_text(row->verdict,
		    r->d->exposure));
		if (row->npath > 1) {
			fputs(": path ", fp);
			for (i = 0; i < row->npath; i++) {
				if (i > 0)
					fputs(" → ", fp);
				report_put_md(fp, row->path[i]);
			}
		}
		for (i = 0; i < row->ncallers; i++) {
			fmt_delta(dl, sizeof(dl), row->callers[i].delta, r);
			fprintf(fp, "%s", i == 0 ? "; callers " : ", ");
			report_put_md(fp, row->callers[i].name);
			fprintf(fp, " %s", dl);
		}
		if ((row->verdict == VERDICT_REGRESSED ||
		    row->verdict == VERDICT_IMPROVED) &&
		    fmt_per(per, sizeof(per), row, r))
			fprintf(fp, "; %s", per);
		fputs("\n", fp);
	}
	report_views_markdown(fp, r);
	return ferror(fp) ? -1 : 0;
}

/* A JSON array of the names of rows[n]. */
static void
json_names(FILE *fp, const struct delta *d, const size_t *rows, size_t n)
{
	size_t i;

	fputc('[', fp);
	for (i = 0; i < n; i++) {
		if (i > 0)
			fputc(',', fp);
		report_put_json(fp, d->rows[rows[i]].name);
	}
	fputc(']', fp);
}

/* The names of the rows f crowded with verdict v, largest first. */
static void
json_crowded(FILE *fp, const struct delta *d, const struct delta_finding *f,
    enum verdict v)
{
	size_t	 i, n = 0;

	fputc('[', fp);
	for (i = 0; i < f->ncrowded; i++) {
		if (d->rows[f->crowded[i]].verdict != v)
			continue;
		if (n++ > 0)
			fputc(',', fp);
		report_put_json(fp, d->rows[f->crowded[i]].name);
	}
	fputc(']', fp);
}

/* A value normalized as --normalize says: only a share has no unit. */
static void
json_norm(FILE *fp, double v, const struct diff_report *r, const char *to)
{
	if (to != NULL && r->norm != DELTA_NORM_TOTAL)
		v = units_scale_f(v, r->unit, to);
	report_put_num(fp, v);
}

/*
 * What a change of the engine's shares is in the rows' unit (delta):
 * a fraction for shares, the pooled level's unit with an exposure.
 */
static double
report_level(const struct diff_report *r)
{
	return r->d->exposure ? r->d->level : 1;
}

/*
 * A finding's parts as [{"name", "delta_pp"}] (pp: the joined findings'
 * tested changes, points of a share) or [{"name", "delta"}] (the rows'
 * unit: its calls' changes).
 */
static void
json_parts(FILE *fp, const struct diff_report *r, const struct delta_part *p,
    size_t n, int pp, const char *to)
{
	size_t	 k;

	fputc('[', fp);
	for (k = 0; k < n; k++) {
		fputs(k > 0 ? ",{\"name\":" : "{\"name\":", fp);
		report_put_json(fp, r->d->rows[p[k].row].name);
		fputs(pp ? ",\"delta_pp\":" : ",\"delta\":", fp);
		if (pp)
			report_put_num(fp, 100 * p[k].change);
		else
			json_norm(fp, report_level(r) * p[k].change, r, to);
		fputc('}', fp);
	}
	fputc(']', fp);
}

/* The findings array: most important first (delta.h). */
static void
put_findings_json(FILE *fp, const struct delta *d, const struct diff_report *r,
    const char *to)
{
	size_t	 i;

	fputs(",\"findings\":[", fp);
	for (i = 0; i < d->nfindings; i++) {
		const struct delta_finding *f = &d->findings[i];
		const struct delta_row *x = &d->rows[f->row];

		/*
		 * "finding" is its number, as the text's #N and the rows'
		 * "finding"; "name" as a row names it, "function" its older
		 * spelling, kept for the scripts that read it.
		 */
		fprintf(fp, "%s{\"finding\":%zu,\"verdict\":", i > 0 ? ",\n" :
		    "\n", i + 1);
		report_put_json(fp, verdict_name(f->verdict));
		fputs(",\"name\":", fp);
		report_put_json(fp, x->name);
		fputs(",\"function\":", fp);
		report_put_json(fp, x->name);
		fputs(",\"status\":", fp);
		report_put_json(fp, x->status == STATUS_NEW ? "new" :
		    x->status == STATUS_GONE ? "gone" : "both");
		fputs(",\"hypothesis\":", fp);
		report_put_json(fp, hyp_name(f->hyp));
		/* What runtime work it is, if not code; and if it gates. */
		json_runtime(fp, f->runtime);
		fprintf(fp, ",\"gates\":%s", delta_finding_gates(f) ?
		    "true" : "false");
		fputs(",\"path\":", fp);
		json_names(fp, d, f->path, f->npath);
		fputs(",\"delta_pp\":", fp);
		report_put_num(fp, 100 * f->delta);
		fputs(",\"ci_low_pp\":", fp);
		report_put_num(fp, 100 * f->lo);
		fputs(",\"ci_high_pp\":", fp);
		report_put_num(fp, 100 * f->hi);
		/* The same in the rows' unit (delta): points or a rate. */
		fputs(",\"delta\":", fp);
		json_norm(fp, report_level(r) * f->delta, r, to);
		fputs(",\"ci_low\":", fp);
		json_norm(fp, report_level(r) * f->lo, r, to);
		fputs(",\"ci_high\":", fp);
		json_norm(fp, report_level(r) * f->hi, r, to);
		fputs(",\"q_value\":", fp);
		report_put_num(fp, f->q);
		fputs(",\"rows\":", fp);
		json_names(fp, d, f->rows, f->nrows);
		fputs(",\"crowded_out\":", fp);
		json_crowded(fp, d, f, VERDICT_CROWDED_OUT);
		fputs(",\"crowded_in\":", fp);
		json_crowded(fp, d, f, VERDICT_CROWDED_IN);
		fputs(",\"background\":", fp);
		json_names(fp, d, f->background, f->nbackground);
		fputs(",\"entry\":", fp);
		if (f->entry != SIZE_MAX)
			report_put_json(fp, d->rows[f->entry].name);
		else
			fputs("null", fp);
		fputs(",\"joined\":", fp);
		json_parts(fp, r, f->joined, f->njoined, 1, to);
		fputs(",\"under\":", fp);
		json_parts(fp, r, f->under, f->nunder, 0, to);
		fputs(",\"moved\":", fp);
		json_parts(fp, r, f->moved, f->nmoved, 0, to);
		fputc('}', fp);
	}
	fputs("]", fp);
}

/*
 * The unit of JSON's and CSV's values for --unit (NULL without one):
 * for minimum and auto, pprof's choice from the rows shown.
 */
static const char *
value_unit(const struct diff_report *r, const char **name)
{
	int64_t	 minval = 0, v, total;
	size_t	 k;
	int	 side;

	for (k = 0; k < r->nshow && r->out_unit != NULL; k++) {
		const struct delta_row *row = &r->d->rows[r->order[k]];

		for (side = 0; side < 2; side++) {
			v = llabs(side ? row->new_flat : row->base_flat);
			if (v == 0)
				v = llabs(side ? row->new_cum : row->base_cum);
			if (v != 0 && (minval == 0 || v < minval))
				minval = v;
		}
	}
	total = r->h.base->total > r->h.new->total ? r->h.base->total :
	    r->h.new->total;
	return report_value_unit(r->out_unit, minval, total, r->unit, name);
}


/* One row of the JSON rows array, after its opening brace. */
static void
put_row_json(FILE *fp, const struct diff_report *r,
    const struct delta_row *row, const char *to)
{
	double	 mde, rest;
	size_t	 i;

	report_put_json(fp, row->name);
	fputs(",\"base_flat\":", fp);
	report_put_value(fp, row->base_flat, r->unit, to);
	fputs(",\"new_flat\":", fp);
	report_put_value(fp, row->new_flat, r->unit, to);
	fputs(",\"base_cum\":", fp);
	report_put_value(fp, row->base_cum, r->unit, to);
	fputs(",\"new_cum\":", fp);
	report_put_value(fp, row->new_cum, r->unit, to);
	fprintf(fp, ",\"base_samples\":%" PRId64 ",\"new_samples\":%"
	    PRId64, row->base_count, row->new_count);
	fputs(",\"base_cum_norm\":", fp);
	json_norm(fp, row->base_cum_n, r, to);
	fputs(",\"new_cum_norm\":", fp);
	json_norm(fp, row->new_cum_n, r, to);
	fputs(",\"delta_pp\":", fp);
	report_put_num(fp, 100 * row->delta_share);
	fputs(",\"delta\":", fp);
	json_norm(fp, row->delta, r, to);
	fputs(",\"rel\":", fp);
	report_put_num(fp, row->rel);
	fputs(",\"ci_low_pp\":", fp);
	report_put_num(fp, row->tested ? 100 * row->st.lo : NAN);
	fputs(",\"ci_high_pp\":", fp);
	report_put_num(fp, row->tested ? 100 * row->st.hi : NAN);
	fputs(",\"ci_low\":", fp);
	json_norm(fp, row->tested ? report_level(r) * row->st.lo : NAN, r, to);
	fputs(",\"ci_high\":", fp);
	json_norm(fp, row->tested ? report_level(r) * row->st.hi : NAN, r, to);
	fputs(",\"p_value\":", fp);
	report_put_num(fp, row->tested ? row->st.p : NAN);
	fputs(",\"q_value\":", fp);
	report_put_num(fp, row->tested ? row->q : NAN);
	/* The change its hypothesis finds 80% of the time. */
	mde = delta_row_mde(r->d, row);
	fputs(",\"min_detectable_pp\":", fp);
	report_put_num(fp, mde >= 0 ? 100 * mde : NAN);
	/* Outside the findings: as a change of its own beside them. */
	mde = delta_row_rest(r->d, row, &rest);
	fputs(",\"rest_delta_pp\":", fp);
	report_put_num(fp, mde >= 0 ? 100 * rest : NAN);
	fputs(",\"rest_min_detectable_pp\":", fp);
	report_put_num(fp, mde >= 0 ? 100 * mde : NAN);
	fputs(",\"test\":", fp);
	report_put_json(fp, stats_method_name(row->st.method));
	fputs(",\"verdict\":", fp);
	report_put_json(fp, verdict_name(row->verdict));
	fprintf(fp, ",\"under_min_effect\":%s", row->small ? "true" : "false");
	fprintf(fp, ",\"moved\":%s", row->moved ? "true" : "false");
	fputs(",\"hypothesis\":", fp);
	if (hyp_name(row->hyp) != NULL)
		report_put_json(fp, hyp_name(row->hyp));
	else
		fputs("null", fp);
	/* The number of its finding, 1 for #1, as CSV and the text. */
	if (row->finding >= 0)
		fprintf(fp, ",\"finding\":%ld", row->finding + 1);
	else
		fputs(",\"finding\":null", fp);
	/* The runtime's work it was set aside as, if any (findings.c). */
	json_runtime(fp, row->runtime);
	fputs(",\"flat_p_value\":", fp);
	report_put_num(fp, row->flat.tested ? row->flat.st.p : NAN);
	fputs(",\"flat_q_value\":", fp);
	report_put_num(fp, row->flat.tested ? row->flat.q : NAN);
	fputs(",\"status\":", fp);
	report_put_json(fp, row->status == STATUS_NEW ? "new" :
	    row->status == STATUS_GONE ? "gone" : "both");
	fputs(",\"path\":[", fp);
	for (i = 0; i < row->npath; i++) {
		if (i > 0)
			fputc(',', fp);
		report_put_json(fp, row->path[i]);
	}
	if (row->has_per) {
		fputs("],\"per_count\":{\"count\":", fp);
		report_put_json(fp, per_name(r));
		fputs(",\"base\":", fp);
		report_put_num(fp, row->per_base);
		fputs(",\"new\":", fp);
		report_put_num(fp, row->per_new);
		fputs(",\"ci_low\":", fp);
		report_put_num(fp, row->per_lo);
		fputs(",\"ci_high\":", fp);
		report_put_num(fp, row->per_hi);
		fputs("},\"callers\":[", fp);
	} else
		fputs("],\"callers\":[", fp);
	for (i = 0; i < row->ncallers; i++) {
		fputs(i > 0 ? ",{\"name\":" : "{\"name\":", fp);
		report_put_json(fp, row->callers[i].name);
		fputs(",\"base\":", fp);
		report_put_value(fp, row->callers[i].base, r->unit, to);
		fputs(",\"new\":", fp);
		report_put_value(fp, row->callers[i].new, r->unit, to);
		fputs(",\"delta\":", fp);
		json_norm(fp, row->callers[i].delta, r, to);
		fputc('}', fp);
	}
	fputs("]}", fp);
}

int
report_diff_json(FILE *fp, const struct diff_report *r)
{
	const struct delta *d = r->d;
	const char	*to, *name;
	size_t		 k;

	to = value_unit(r, &name);
	fputs("{\"command\":", fp);
	report_put_json(fp, r->kind == DIFF_CHECK ? "check-significance" :
	    r->spans != NULL ? "spans" : "diff");
	fputs(",\"base\":", fp);
	report_facts_json(fp, r->h.base, to);
	fputs(",\"new\":", fp);
	report_facts_json(fp, r->h.new, to);
	if (to != NULL) {
		fputs(",\"value_unit\":", fp);
		report_put_json(fp, name);
	}
	fprintf(fp, ",\"base_profiles\":%zu,\"new_profiles\":%zu", r->h.nbase,
	    r->h.nnew);
	report_sel_json(fp, &r->h);
	report_symbols_json2(fp, r->h.sym[0], r->h.sym[1]);
	report_spans_json(fp, r);
	fputs(",\"normalize\":", fp);
	report_put_json(fp, r->norm == DELTA_NORM_TOTAL ? "total" :
	    r->norm == DELTA_NORM_DURATION ? "duration" :
	    r->norm == DELTA_NORM_REQUESTS ? "requests" : "none");
	if (r->h.quantity_name != NULL) {
		fputs(",\"quantity\":", fp);
		report_put_json(fp, r->h.quantity_name);
		fputs(",\"quantity_reason\":", fp);
		report_put_json(fp, r->h.quantity);
	}
	fprintf(fp, ",\"approximate\":%s", r->approx ? "true" : "false");
	fprintf(fp, ",\"untimed\":%s", r->untimed ? "true" : "false");
	fprintf(fp, ",\"waits\":%s", r->waits ? "true" : "false");
	fputs(",\"granularity\":", fp);
	report_put_json(fp, r->by_label ? "label" : r->granularity);
	if (r->by_label != NULL) {
		fputs(",\"by_label\":", fp);
		report_put_json(fp, r->by_label);
	}
	fputs(",\"method\":", fp);
	report_put_json(fp, r->h.method);
	fputs(",\"alpha\":", fp);
	report_put_num(fp, r->h.alpha);
	fputs(",\"min_effect_pp\":", fp);
	report_put_num(fp, r->h.min_effect_pp);
	fputs(",\"min_effect_rel_pct\":", fp);
	report_put_num(fp, r->h.min_effect_rel);
	fputs(",\"min_effect_floor_per_s\":", fp);
	report_put_num(fp, r->h.min_floor > 0 ? r->h.min_floor : NAN);
	fputs(",\"min_detectable_effect_pp\":", fp);
	report_put_num(fp, d->mde >= 0 ? 100 * d->mde : NAN);
	fputs(",\"noise_pp\":", fp);
	report_put_num(fp, d->noise >= 0 ? 100 * d->noise : NAN);
	fprintf(fp, ",\"tested\":%zu,\"hypotheses\":%zu,\"family\":%zu,"
	    "\"discoveries\":%zu", d->ntested, d->nhyp, d->judge.fdr.kept,
	    d->judge.fdr.rejected);
	fputs(",\"threshold\":", fp);
	report_put_num(fp, d->judge.fdr.threshold);
	if (d->rest_n[0] > 0)
		fprintf(fp, ",\"rest_samples\":[%" PRId64 ",%" PRId64 "]",
		    d->rest_n[0], d->rest_n[1]);
	else
		fputs(",\"rest_samples\":null", fp);
	fputs(",\"rest_threshold\":", fp);
	report_put_num(fp, d->rest_n[0] > 0 ? d->rest_threshold : NAN);
	fputs(",\"rest_min_detectable_pp\":", fp);
	report_put_num(fp, d->rest_n[0] > 0 && d->rest_mde >= 0 ?
	    100 * d->rest_mde : NAN);
	fputs(",\"ci_level\":", fp);
	report_put_num(fp, 1 - d->judge.ci_alpha);
	if (d->replicates) {
		fputs(",\"dispersion\":", fp);
		report_put_num(fp, d->judge.prior.binomial ? 1 : d->judge.prior.s02);
	} else if (r->h.has_counts) {
		fputs(",\"between_processes\":", fp);
		report_put_num(fp, sqrt(d->judge.null.tau2));
		fprintf(fp, ",\"between_functions\":%zu", d->judge.null.n);
	}
	if (r->h.filters != NULL) {
		fputs(",\"filters\":", fp);
		report_put_json(fp, r->h.filters);
		fprintf(fp, ",\"relative\":%s,\"filters_keep_base\":",
		    r->relative ? "true" : "false");
		report_put_num(fp, r->base_kept);
		fputs(",\"filters_keep_new\":", fp);
		report_put_num(fp, r->new_kept);
	}
	if (r->kind == DIFF_CHECK) {
		fputs(",\"result\":", fp);
		report_put_json(fp, r->conclusion);
		fprintf(fp, ",\"exit_status\":%d", r->exit_status);
	}
	report_warnings_json(fp, r->h.warnings, 0);
	put_findings_json(fp, d, r, to);
	fputs(",\"rows\":[", fp);
	for (k = 0; k < r->nshow; k++) {
		fputs(k > 0 ? ",\n{\"name\":" : "\n{\"name\":", fp);
		put_row_json(fp, r, &d->rows[r->order[k]], to);
	}
	fputc(']', fp);
	report_views_json(fp, r);
	fputs("}\n", fp);
	return ferror(fp) ? -1 : 0;
}

/* A CSV number, as JSON's; empty if not finite; then a comma, if comma. */
static void
csv_num(FILE *fp, double v, int comma)
{
	char buf[REPORT_NUMSZ];

	if (isfinite(v)) {
		report_fmt_num(buf, sizeof(buf), v);
		fputs(buf, fp);
	}
	if (comma)
		fputc(',', fp);
}

int
report_diff_csv(FILE *fp, const struct diff_report *r)
{
	const struct delta *d = r->d;
	const char	*to, *name;
	size_t		 k;

	to = value_unit(r, &name);
	/* With --unit, the values are converted and a last column names it. */
	fprintf(fp, "name,base_flat,new_flat,base_cum,new_cum,base_samples,"
	    "new_samples,delta_pp,rel,ci_low_pp,ci_high_pp,p_value,q_value,"
	    "verdict,status,hypothesis,finding%s\n", to ? ",unit" : "");
	for (k = 0; k < r->nshow; k++) {
		const struct delta_row *row = &d->rows[r->order[k]];

		report_put_csv(fp, row->name);
		fputc(',', fp);
		report_put_value(fp, row->base_flat, r->unit, to);
		fputc(',', fp);
		report_put_value(fp, row->new_flat, r->unit, to);
		fputc(',', fp);
		report_put_value(fp, row->base_cum, r->unit, to);
		fputc(',', fp);
		report_put_value(fp, row->new_cum, r->unit, to);
		fprintf(fp, ",%" PRId64 ",%" PRId64 ",", row->base_count,
		    row->new_count);
		csv_num(fp, 100 * row->delta_share, 1);
		csv_num(fp, row->rel, 1);
		if (row->tested) {
			csv_num(fp, 100 * row->st.lo, 1);
			csv_num(fp, 100 * row->st.hi, 1);
			csv_num(fp, row->st.p, 1);
			csv_num(fp, row->q, 0);
		} else
			fputs(",,,", fp);
		fprintf(fp, ",%s,%s,%s,", verdict_name(row->verdict),
		    row->status == STATUS_NEW ? "new" :
		    row->status == STATUS_GONE ? "gone" : "both",
		    hyp_name(row->hyp) ? hyp_name(row->hyp) : "");
		if (row->finding >= 0)
			fprintf(fp, "%ld", row->finding + 1);
		if (to != NULL) {
			fputc(',', fp);
			report_put_csv(fp, name);
		}
		fputc('\n', fp);
	}
	return ferror(fp) ? -1 : 0;
}

const char *
report_conclusion(int status, int regressed, int any_change, int lead)
{
	if (status == 1)
		return regressed ? "significant regression" :
		    "significant change";
	if (status == 3 && lead == REPORT_LEAD_LIVE)
		return "inconclusive: a change found on live-heap snapshots, "
		    "one a side, whose garbage varies between processes: "
		    "compare several profiles per side";
	if (status == 3 && lead == REPORT_LEAD_APPROX)
		return "inconclusive: a change found on estimated counts, one "
		    "profile a side: compare several profiles per side";
	if (status == 3 && lead == REPORT_LEAD_UNTIMED)
		return "inconclusive: a change found in sums over windows of "
		    "unknown length: give each profile an earlier snapshot "
		    "(--base), or --normalize none if the windows are alike";
	if (status == 3 && lead == REPORT_LEAD_NOCOUNTS)
		return "inconclusive: no sample counts to test";
	if (status == 3)
		return "inconclusive: too few samples to detect the minimum "
		    "effect";
	return any_change ? "no significant change" :
	    "no significant regression";
}

/* The formatting the views share with the tables (report.h). */
void
report_diff_norm(char *buf, size_t len, double v, const struct diff_report *r)
{
	fmt_norm(buf, len, v, r);
}

void
report_diff_delta(char *buf, size_t len, double v,
    const struct diff_report *r)
{
	fmt_delta(buf, len, v, r);
}

void
report_diff_interval(char *buf, size_t len, double lo, double hi,
    const struct diff_report *r, int digits)
{
	fmt_interval(buf, len, lo, hi, r, digits);
}

const char *
report_verdict_name(int v)
{
	return verdict_name((enum verdict)v);
}

const char *
report_verdict_text(int v, int exposure)
{
	return verdict_text((enum verdict)v, exposure);
}


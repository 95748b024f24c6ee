/*
 * profdiff spans: the slow spans of a trace against its fast ones, from
 * one profile whose samples carry the running span's id as a label (as
 * OpenTelemetry's profiling integrations put it).  The trace says which
 * spans are slow; the fast ones are the base side, the slow the new,
 * each selected by its span ids (load/selection.c), and then it is
 * diff's comparison (pair.c), of values per span: each side's spans are
 * its exposure, those without samples too, and its spans are its
 * replicates, grouped in parts whose spread is the dispersion, so that
 * one pathological span cannot make a finding.  Before the table: each
 * side's spans, durations and value per span, and whether the slow ones
 * computed more or waited.  CLI layer: it prints to stderr.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/diags.h"
#include "cli/pair.h"
#include "core/delta.h"
#include "core/runtime.h"
#include "input/trace.h"
#include "load/load.h"
#include "load/selection.h"
#include "model/spans.h"
#include "report/report.h"
#include "stats/stats.h"
#include "support/diag.h"
#include "support/units.h"
#include "support/xmalloc.h"

/* Parts (replicates) a side's spans are grouped in, at most. */
#define PD_SPAN_PARTS	20
/* Slow spans with samples below this: inconclusive. */
#define PD_SPAN_MIN	3
/*
 * Slow spans whose value per span covers less than this share of what
 * the fast ones' covers of their duration were mostly waiting, even if
 * they computed more too.
 */
#define PD_SPAN_COVER	0.5
/* The default span label, as OpenTelemetry's integrations name it. */
#define PD_SPAN_LABEL	"span_id"

/* One side's spans: indexes into the trace, and their parts. */
struct sside {
	size_t		*at;		/* into tr.v */
	size_t		 n;
	char		**ids;
	unsigned	*part;
	double		*expo;		/* spans per part */
	size_t		 nparts;
};

struct srun {
	struct spans	 tr;
	struct sside	 s[2];		/* fast, slow */
	char		*slow_text;
	char		*say;
	const char	**length;
	struct report_spans rs;
};

static void
srun_release(struct srun *r)
{
	size_t i;

	for (i = 0; i < 2; i++) {
		free(r->s[i].at);
		free(r->s[i].ids);
		free(r->s[i].part);
		free(r->s[i].expo);
	}
	free(r->slow_text);
	free(r->say);
	free(r->length);
	spans_release(&r->tr);
}

/*
 * --slow: "pN" (0 < N < 100), a quantile; or a duration, "250ms",
 * "1.5s", "800us", "20000ns".  *q gets the quantile (or -1), *ns the
 * duration.  Returns 0, or -1.
 */
static int
parse_slow(const char *v, double *q, int64_t *ns)
{
	static const struct { const char *u; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char	*end;
	double	 x;
	size_t	 i;

	*q = -1;
	if (v[0] == 'p') {
		x = strtod(v + 1, &end);
		if (end == v + 1 || *end != '\0' || !(x > 0 && x < 100))
			return -1;
		*q = x / 100;
		return 0;
	}
	if (!isdigit((unsigned char)v[0]))
		return -1;
	x = strtod(v, &end);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].u) == 0 && x * units[i].ns < 9e18 &&
		    x * units[i].ns >= 1) {
			*ns = (int64_t)llround(x * units[i].ns);
			return 0;
		}
	return -1;
}

/* What spans refuses of diff's options: it makes the sides itself. */
static int
spans_refuse(const struct opts *o)
{
	/* (--base-tag, --new-tag and --requests are not its options.) */
	const char *what = o->bases.n > 0 ? "--base: the spans are of one "
	    "window" : o->sep >= 0 ? "--: every profile is both sides" :
	    o->normalize.given && o->normalize.how != DELTA_NORM_TOTAL ?
	    "--normalize other than total: it compares values per span, or "
	    "shares" : NULL;
	size_t		 i;

	if (o->trace == NULL) {
		cli_warn("spans: --trace FILE is required: the spans of the "
		    "profiles' window");
		return -1;
	}
	if (what != NULL) {
		cli_warn("spans: not with %s", what);
		return -1;
	}
	if (o->noperands == 0) {
		cli_usage(stderr, o->cmd);
		return -1;
	}
	for (i = 0; i < o->noperands; i++)
		if (cli_read_twice(o, o->operands[i],
		    "spans reads each profile") == -1)
			return -1;
	return 0;
}

/*
 * The operands are both sides: base ... -- new ..., the same profiles,
 * each side its own spans' samples.
 */
static void
both_sides(struct opts *o)
{
	size_t	 n = o->noperands, i;
	char	**v = xreallocarray(NULL, 2 * n + 1, sizeof(*v));

	for (i = 0; i < n; i++)
		v[i] = v[n + i] = o->operands[i];
	v[2 * n] = NULL;
	free(o->operands);
	o->operands = v;
	o->noperands = 2 * n;
	o->nbase = n;
	o->one_profile = 1;
}

static int
by_dur(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The durations of the spans at[n], sorted, in a new array. */
static int64_t *
durations(const struct spans *tr, const size_t *at, size_t n)
{
	int64_t	*d = xcalloc(n ? n : 1, sizeof(*d));
	size_t	 i;

	for (i = 0; i < n; i++)
		d[i] = tr->v[at[i]].dur_ns;
	qsort(d, n, sizeof(*d), by_dur);
	return d;
}

/*
 * The spans taken: --span-name's, or those of every name in keep (the
 * names with samples; NULL: all).  Their indexes, in id order.
 */
static size_t *
taken(const struct spans *tr, const char *name, const char *const *keep,
    size_t nkeep, size_t *n)
{
	size_t	*at = xcalloc(tr->n + 1, sizeof(*at)), i, k;

	*n = 0;
	for (i = 0; i < tr->n; i++) {
		if (name != NULL && strcmp(tr->v[i].name, name) != 0)
			continue;
		for (k = 0; keep != NULL && k < nkeep; k++)
			if (strcmp(tr->v[i].name, keep[k]) == 0)
				break;
		if (keep != NULL && k == nkeep)
			continue;
		at[(*n)++] = i;
	}
	return at;
}

/* Side x of the spans at[n] split at thr: its ids and parts. */
static void
make_side(struct srun *r, const size_t *at, size_t n, int64_t thr, int slow)
{
	struct sside	*x = &r->s[slow];
	size_t		 i, k = 0;

	x->at = xcalloc(n + 1, sizeof(*x->at));
	for (i = 0; i < n; i++)
		if ((r->tr.v[at[i]].dur_ns >= thr) == slow)
			x->at[x->n++] = at[i];
	x->ids = xcalloc(x->n + 1, sizeof(*x->ids));
	x->part = xcalloc(x->n + 1, sizeof(*x->part));
	x->nparts = x->n < PD_SPAN_PARTS ? x->n : PD_SPAN_PARTS;
	x->expo = xcalloc(x->nparts + 1, sizeof(*x->expo));
	/* In id order, which is no order of the spans' own. */
	for (i = 0; i < x->n; i++, k++) {
		x->ids[i] = r->tr.v[x->at[i]].id;
		x->part[i] = (unsigned)(k % x->nparts);
		x->expo[x->part[i]] += 1;
	}
}

/*
 * The names of the spans with samples: a first pass over the profiles
 * with every span selected, its samples summed by span.  Only when the
 * trace has several names and --span-name chose none.
 */
static int
names_with_samples(struct opts *o, struct srun *r, const char ***keep,
    size_t *nkeep)
{
	struct selection *sel;
	struct load_opts lo = o->load;
	struct side	 s;
	struct diag	 d;
	char		**ids = xcalloc(r->tr.n + 1, sizeof(*ids));
	unsigned	*part = xcalloc(r->tr.n + 1, sizeof(*part));
	const int64_t	*sum;
	size_t		 i, k;
	int		 rc;

	for (i = 0; i < r->tr.n; i++)
		ids[i] = r->tr.v[i].id;
	sel = selection_new("--trace");
	selection_parts(sel, o->span_label, ids, part, r->tr.n, 0, o->trace);
	lo.select = sel;
	lo.select_new = lo.select_other = NULL;
	lo.views = NULL;
	rc = side_load(&s, o->operands, o->nbase, &lo, &d);
	*keep = xcalloc(r->tr.n + 1, sizeof(**keep));
	*nkeep = 0;
	sum = selection_sums(sel);
	for (i = 0; rc == 0 && i < r->tr.n; i++) {
		if (sum[i] == 0)
			continue;
		for (k = 0; k < *nkeep; k++)
			if (strcmp((*keep)[k], r->tr.v[i].name) == 0)
				break;
		if (k == *nkeep)
			(*keep)[(*nkeep)++] = r->tr.v[i].name;
	}
	side_free(&s);
	selection_free(sel);
	free(ids);
	free(part);
	return rc == -1 ? cli_diag(&d) : 0;
}

/* Does the trace name more than one operation? */
static int
several_names(const struct spans *tr)
{
	size_t i;

	for (i = 1; i < tr->n; i++)
		if (strcmp(tr->v[i].name, tr->v[0].name) != 0)
			return 1;
	return 0;
}

/*
 * Read the trace, take its spans, split them at --slow into the fast
 * and the slow, and make each side's selection of parts.  Returns 0, or
 * -1 after a message.
 */
static int
spans_split(struct opts *o, struct srun *r)
{
	struct diag	 d;
	const char	**keep = NULL;
	size_t		*at, n, nkeep = 0, i;
	int64_t		*dur, thr = 0;
	double		 q = 0.9;

	if (o->slow != NULL && parse_slow(o->slow, &q, &thr) == -1) {
		cli_warn("spans: --slow '%s': expected pN (p90, p99) or a "
		    "duration (250ms, 1.5s)", o->slow);
		return -1;
	}
	spans_init(&r->tr);
	if (trace_load(o->trace, &o->load.limits, &r->tr, &d) == -1)
		return cli_diag(&d);
	(void)spans_dedup(&r->tr);
	if (o->span_name == NULL && several_names(&r->tr) &&
	    names_with_samples(o, r, &keep, &nkeep) == -1)
		return -1;
	at = taken(&r->tr, o->span_name, keep, nkeep, &n);
	free(keep);
	if (n == 0) {
		free(at);
		cli_warn("spans: %s: %s", o->trace, o->span_name != NULL ?
		    "no span has that --span-name" : "no span");
		return -1;
	}
	dur = durations(&r->tr, at, n);
	if (q >= 0)
		thr = spans_quantile(dur, n, q);
	free(dur);
	xasprintf(&r->slow_text, "%s", o->slow != NULL ? o->slow : "p90");
	for (i = 0; i < 2; i++)
		make_side(r, at, n, thr, (int)i);
	free(at);
	r->rs.threshold_ns = thr;
	for (i = 0; i < 2; i++) {
		if (r->s[i].n == 0) {
			cli_warn("spans: %s: every one of its %zu spans is %s "
			    "at --slow %s: nothing to compare", o->trace, n,
			    i == 0 ? "slow" : "fast", r->slow_text);
			return -1;
		}
		/* The header's "Selected: the fast spans, ...". */
		o->select[i] = selection_new("the");
		selection_parts(o->select[i], o->span_label, r->s[i].ids,
		    r->s[i].part, r->s[i].n, r->s[i].nparts, i == 0 ?
		    "fast spans" : "slow spans");
	}
	return 0;
}

static int
spans_parse(const struct cli_cmd *c, int argc, char **argv, struct opts *o,
    struct srun *r)
{
	int rc;

	if ((rc = cli_parse(c, argc, argv, o)) != 0)
		return rc;
	if (o->span_label == NULL)
		o->span_label = PD_SPAN_LABEL;
	if (spans_refuse(o) == -1) {
		cli_release(o);
		return -1;
	}
	both_sides(o);
	if (cli_load_opts(o) == -1 || spans_split(o, r) == -1 ||
	    cli_output_open(o) == -1) {
		cli_release(o);
		return -1;
	}
	o->load.select = o->select[0];
	o->load.select_new = o->select[1];
	o->load.select_other = NULL;	/* the trace's sides share no span */
	/* Per span, unless --normalize says otherwise. */
	if (!o->normalize.given) {
		o->requests[0] = (double)r->s[0].n;
		o->requests[1] = (double)r->s[1].n;
	}
	return 0;
}

/* Side i's numbers for the header, from its spans' sums. */
static void
side_numbers(struct srun *r, int i, const int64_t *sum, const char *unit,
    double *mean, double *var)
{
	struct report_spans_side *x = &r->rs.side[i];
	const struct sside *ss = &r->s[i];
	int64_t	*dur = durations(&r->tr, ss->at, ss->n);
	double	 tot = 0, dtot = 0, m2 = 0, v;
	size_t	 k;

	x->n = ss->n;
	x->parts = ss->nparts;
	x->p50 = spans_quantile(dur, ss->n, 0.50);
	x->p90 = spans_quantile(dur, ss->n, 0.90);
	x->p99 = spans_quantile(dur, ss->n, 0.99);
	for (k = 0; k < ss->n; k++) {
		x->with += sum[k] != 0;
		tot += (double)sum[k];
		dtot += (double)dur[k];
	}
	*mean = tot / (double)ss->n;
	for (k = 0; k < ss->n; k++) {
		v = (double)sum[k] - *mean;
		m2 += v * v;
	}
	*var = ss->n > 1 ? m2 / (double)(ss->n - 1) : NAN;
	x->cpu = *mean;
	x->mean_ns = dtot / (double)ss->n;
	x->covered = NAN;
	if (units_kind(unit) != NULL && strcmp(units_kind(unit), "time") ==
	    0 && x->mean_ns > 0)
		x->covered = units_scale_f(*mean, unit, "nanoseconds") /
		    x->mean_ns;
	free(dur);
}

/*
 * Did the slow spans compute more, per span, than the fast ones?
 * Welch's test on the spans' own values, one-sided, at --alpha, and at
 * least --min-effect's relative part more: then computing, and the
 * findings say where, unless that covers less than PD_SPAN_COVER of
 * the share of their duration the fast spans' covers (mostly waiting);
 * else waiting, which a CPU profile cannot see.
 */
static void
verdict(struct srun *r, const struct opts *o, const char *unit)
{
	struct report_spans *rs = &r->rs;
	const int64_t *sb = selection_sums(o->select[0]);
	const int64_t *sn = selection_sums(o->select[1]);
	double	 mb, vb, mn, vn, se, t, df, nb, nn;
	char	 a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ], pv[32];

	side_numbers(r, 0, sb, unit, &mb, &vb);
	side_numbers(r, 1, sn, unit, &mn, &vn);
	nb = (double)r->s[0].n;
	nn = (double)r->s[1].n;
	rs->ratio = mb > 0 ? mn / mb : NAN;
	se = sqrt((nb > 1 ? vb / nb : 0) + (nn > 1 ? vn / nn : 0));
	rs->p = 1;
	if (se > 0 && nb > 1 && nn > 1) {
		t = (mn - mb) / se;
		df = pow(vb / nb + vn / nn, 2) / (pow(vb / nb, 2) / (nb - 1) +
		    pow(vn / nn, 2) / (nn - 1));
		rs->p = df > 0 ? 1 - stats_t_cdf(t, df) : 1;
	} else if (mn > mb && se == 0)
		rs->p = 0;
	units_label(a, sizeof(a), llround(mn), unit, "auto");
	units_label(b, sizeof(b), llround(mb), unit, "auto");
	units_label(c, sizeof(c), llround(rs->side[1].mean_ns -
	    rs->side[0].mean_ns), "nanoseconds", "auto");
	if (rs->p < 0.001)
		snprintf(pv, sizeof(pv), "p < 0.001");
	else
		snprintf(pv, sizeof(pv), "p = %.2g", rs->p);
	if (rs->side[1].with < PD_SPAN_MIN) {
		rs->verdict = "inconclusive";
		xasprintf(&r->say, "inconclusive: %zu of the %zu slow spans "
		    "have samples, fewer than %d: take a longer window or a "
		    "higher sampling rate", rs->side[1].with, rs->side[1].n,
		    PD_SPAN_MIN);
	} else if (rs->p < o->alpha && rs->ratio >= 1 +
	    o->min_effect.rel / 100 && rs->side[1].covered <
	    PD_SPAN_COVER * rs->side[0].covered) {
		rs->verdict = "mostly waiting";
		xasprintf(&r->say, "mostly waiting: slow spans spend %s each, "
		    "fast ones %s (%s), but that covers %.1f%% of their "
		    "duration against %.1f%%: most of the %s longer they last "
		    "they were waiting (I/O, locks, a downstream call), which a "
		    "CPU profile cannot show; take a wall-clock, off-CPU or "
		    "lock profile, or look at the trace's children", a, b, pv,
		    100 * rs->side[1].covered, 100 * rs->side[0].covered, c);
	} else if (rs->p < o->alpha && rs->ratio >= 1 +
	    o->min_effect.rel / 100) {
		rs->verdict = "computing";
		xasprintf(&r->say, "computing: slow spans spend %s each, fast "
		    "ones %s (%s); the findings say where", a, b, pv);
	} else {
		rs->verdict = "waiting";
		xasprintf(&r->say, "waiting: slow spans last %s longer on "
		    "average but spend %s each against %s (%s), no more: "
		    "they were waiting (I/O, locks, a downstream call), which a "
		    "CPU profile cannot show; take a wall-clock, off-CPU or "
		    "lock profile, or look at the trace's children", c, a, b,
		    pv);
	}
	rs->say = r->say;
}

/* Runtime work that grows with a span's length, not with its code. */
static int
grows_with_length(const struct delta_row *row)
{
	return row->frame != RT_CODE;
}

/* Is f other than a regression in the runtime's work (length_apart())? */
static int
not_length(void *arg, const struct delta *d, const struct delta_finding *f)
{
	(void)arg;
	return f->verdict != VERDICT_REGRESSED ||
	    !grows_with_length(&d->rows[f->row]);
}

/*
 * The findings in the runtime's work that a longer span does more of
 * whatever its code (Go preempts a goroutine every 10ms): said as such
 * in the spans' section, and taken out of the findings.
 */
static void
length_apart(struct srun *r, struct delta *d)
{
	size_t	 i;

	r->length = xcalloc(d->nrows + 1, sizeof(*r->length));
	for (i = 0; i < d->nrows; i++)
		if (d->rows[i].verdict == VERDICT_REGRESSED &&
		    grows_with_length(&d->rows[i]))
			r->length[r->rs.nlength++] = d->rows[i].name;
	delta_keep_findings(d, not_length, NULL);
	r->rs.length = r->length;
}

/* The spans' section's facts, once loaded. */
static void
spans_head(struct srun *r, const struct opts *o, const struct pair *p)
{
	const int64_t	*sn = selection_sums(o->select[1]);
	int64_t		 slow = 0;
	size_t		 k;

	r->rs.trace = o->trace;
	r->rs.format = r->tr.format;
	r->rs.name = o->span_name;
	r->rs.label = o->span_label;
	r->rs.slow = r->slow_text;
	for (k = 0; k < r->s[1].n; k++)
		slow += sn[k];
	r->rs.unlabeled = p->base.sel.nokey_w;
	r->rs.unmatched = p->base.sel.other_w - slow;
	verdict(r, o, p->base.unit);
}

int
cmd_spans(const struct cli_cmd *self, int argc, char **argv)
{
	struct opts	 o;
	struct pair	 p;
	struct srun	 r;
	int		 rc;

	memset(&r, 0, sizeof(r));
	if ((rc = spans_parse(self, argc, argv, &o, &r)) != 0) {
		srun_release(&r);
		return rc == 1 ? 0 : 2;
	}
	rc = 2;
	if (pair_load(&p, &o) == 0) {
		spans_head(&r, &o, &p);
		if (r.rs.side[1].with < PD_SPAN_MIN) {
			cli_warn("spans: %s", r.say);
			rc = 3;
			goto done;
		}
		p.part_expo[0] = r.s[0].expo;
		p.part_expo[1] = r.s[1].expo;
		p.spans = &r.rs;
		if (pair_compare(&p, &o) == 0) {
			length_apart(&r, &p.d);
			p.order = delta_select(&p.d, o.sort, 0, o.nrows,
			    &p.nshow);
			if (pair_write(&p, &o, 0, REPORT_LEAD_NONE, NULL) == 0)
				rc = 0;
		}
	}
done:
	pair_release(&p);
	cli_release(&o);
	srun_release(&r);
	return rc;
}

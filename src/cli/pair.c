/*
 * What diff and check-significance share, a function a step: from the
 * options to the two sides' operands, to the loaded sides, to their
 * rows and verdicts, to the report.  Each step hands the work to the
 * room that owns it and turns its failure into a message; none decides
 * anything about the statistics.  CLI layer: it prints to stderr.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "cli/cli.h"
#include "cli/diags.h"
#include "core/delta.h"
#include "core/flame.h"
#include "core/kind.h"
#include "core/runtime.h"
#include "load/load.h"
#include "support/xmalloc.h"
#include "cli/pair.h"
#include "report/report.h"
#include "support/units.h"

int
pair_parse(const struct cli_cmd *c, int argc, char **argv, struct opts *o)
{
	int rc;

	if ((rc = cli_parse(c, argc, argv, o)) != 0)
		return rc;
	if (cli_sides_operands(o) == -1 || cli_pair_operands(o) == -1 ||
	    cli_bases(o, 1) == -1 ||
	    cli_load_opts(o) == -1 || cli_output_open(o) == -1) {
		cli_release(o);
		return -1;
	}
	return 0;
}

/*
 * The quantity compared (kind.h): --normalize, or --requests, or what
 * the sample type calls for: shares of time-sliced samples, rates of
 * events over windows whose lengths are known (else their absolute
 * values), absolute values of snapshots.  p->quantity says which, and
 * why, for the header.
 */
static int
choose_quantity(struct pair *p, const struct opts *o)
{
	const char	*cmd = o->cmd->name;
	const struct facts *bf = &p->base.merged, *nf = &p->new.merged;
	const char	*why = p->base.kind_why, *how;
	enum kind	 k = p->base.kind;
	int		 timed = bf->duration_ns > 0 && nf->duration_ns > 0;

	if (o->requests[0] > 0) {
		if (o->normalize.given) {
			cli_warn("%s: --requests and --normalize cannot go "
			    "together: --requests compares values per request",
			    cmd);
			return -1;
		}
		p->norm = DELTA_NORM_REQUESTS;
	} else if (o->normalize.given)
		p->norm = o->normalize.how;
	else
		p->norm = k == KIND_SLICED ? DELTA_NORM_TOTAL :
		    k == KIND_EVENTS && timed ? DELTA_NORM_DURATION :
		    DELTA_NORM_NONE;
	if (p->norm == DELTA_NORM_DURATION && !timed) {
		cli_warn("%s: --normalize=duration needs the duration of every "
		    "profile, and %s has none", cmd, bf->duration_ns <= 0 ?
		    bf->path != NULL ? bf->path : "base" :
		    nf->path != NULL ? nf->path : "new");
		return -1;
	}
	how = p->norm == DELTA_NORM_TOTAL ? "shares of each side's total" :
	    p->norm == DELTA_NORM_DURATION ? "rates per second of window" :
	    p->norm == DELTA_NORM_REQUESTS && o->trace != NULL ?
	    "values per span, each side's spans its exposure" :
	    p->norm == DELTA_NORM_REQUESTS ? "values per request" :
	    p->base.nprofiles > 1 || p->new.nprofiles > 1 ?
	    "absolute values (the mean of each side's profiles)" :
	    "absolute values";
	if (o->trace != NULL && !o->normalize.given)
		xasprintf(&p->quantity, "%s; %s %s", how, p->base.sample_type,
		    why);
	else if (o->requests[0] > 0 || o->normalize.given)
		xasprintf(&p->quantity, "%s, as asked; %s %s", how,
		    p->base.sample_type, why);
	else if (k == KIND_EVENTS && !timed)
		xasprintf(&p->quantity, "%s, since a profile has no duration; "
		    "%s %s", how, p->base.sample_type, why);
	else
		xasprintf(&p->quantity, "%s, since %s %s", how,
		    p->base.sample_type, why);
	return 0;
}

/*
 * In a CI gate (struct cli_cmd), a filter that
 * matched nothing on either side, or a --by-label key that no sample
 * carries, is most likely a typo: a --focus would leave nothing to
 * test, and the gate would exit 3, inconclusive, which a CI script may
 * take as a pass.  So it is an error there; diff and top only warn.
 */
static int
gate_unmatched(const struct pair *p, const struct opts *o)
{
	unsigned	 no;
	char		 what[256];

	if (!o->cmd->gate ||
	    (no = side_unmatched(&p->base) & side_unmatched(&p->new)) == 0)
		return 0;
	side_unmatched_say(no, p->base.label_key, what, sizeof(what));
	cli_warn("%s: on both sides, %s: most likely a typo, and the gate "
	    "would not test what was meant", o->cmd->name, what);
	return -1;
}

int
pair_load(struct pair *p, const struct opts *o)
{
	struct diag d;

	memset(p, 0, sizeof(*p));
	diags_init(&p->warnings);
	/*
	 * The two sides decode in parallel, one on each core.  The single
	 * profiles behind each side are kept only where the test uses them:
	 * between replicates, two or more on each side.
	 */
	if (side_load_pair(&p->base, o->operands, o->nbase, &p->new,
	    o->operands + o->nbase, o->noperands - o->nbase, &o->load,
	    1, &d) == -1)
		return cli_diag(&d);
	if (choose_quantity(p, o) == -1)
		return -1;
	if (cli_check_unit(o, &p->base.merged) == -1)
		return -1;
	if (gate_unmatched(p, o) == -1 ||
	    cli_sides_check(o, &p->base, &p->new) == -1)
		return -1;
	/* spans' section says whether its spans waited, per span. */
	side_warn_pair(&p->base, &p->new, p->norm, o->trace == NULL,
	    &p->warnings);
	cli_diags_print(&p->warnings, 0, o->quiet);
	return 0;
}

/* What "runtime.asyncPreempt" growing means, and runs that disagree. */
#define PD_DISPERSION_WARN	2.0	/* runs vary this much more: warn */
#define PD_PROCESSES_WARN	0.10	/* a share, one a side: warn */
#define PD_PREEMPT		"runtime.asyncPreempt"

/*
 * The warnings that need the verdicts: replicates too few to say how
 * much runs vary, or varying much more than sampling makes them; and a
 * Go program preempted more often in one window than in the other,
 * which moves the shares of everything it interrupts.
 */
static void
warn_compare(struct pair *p)
{
	const struct delta	*d = &p->d;
	const struct judge	*j = &d->judge;
	size_t			 i;

	if (d->replicates && (j->nb < 3 || j->nn < 3))
		diags_add(&p->warnings, MSG_FEW_RUNS, NULL, NULL, NULL, j->nb,
		    j->nn);
	if (d->replicates && !j->prior.binomial &&
	    j->prior.s02 > PD_DISPERSION_WARN)
		diags_add(&p->warnings, MSG_RUNS_VARY, NULL, NULL, NULL,
		    j->prior.s02, sqrt(j->prior.s02));
	/* What the windows were is news, found or not. */
	if (d->saturated != 0)
		diags_add(&p->warnings, MSG_SATURATED, NULL, NULL, NULL,
		    d->saturated > 0 ? "base" : "new",
		    100 * p->idle[d->saturated < 0],
		    d->saturated > 0 ? "new" : "base",
		    100 * p->idle[d->saturated > 0],
		    d->saturated > 0 ? "fall" : "rise",
		    d->saturated > 0 ? "out" : "in",
		    d->saturated > 0 ? "regressions" : "improvements",
		    d->saturated > 0 ? "improvements" : "regressions");
	if (!d->replicates && sqrt(j->null.tau2) >= PD_PROCESSES_WARN)
		diags_add(&p->warnings, MSG_PROCESSES_DIFFER, NULL, NULL, NULL,
		    100 * sqrt(j->null.tau2), j->null.n);
	for (i = 0; i < d->nrows; i++) {
		const struct delta_row *row = &d->rows[i];
		int	 dir;

		/*
		 * Its verdict, or, set aside alone as the scheduler's (no
		 * finding: findings.c), the way it moved.
		 */
		dir = row->verdict == VERDICT_REGRESSED ? 1 :
		    row->verdict == VERDICT_IMPROVED ? -1 :
		    row->verdict == VERDICT_UNCHANGED &&
		    row->runtime == RT_SCHED ?
		    (delta_row_change(row) > 0 ? 1 : -1) : 0;
		/* spans: a longer span is preempted more (cmd_spans.c). */
		if (p->spans != NULL || strcmp(row->name, PD_PREEMPT) != 0 ||
		    dir == 0)
			continue;
		diags_add(&p->warnings, MSG_PREEMPTED, NULL, NULL, NULL,
		    PD_PREEMPT, d->base_total ? 100.0 * (double)row->base_cum /
		    (double)d->base_total : 0, d->new_total ? 100.0 *
		    (double)row->new_cum / (double)d->new_total : 0,
		    dir > 0 ? "more" : "less");
	}
}

/*
 * spans: each side's exposure is its spans, and each part's (a
 * replicate) the spans in it, whatever the quantity: with shares, the
 * parts' own totals are their denominators (delta.c) and these unused.
 */
static void
parts_exposures(struct pair *p)
{
	const struct side *sd[2] = { &p->base, &p->new };
	double	*run, side[2];
	size_t	 s, i, at = 0;

	free(p->run_expo);
	p->run_expo = run = xcalloc(sd[0]->nparts + sd[1]->nparts + 1,
	    sizeof(*run));
	for (s = 0; s < 2; s++) {
		side[s] = 0;
		for (i = 0; i < sd[s]->nparts; i++) {
			run[at + i] = p->part_expo[s][i];
			side[s] += run[at + i];
		}
		at += sd[s]->nparts;
	}
	p->dopts.base_expo = side[0];
	p->dopts.new_expo = side[1];
	p->dopts.run_expo = run;
}

/*
 * Each side's exposure for the quantity, and each profile's (for the
 * tests between replicates): its seconds, 1 for an absolute value (a
 * side is the mean of its profiles), its requests (each profile's part
 * by its duration when all are known, else equal).
 */
static void
exposures(struct pair *p, const struct opts *o)
{
	struct delta_opts *d = &p->dopts;
	const struct side *sd[2] = { &p->base, &p->new };
	double	*run, side[2];
	size_t	 s, i, at = 0;

	if (p->part_expo[0] != NULL && p->part_expo[1] != NULL) {
		parts_exposures(p);
		return;
	}
	free(p->run_expo);
	p->run_expo = run = xcalloc(sd[0]->nprofiles + sd[1]->nprofiles + 1,
	    sizeof(*run));
	for (s = 0; s < 2; s++) {
		side[s] = 0;
		for (i = 0; i < sd[s]->nprofiles; i++) {
			run[at + i] = p->norm == DELTA_NORM_NONE ? 1 :
			    (double)sd[s]->facts[i].duration_ns / 1e9;
			side[s] += run[at + i];
		}
		if (p->norm == DELTA_NORM_REQUESTS) {
			for (i = 0; i < sd[s]->nprofiles; i++)
				run[at + i] = side[s] > 0 ? o->requests[s] *
				    run[at + i] / side[s] : o->requests[s] /
				    (double)sd[s]->nprofiles;
			side[s] = o->requests[s];
		}
		at += sd[s]->nprofiles;
	}
	d->base_expo = side[0];
	d->new_expo = side[1];
	d->run_expo = run;
}

/*
 * A wait's time per second of window that always matters, unless
 * --min-effect's points are given: 1% of one thread's time, what 1pp is
 * of a process that keeps one core busy (delta_opts.wait_floor).
 */
#define PD_WAIT_FLOOR		0.01	/* seconds per second */

static double
wait_floor(const struct pair *p, const struct opts *o)
{
	const char *k = units_kind(p->base.unit);

	if (o->min_effect.pp_given || !p->base.waits ||
	    p->norm != DELTA_NORM_DURATION || k == NULL ||
	    strcmp(k, "time") != 0)
		return 0;
	return units_scale_f(PD_WAIT_FLOOR, "seconds", p->base.unit);
}

/*
 * Is the level of rates per second bound by a capacity that held, so
 * that one function's growth takes from the others as shares do
 * (delta_opts.bounded)?  Then both sides are CPU profiles whose
 * processes spent the same CPU time per second, within PD_BOUND_HELD:
 * a saturated process (its cores, or its quota, full) keeps its time
 * per second whatever its code does, and that is what the profiles can
 * show of a capacity.  Never with values per request: one request's
 * work is not taken by another's.
 */
#define PD_BOUND_HELD	0.05

static int
bounded(const struct pair *p)
{
	double	 u[2];

	if (p->norm != DELTA_NORM_DURATION ||
	    !((u[0] = side_cpu_util(&p->base, NULL)) > 0) ||
	    !((u[1] = side_cpu_util(&p->new, NULL)) > 0))
		return 0;
	return fabs(u[0] - u[1]) <= PD_BOUND_HELD * fmax(u[0], u[1]);
}

/*
 * Did the thread go from time to spare to next to none (+1: in the new
 * window, -1: in the base's; delta_opts.saturated)?  Only a profile
 * that marks idle time (V8's "(idle)") can say: at least PD_SPARE_IDLE
 * of one side's samples idle, at most PD_SATURATED_IDLE of the other's
 * (none at all is none, when the other side's profiler marked some).
 * A CPU profile's utilization cannot say it: the cores a process could
 * use are not in it.
 */
#define PD_SPARE_IDLE		0.25
#define PD_SATURATED_IDLE	0.15

static int
saturated(const struct pair *p, double share[2])
{
	int64_t	 idle[2], all[2];
	int	 s;

	if (side_idle(&p->base, &idle[0], &all[0]) == -1 ||
	    side_idle(&p->new, &idle[1], &all[1]) == -1 ||
	    (idle[0] == 0 && idle[1] == 0) || all[0] <= 0 || all[1] <= 0)
		return 0;
	for (s = 0; s < 2; s++)
		share[s] = (double)idle[s] / (double)all[s];
	for (s = 0; s < 2; s++)
		if (share[s] >= PD_SPARE_IDLE && share[!s] <= PD_SATURATED_IDLE)
			return s == 0 ? 1 : -1;
	return 0;
}

int
pair_compare(struct pair *p, const struct opts *o)
{
	const char		*cmd = o->cmd->name;
	struct delta_opts	*dopts = &p->dopts, fopts;
	const struct side	*b = &p->base, *n = &p->new;
	int			 svg = o->format == FMT_SVG;
	size_t			 nw = p->warnings.n;
	/* The replicates: the profiles, or the parts of spans. */
	int			 parts = b->nparts >= 2 && n->nparts >= 2;
	struct agg *const	*be = parts ? b->parts : b->each;
	struct agg *const	*ne = parts ? n->parts : n->each;
	size_t			 nb = parts ? b->nparts : b->nprofiles;
	size_t			 nn = parts ? n->nparts : n->nprofiles;

	dopts->norm = p->norm;
	dopts->alpha = o->alpha;
	/* Two label groups of one profile: windows of one process. */
	dopts->same_process = o->same_process || o->one_profile;
	dopts->min_effect_pp = o->min_effect.pp;
	dopts->min_effect_rel = o->min_effect.rel;
	dopts->wait_floor = wait_floor(p, o);
	dopts->bounded = bounded(p);
	dopts->saturated = saturated(p, p->idle);
	dopts->has_counts = b->has_counts && n->has_counts;
	dopts->approx = (b->merged.counts_scaled || n->merged.counts_scaled) &&
	    (b->nprofiles < 2 || n->nprofiles < 2);
	p->approx_live = dopts->approx &&
	    ((b->merged.counts_scaled && b->merged.counts_recovered) ||
	    (n->merged.counts_scaled && n->merged.counts_recovered));
	dopts->untimed = b->kind == KIND_EVENTS && p->norm == DELTA_NORM_NONE &&
	    !o->normalize.given && o->requests[0] <= 0;
	dopts->max_callers = 3;
	dopts->weighted = b->kind != KIND_SLICED;
	dopts->valued = b->kind == KIND_SLICED;
	dopts->per_count = dopts->weighted && b->merged.count_type[0] != '\0' &&
	    strcmp(b->merged.count_type, b->sample_type) != 0 &&
	    strcmp(b->unit, "count") != 0;
	exposures(p, o);
	/*
	 * A flame graph's frames: folded stacks are every stack,
	 * untested; the SVG what shows.
	 */
	if (delta_compute(b->agg, n->agg, be, nb, ne, nn, dopts,
	    &p->d) == -1)
		return cli_msg(MSG_OUT_OF_RANGE, cmd);
	/*
	 * The graph's frames, at the spread the table measured and of
	 * the quantity it compares, against its denominators.
	 */
	fopts = *dopts;
	fopts.nulls = &p->d.judge;
	if (cli_writer(o)->tree && flame_compute(b->agg, n->agg, be, nb, ne,
	    nn, svg ? &fopts : NULL,
	    svg ? &p->d : NULL, svg ? FLAME_MIN_SHARE : 0, &p->fl) == -1)
		return cli_msg(MSG_OUT_OF_RANGE, cmd);
	warn_compare(p);
	cli_diags_print(&p->warnings, nw, o->quiet);
	return 0;
}

/*
 * The views of --list and --peek.  A CI gate asked about a function
 * that is not there is misconfigured: check-significance fails (2);
 * diff says so and writes the rest.  Returns 0, or -1 after a message.
 */
static int
pair_views(struct pair *p, const struct opts *o)
{
	const char	*cmd = o->cmd->name;
	const struct views *v = &p->views;
	struct views_runs vr;
	size_t		 nw = p->warnings.n;
	int		 bad;

	vr.be = p->base.each;
	vr.nb = p->base.nprofiles;
	vr.ne = p->new.each;
	vr.nn = p->new.nprofiles;
	if (views_compute(&p->views, o->views, p->base.lines, p->new.lines,
	    &vr, &p->d, &p->dopts) == -1)
		return cli_msg(MSG_OUT_OF_RANGE, cmd);
	bad = (v->list_re != NULL && v->nlists == 0) ||
	    (v->peek_re != NULL && v->npeeks == 0);
	if (v->list_re != NULL && v->nlists == 0)
		diags_add(&p->warnings, MSG_LIST_NONE, NULL, NULL, cmd,
		    v->list_re);
	if (v->peek_re != NULL && v->npeeks == 0)
		diags_add(&p->warnings, MSG_PEEK_NONE, NULL, NULL, cmd,
		    v->peek_re, agg_gran_name(o->load.agg.gran));
	/* check-significance's errors, printed even with -q. */
	cli_diags_print(&p->warnings, nw, !o->cmd->gate && o->quiet);
	/* Sources --source-path would have read outside its folders. */
	nw = p->warnings.n;
	report_views_refused(v, o->source_path, &p->warnings);
	cli_diags_print(&p->warnings, nw, o->quiet);
	return bad && o->cmd->gate ? -1 : 0;
}

/* What the report calls the quantity compared. */
static const char *
quantity_name(enum delta_norm norm)
{
	switch (norm) {
	case DELTA_NORM_TOTAL:
		return "shares";
	case DELTA_NORM_DURATION:
		return "rates";
	case DELTA_NORM_REQUESTS:
		return "per request";
	default:
		return "absolute";
	}
}

/*
 * The header of the report, which its flame graph shares: the sides,
 * how they were tested and at what thresholds, the filters, and the
 * quantity.  The points of --min-effect are those judged (a wait's
 * floor, delta.min_pp), the flame graph's frames' too, which flame.c
 * judges at the table's min_pp.
 */
static struct report_head
report_head_of(const struct pair *p, const struct opts *o,
    const char *method, const char *filters, const struct report_sel *sel,
    int64_t neither)
{
	int floored = p->d.floored;

	return (struct report_head){
		.base = &p->base.merged,
		.new = &p->new.merged,
		.nbase = p->base.nprofiles,
		.nnew = p->new.nprofiles,
		.method = method,
		.alpha = o->alpha,
		.min_effect_pp = floored ? p->d.min_pp : o->min_effect.pp,
		.min_effect_rel = o->min_effect.rel,
		.min_floor = floored ? p->dopts.wait_floor : 0,
		.has_counts = p->dopts.has_counts,
		.filters = filters,
		.quantity = p->quantity,
		.quantity_name = quantity_name(p->norm),
		.sel = { o->select[0] != NULL ? &sel[0] : NULL,
		    o->select[1] != NULL ? &sel[1] : NULL },
		.one_profile = o->one_profile,
		.neither = neither,
		.same_process = p->dopts.same_process,
		.warnings = &p->warnings,
		.sym = { &p->base.sym, &p->new.sym },
	};
}

int
pair_write(struct pair *p, struct opts *o, int status, int lead,
    const char *conclusion)
{
	struct report_sel sel[2];
	int64_t	 neither;
	char	*method, *filters;
	int	 svg = o->format == FMT_SVG, rc;

	if (pair_views(p, o) == -1)
		return -1;
	cli_sides_head(o, &p->base, &p->new, sel, &neither);
	method = report_method(&p->base.merged, p->dopts.has_counts,
	    svg ? &p->fl.judge : &p->d.judge, svg, !svg && p->d.weighted,
	    p->spans != NULL ? "parts of the sides' spans" : "profiles");
	filters = cli_filters_text(o);
	rc = cli_write(o, &(struct diff_report){
		.h = report_head_of(p, o, method, filters, sel, neither),
		.spans = p->spans,
		.kind = o->cmd->gate ? DIFF_CHECK : DIFF_REPORT,
		/* The rows, and what they are of. */
		.d = &p->d,
		.order = p->order,
		.nshow = p->nshow,
		.norm = p->dopts.norm,
		.unit = p->base.unit,
		.granularity = agg_gran_name(o->load.agg.gran),
		.by_label = o->load.agg.label_key,
		.relative = o->relative,
		.base_kept = agg_kept_share(p->base.agg, p->base.merged.total),
		.new_kept = agg_kept_share(p->new.agg, p->new.merged.total),
		/* What makes the findings leads only. */
		.approx = p->dopts.approx,
		.approx_live = p->approx_live,
		.waits = p->base.waits,
		.untimed = p->dopts.untimed,
		/* The gate's. */
		.exit_status = status,
		.conclusion = conclusion,
		.lead = lead,
		/* How it is drawn. */
		.color = cli_color(o),
		.out_unit = o->unit,
		.fl = &p->fl,
		.width_base = o->flame_base,
		.views = o->views != NULL ? &p->views : NULL,
		.source_path = o->source_path,
	});
	free(method);
	free(filters);
	return rc;
}

void
pair_release(struct pair *p)
{
	flame_release(&p->fl);
	views_release(&p->views);
	delta_release(&p->d);
	free(p->order);
	free(p->quantity);
	free(p->run_expo);
	side_free(&p->base);
	side_free(&p->new);
	diags_release(&p->warnings);
}

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
#include <unistd.h>

#include "core/agg.h"
#include "cli/cli.h"
#include "cli/diags.h"
#include "core/delta.h"
#include "core/flame.h"
#include "core/kind.h"
#include "load/load.h"
#include "support/xmalloc.h"
#include "cli/pair.h"
#include "report/report.h"
#include "support/units.h"

int
pair_parse(const struct cli_cmd *c, int argc, char **argv, long long rows,
    struct opts *o)
{
	int rc;

	if ((rc = cli_parse(argc, argv, c->options, c->name, o)) != 0)
		return rc;
	o->load.moments = 1;
	if (cli_pair_operands(o, c->name) == -1 ||
	    cli_bases(o, c->name, 1) == -1 ||
	    cli_filters(o, c->name) == -1) {
		cli_release(o);
		return -1;
	}
	if (o->nrows < 0)
		o->nrows = rows;
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
choose_quantity(struct pair *p, const struct opts *o, const char *cmd)
{
	const struct facts *bf = &p->base.merged, *nf = &p->new.merged;
	const char	*why = p->base.kind_why, *how;
	enum kind	 k = p->base.kind;
	int		 timed = bf->duration_ns > 0 && nf->duration_ns > 0;

	p->norm = o->normalize;
	if (o->requests[0] > 0) {
		if (o->normalize != CLI_NORM_AUTO) {
			cli_warn("%s: --requests and --normalize cannot go "
			    "together: --requests compares values per request",
			    cmd);
			return -1;
		}
		p->norm = DELTA_NORM_REQUESTS;
	} else if (p->norm == CLI_NORM_AUTO)
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
	    p->norm == DELTA_NORM_REQUESTS ? "values per request" :
	    p->base.nprofiles > 1 || p->new.nprofiles > 1 ?
	    "absolute values (the mean of each side's profiles)" :
	    "absolute values";
	if (o->requests[0] > 0 || o->normalize != CLI_NORM_AUTO)
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
 * In a CI gate (the command that takes --fail-on), a filter that
 * matched nothing on either side, or a --by-label key that no sample
 * carries, is most likely a typo: a --focus would leave nothing to
 * test, and the gate would exit 3, inconclusive, which a CI script may
 * take as a pass.  So it is an error there; diff and top only warn.
 */
static int
gate_unmatched(const struct pair *p, const char *cmd)
{
	const struct cli_cmd	*c = cli_cmd_find(cmd);
	unsigned		 no;
	char			 what[256];

	if (c == NULL || (c->options & OPT_CHECK) == 0 ||
	    (no = side_unmatched(&p->base) & side_unmatched(&p->new)) == 0)
		return 0;
	side_unmatched_say(no, p->base.label_key, what, sizeof(what));
	cli_warn("%s: on both sides, %s: most likely a typo, and the gate "
	    "would not test what was meant", cmd, what);
	return -1;
}

int
pair_load(struct pair *p, const struct opts *o, const char *cmd)
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
	if (choose_quantity(p, o, cmd) == -1)
		return -1;
	if (cli_check_unit(o->unit, cmd, &p->base.merged) == -1)
		return -1;
	if (gate_unmatched(p, cmd) == -1)
		return -1;
	side_warn_pair(&p->base, &p->new, p->norm, &p->warnings);
	cli_diags_print(&p->warnings, 0, o->quiet);
	return 0;
}

/* What "runtime.asyncPreempt" growing means, and runs that disagree. */
#define PD_DISPERSION_WARN	2.0	/* runs vary this much more: warn */
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
	for (i = 0; i < d->nrows; i++) {
		const struct delta_row *row = &d->rows[i];

		if (strcmp(row->name, PD_PREEMPT) != 0 ||
		    (row->verdict != VERDICT_REGRESSED &&
		    row->verdict != VERDICT_IMPROVED))
			continue;
		diags_add(&p->warnings, MSG_PREEMPTED, NULL, NULL, NULL,
		    PD_PREEMPT, d->base_total ? 100.0 * (double)row->base_cum /
		    (double)d->base_total : 0, d->new_total ? 100.0 *
		    (double)row->new_cum / (double)d->new_total : 0,
		    row->verdict == VERDICT_REGRESSED ? "more" : "less");
	}
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

int
pair_compare(struct pair *p, const struct opts *o, const char *cmd)
{
	struct delta_opts	*dopts = &p->dopts;
	const struct side	*b = &p->base, *n = &p->new;
	int			 svg = o->format == FMT_SVG;
	size_t			 nw = p->warnings.n;

	dopts->norm = (enum delta_norm)p->norm;
	dopts->alpha = o->alpha;
	dopts->min_effect_pp = o->min_effect.pp;
	dopts->min_effect_rel = o->min_effect.rel;
	dopts->wait_floor = wait_floor(p, o);
	dopts->has_counts = b->has_counts && n->has_counts;
	dopts->approx = (b->merged.counts_scaled || n->merged.counts_scaled) &&
	    (b->nprofiles < 2 || n->nprofiles < 2);
	dopts->untimed = b->kind == KIND_EVENTS && p->norm == DELTA_NORM_NONE &&
	    o->normalize == CLI_NORM_AUTO && o->requests[0] <= 0;
	dopts->max_callers = 3;
	dopts->weighted = b->kind != KIND_SLICED;
	dopts->per_count = dopts->weighted && b->merged.count_type[0] != '\0' &&
	    strcmp(b->merged.count_type, b->sample_type) != 0 &&
	    strcmp(b->unit, "count") != 0;
	exposures(p, o);
	/* Folded stacks are every stack, untested; the SVG what shows. */
	if (delta_compute(b->agg, n->agg, b->each, b->nprofiles, n->each,
	    n->nprofiles, dopts, &p->d) == -1 ||
	    ((svg || o->format == FMT_FOLDED) && flame_compute(b->agg,
	    n->agg, b->each, b->nprofiles, n->each, n->nprofiles,
	    svg ? dopts : NULL, svg ? FLAME_MIN_SHARE : 0, &p->fl) == -1))
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
pair_views(struct pair *p, const struct opts *o, enum diff_kind kind)
{
	const char	*cmd = kind == DIFF_CHECK ? "check-significance" :
			    "diff";
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
	cli_diags_print(&p->warnings, nw, kind != DIFF_CHECK && o->quiet);
	return bad && kind == DIFF_CHECK ? -1 : 0;
}

int
pair_write(struct pair *p, struct opts *o, enum diff_kind kind, int status,
    const char *conclusion)
{
	struct diff_report	 r;
	FILE			*fp;
	char			*method, *filters;
	int			 ok = 0;

	if (pair_views(p, o, kind) == -1)
		return -1;
	memset(&r, 0, sizeof(r));
	r.h.base = &p->base.merged;
	r.h.new = &p->new.merged;
	r.h.nbase = p->base.nprofiles;
	r.h.nnew = p->new.nprofiles;
	r.h.method = method = report_method(&p->base.merged,
	    p->dopts.has_counts, o->format == FMT_SVG ? &p->fl.judge :
	    &p->d.judge, o->format == FMT_SVG, o->format != FMT_SVG &&
	    p->d.weighted);
	r.h.alpha = o->alpha;
	r.h.min_effect_pp = o->min_effect.pp;
	r.h.min_effect_rel = o->min_effect.rel;
	if (o->format != FMT_SVG && p->d.floored) {
		/* The flame graph's frames are shares, never floored. */
		r.h.min_effect_pp = p->d.min_pp;
		r.h.min_floor = p->dopts.wait_floor;
	}
	r.h.has_counts = p->dopts.has_counts;
	r.h.filters = filters = cli_filters_text(o);
	r.h.quantity = p->quantity;
	r.h.quantity_name = p->norm == DELTA_NORM_TOTAL ? "shares" :
	    p->norm == DELTA_NORM_DURATION ? "rates" :
	    p->norm == DELTA_NORM_REQUESTS ? "per request" : "absolute";
	r.kind = kind;
	r.approx = p->dopts.approx;
	r.waits = p->base.waits;
	r.untimed = p->dopts.untimed;
	r.d = &p->d;
	r.order = p->order;
	r.nshow = p->nshow;
	r.norm = p->dopts.norm;
	r.unit = p->base.unit;
	r.granularity = agg_gran_name(o->load.agg.gran);
	r.relative = o->relative;
	r.base_kept = agg_kept_share(p->base.agg, p->base.merged.total);
	r.new_kept = agg_kept_share(p->new.agg, p->new.merged.total);
	r.by_label = o->load.agg.label_key;
	r.exit_status = status;
	r.conclusion = conclusion;
	r.fl = &p->fl;
	r.width_base = o->flame_base;
	r.out_unit = o->unit;
	r.views = o->views != NULL ? &p->views : NULL;
	r.source_path = o->source_path;
	if ((fp = cli_open_output(o)) != NULL) {
		r.color = o->color == 1 || (o->color == -1 && fp == stdout &&
		    isatty(fileno(stdout)));
		ok = report_diff_write(fp, (enum report_format)o->format,
		    &r) == 0;
		if (cli_close_output(fp, o, ok) == -1)
			ok = 0;
	}
	free(method);
	free(filters);
	return ok ? 0 : -1;
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

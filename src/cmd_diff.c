/*
 * profdiff diff, and the work it shares with check-significance: load a
 * base and a new side (one or more profiles each), check that they can
 * be compared and warn where the comparison is weak, compute the deltas
 * with their verdicts, sort, and hand the rows to a report writer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg.h"
#include "cli.h"
#include "delta.h"
#include "diag.h"
#include "filter.h"
#include "flame.h"
#include "load.h"
#include "report.h"
#include "report_flame.h"
#include "stats.h"
#include "xmalloc.h"

#define PD_DIFF_ROWS		20	/* default rows for diff */

/*
 * Everything diff and check-significance share.  Returns the exit status
 * for a usage or input error (2), or 0 with the report written; for
 * check, *status gets the check's own exit status.
 */
int
diff_run(const struct cli_cmd *self, int argc, char **argv, int is_check,
    int *status)
{
	enum diff_kind		 kind = is_check ? DIFF_CHECK : DIFF_REPORT;
	const char		*cmd = self->name;
	struct opts		 o;
	struct side		 b, n;
	struct delta		 d;
	struct delta_opts	 dopts;
	struct diff_report	 r;
	size_t			*order = NULL, nb, nshow;
	char			*filters = NULL, *method = NULL;
	FILE			*fp;
	struct flame		 fl;
	struct flame_report	 fr;
	int			 rc = 0, ok, regressed;

	*status = 0;
	memset(&fl, 0, sizeof(fl));
	if ((rc = cli_parse(argc, argv, self->options, cmd, &o)) != 0)
		return rc == 1 ? 0 : 2;
	if (o.format == FMT_SVG || o.format == FMT_FOLDED) {
		if (o.load.agg.label_key != NULL) {
			cli_warn("%s: --by-label has no call tree to draw: use "
			    "--format text, json, csv or markdown", cmd);
			cli_release(&o);
			return 2;
		}
		o.load.agg.tree = 1;		/* flame graphs need the tree */
	}
	nb = o.sep >= 0 ? (size_t)o.sep : o.noperands == 2 ? 1 : 0;
	if (nb == 0 || nb >= o.noperands) {
		cli_warn(o.noperands == 2 || o.sep >= 0 ?
		    "%s: need at least one base and one new profile" :
		    o.noperands < 2 ? "%s: need a base and a new profile" :
		    "%s: with more than two profiles, put -- between the base "
		    "profiles and the new ones", cmd);
		cli_usage(stderr, cmd);
		cli_release(&o);
		return 2;
	}
	if (o.nrows < 0)	/* check lists every significant row */
		o.nrows = kind == DIFF_REPORT ? PD_DIFF_ROWS : 0;
	if (cli_filters(&o, cmd) == -1) {
		cli_release(&o);
		return 2;
	}
	memset(&b, 0, sizeof(b));
	memset(&n, 0, sizeof(n));
	/*
	 * The two sides decode in parallel, one on each core.  The single
	 * profiles behind each side are kept only where the test uses them:
	 * between replicates, two or more on each side.
	 */
	if (side_load_pair(&b, o.operands, nb, &n, o.operands + nb,
	    o.noperands - nb, &o.load, 1) == -1) {
		rc = 2;
		goto out;
	}
	if (o.normalize == DELTA_NORM_DURATION &&
	    (b.merged.duration_ns <= 0 || n.merged.duration_ns <= 0)) {
		cli_warn("%s: --normalize=duration needs the duration of every "
		    "profile, and %s has none", cmd,
		    b.merged.duration_ns <= 0 ? "base" : "new");
		rc = 2;
		goto out;
	}
	if (!o.quiet)
		side_warn_pair(&b, &n);

	memset(&dopts, 0, sizeof(dopts));
	dopts.norm = (enum delta_norm)o.normalize;
	dopts.alpha = o.alpha;
	dopts.min_effect_pp = o.min_effect.pp;
	dopts.min_effect_rel = o.min_effect.rel;
	dopts.base_seconds = (double)b.merged.duration_ns / 1e9;
	dopts.new_seconds = (double)n.merged.duration_ns / 1e9;
	dopts.has_counts = b.has_counts && n.has_counts;
	dopts.max_callers = 3;
	if (delta_compute(b.agg, n.agg, b.each, b.nprofiles, n.each,
	    n.nprofiles, &dopts, &d) == -1) {
		cli_warn("%s: sample counts are out of range for the "
		    "statistics (negative, or above 2^52)", cmd);
		rc = 2;
		goto out;
	}
	/* Folded stacks are every stack, untested; the SVG what shows. */
	if ((o.format == FMT_SVG || o.format == FMT_FOLDED) &&
	    flame_compute(b.agg, n.agg, b.each, b.nprofiles, n.each,
	    n.nprofiles, o.format == FMT_SVG ? &dopts : NULL,
	    o.format == FMT_SVG ? FLAME_MIN_SHARE : 0, &fl) == -1) {
		cli_warn("%s: sample counts are out of range for the "
		    "statistics (negative, or above 2^52)", cmd);
		rc = 2;
		goto out_delta;
	}

	order = delta_select(&d, (enum delta_sort)o.sort, kind == DIFF_CHECK,
	    (size_t)o.nrows, &nshow);

	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.h.base = &b.merged;
	r.h.new = &n.merged;
	r.h.nbase = b.nprofiles;
	r.h.nnew = n.nprofiles;
	r.d = &d;
	r.order = order;
	r.nshow = nshow;
	r.norm = dopts.norm;
	r.unit = b.unit;
	r.granularity = agg_gran_name(o.load.agg.gran);
	method = report_method(&b.merged, dopts.has_counts, d.replicates);
	r.h.method = method;
	r.h.alpha = o.alpha;
	r.h.min_effect_pp = o.min_effect.pp;
	r.h.min_effect_rel = o.min_effect.rel;
	r.h.has_counts = dopts.has_counts;
	r.h.filters = filters = cli_filters_text(&o);
	r.relative = o.relative;
	r.base_kept = agg_kept_share(b.agg, b.merged.total);
	r.new_kept = agg_kept_share(n.agg, n.merged.total);
	r.by_label = o.load.agg.label_key;

	if (kind == DIFF_CHECK) {
		*status = delta_exit_status(&d, &dopts,
		    (enum delta_fail_on)o.fail_on, &regressed);
		r.exit_status = *status;
		r.conclusion = report_conclusion(*status, regressed,
		    o.fail_on == DELTA_FAIL_ANY_CHANGE);
	}

	if ((fp = cli_open_output(&o)) == NULL) {
		rc = 2;
		goto out_delta;
	}
	r.color = o.color == 1 || (o.color == -1 && fp == stdout &&
	    isatty(fileno(stdout)));
	switch (o.format) {
	case FMT_JSON:
		ok = report_diff_json(fp, &r) == 0;
		break;
	case FMT_CSV:
		ok = report_diff_csv(fp, &r) == 0;
		break;
	case FMT_MARKDOWN:
		ok = report_diff_markdown(fp, &r) == 0;
		break;
	case FMT_SVG:
	case FMT_FOLDED:
		memset(&fr, 0, sizeof(fr));
		fr.h = r.h;
		fr.fl = &fl;
		fr.width_base = o.flame_base;
		ok = (o.format == FMT_SVG ? report_flame_svg(fp, &fr) :
		    report_flame_folded(fp, &fr)) == 0;
		break;
	default:
		ok = report_diff_text(fp, &r) == 0;
		break;
	}
	if (cli_close_output(fp, &o, ok) == -1 || !ok)
		rc = 2;
out_delta:
	flame_release(&fl);
	delta_release(&d);
out:
	free(order);
	free(filters);
	free(method);
	side_free(&b);
	side_free(&n);
	cli_release(&o);
	return rc;
}

int
cmd_diff(const struct cli_cmd *self, int argc, char **argv)
{
	int status;

	return diff_run(self, argc, argv, 0, &status);
}

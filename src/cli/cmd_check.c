/*
 * profdiff check-significance: diff for CI.  It prints a short report of
 * the significant rows only (all of them unless -n says otherwise) and
 * says so in its exit status: 0 nothing significant, 1 a significant and
 * practically relevant regression (or any change, with
 * --fail-on=any-change), 2 usage or input error, 3 inconclusive because
 * the samples cannot detect --min-effect.  The steps are diff's
 * (pair.c); the status is delta.c's rule on the verdicts.
 */
#include <stddef.h>

#include "cli/cli.h"
#include "core/delta.h"
#include "cli/pair.h"
#include "report/report.h"

int
cmd_check(const struct cli_cmd *self, int argc, char **argv)
{
	struct opts	 o;
	struct pair	 p;
	int		 rc, status, regressed, lead;

	if ((rc = pair_parse(self, argc, argv, &o)) != 0)
		return rc == 1 ? 0 : 2;
	rc = 2;
	if (pair_load(&p, &o) == 0 && pair_compare(&p, &o) == 0) {
		status = delta_exit_status(&p.d, &p.dopts, o.fail_on,
		    &regressed);
		p.order = delta_select(&p.d, o.sort, 1, o.nrows, &p.nshow);
		/*
		 * A finding that cannot fail the gate (delta_opts.approx,
		 * untimed), and why; or nothing to test at all.
		 */
		lead = REPORT_LEAD_NONE;
		if (status == 3 && (regressed || (o.fail_on ==
		    DELTA_FAIL_ANY_CHANGE && p.d.nfindings > 0)))
			lead = p.approx_live ? REPORT_LEAD_LIVE :
			    p.dopts.approx ? REPORT_LEAD_APPROX :
			    p.dopts.untimed ? REPORT_LEAD_UNTIMED :
			    REPORT_LEAD_NONE;
		else if (status == 3 && !p.dopts.has_counts)
			lead = REPORT_LEAD_NOCOUNTS;
		if (pair_write(&p, &o, status, lead,
		    report_conclusion(status, regressed,
		    o.fail_on == DELTA_FAIL_ANY_CHANGE, lead)) == 0)
			rc = status;
	}
	pair_release(&p);
	cli_release(&o);
	return rc;
}

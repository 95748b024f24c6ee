/*
 * profdiff diff: what changed between a base and a new side (one or
 * more profiles each), function by function, each change with its
 * verdict, as a table or a flame graph.  It runs the steps it shares
 * with check-significance (pair.c): parse, load, compare, then the
 * first -n rows in the order of --sort, and write.
 */
#include <stddef.h>

#include "cli/cli.h"
#include "core/delta.h"
#include "cli/pair.h"
#include "report/report.h"

int
cmd_diff(const struct cli_cmd *self, int argc, char **argv)
{
	struct opts	 o;
	struct pair	 p;
	int		 rc;

	if ((rc = pair_parse(self, argc, argv, &o)) != 0)
		return rc == 1 ? 0 : 2;
	rc = 2;
	if (pair_load(&p, &o) == 0 && pair_compare(&p, &o) == 0) {
		p.order = delta_select(&p.d, o.sort, 0, o.nrows, &p.nshow);
		if (pair_write(&p, &o, 0, REPORT_LEAD_NONE, NULL) == 0)
			rc = 0;
	}
	pair_release(&p);
	cli_release(&o);
	return rc;
}

/*
 * profdiff check-significance: diff for CI.  It prints a short report of
 * the significant rows only and says so in its exit status: 0 nothing
 * significant, 1 a significant and practically relevant regression (or
 * any change, with --fail-on=any-change), 2 usage or input error, 3
 * inconclusive because the samples cannot detect --min-effect.
 */
#include "cli.h"

int
cmd_check(const struct cli_cmd *self, int argc, char **argv)
{
	int rc, status;

	if ((rc = diff_run(self, argc, argv, 1, &status)) != 0)
		return rc;
	return status;
}

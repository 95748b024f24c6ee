/*
 * The steps diff and check-significance share, in the order they run:
 * parse the options and split the operands into the two sides, load
 * the sides, compare them, write the report.  Between the steps the
 * CLI's options become the rooms' own (load_opts, delta_opts) and the
 * rooms' failures become messages; the work itself is load.c's,
 * delta.c's, flame.c's and the report writers'.  The commands choose
 * the rows (delta_select()) and, for check, the exit status
 * (delta_exit_status()) themselves.  CLI layer: it prints to stderr.
 */
#ifndef PAIR_H
#define PAIR_H

#include <stddef.h>

#include "cli/cli.h"
#include "core/delta.h"
#include "core/flame.h"
#include "load/load.h"
#include "core/views.h"
#include "support/diag.h"

/* One comparison, from its loading to its report. */
struct pair {
	struct side	 base, new;
	struct delta_opts dopts;	/* from the options and the sides */
	double		 idle[2];	/* each side's idle share, where
					   dopts.saturated is set */
	int		 approx_live;	/* dopts.approx for a live-heap
					   snapshot (report.h) */
	struct delta	 d;
	struct flame	 fl;		/* svg and folded only */
	struct views	 views;		/* --list and --peek */
	size_t		*order;		/* the rows shown: delta_select() */
	size_t		 nshow;
	enum delta_norm	 norm;		/* --normalize, auto decided */
	char		*quantity;	/* what is compared and why */
	double		*run_expo;	/* each profile's exposure */
	/*
	 * spans: each side's parts (side.parts, its replicates) and the
	 * spans in each, their exposures; and the report's spans section.
	 */
	const double	*part_expo[2];
	const struct report_spans *spans;
	struct diags	 warnings;	/* loading's and the comparison's */
};

/*
 * cli_parse() for the command c, then its operands split into base and
 * new (cli_pair_operands()), --base, what loading needs
 * (cli_load_opts()), and the output opened (cli_output_open()), before
 * anything is read.  Returns 0; 1 after the help; or -1 after a
 * message, with o released.
 */
int	pair_parse(const struct cli_cmd *c, int argc, char **argv,
	    struct opts *o);
/*
 * Load both sides (side_load_pair()), check that the options can apply
 * to them, and warn where the comparison is weak unless -q.  Returns 0,
 * or -1 after a message.  pair_release() p in either case.
 */
int	pair_load(struct pair *p, const struct opts *o);
/*
 * The rows and their verdicts (delta_compute()), and for svg and folded
 * the flame graph's frames (flame_compute()).  Returns 0, or -1 after a
 * message.
 */
int	pair_compare(struct pair *p, const struct opts *o);
/*
 * Write the report to -o (or standard output), with a gate's exit
 * status, why its findings made it inconclusive (REPORT_LEAD_*, report.h)
 * and its conclusion, and --list's and --peek's views (views_compute())
 * first: an expression that matches nothing is a warning for diff and
 * an error for a gate (check-significance).  Returns 0, or -1 after a
 * message.
 */
int	pair_write(struct pair *p, struct opts *o, int status, int lead,
	    const char *conclusion);
void	pair_release(struct pair *);

#endif

/*
 * profdiff top: the functions (or files, lines, addresses) with the most
 * flat or cumulative value in one profile, or in several merged, with
 * the facts to check before trusting it.  Its steps: parse, load the
 * profiles as one side (load.c), order the nodes into rows, and hand
 * them, or the flame graph of the one side, to a report writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "cli/cli.h"
#include "cli/diags.h"
#include "core/flame.h"
#include "load/load.h"
#include "report/report.h"
#include "support/xmalloc.h"

/* Larger |a| first, then by name, then larger |b|. */
static int
cmp_keys(int64_t a1, int64_t a2, const char *n1, const char *n2,
    int64_t b1, int64_t b2)
{
	int c;

	if (llabs(a1) != llabs(a2))
		return llabs(a1) > llabs(a2) ? -1 : 1;
	if ((c = strcmp(n1, n2)) != 0)
		return c;
	if (llabs(b1) != llabs(b2))
		return llabs(b1) > llabs(b2) ? -1 : 1;
	return 0;
}

static int
cmp_flat(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;

	return cmp_keys(x->flat, y->flat, x->name, y->name, x->cum, y->cum);
}

static int
cmp_cum(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;

	return cmp_keys(x->cum, y->cum, x->name, y->name, x->flat, y->flat);
}

/*
 * cli_parse(), then the operands (at least one profile, all merged),
 * --base, what loading needs and the output opened.  Returns 0; 1 after
 * the help; or -1 after a message, with o released.
 */
static int
top_parse(const struct cli_cmd *self, int argc, char **argv,
    struct opts *o)
{
	int rc;

	if ((rc = cli_parse(self, argc, argv, o)) != 0)
		return rc;
	if (o->noperands == 0 || o->sep != -1) {
		cli_warn(o->noperands == 0 ? "%s: no profile given" :
		    "%s: -- has no meaning here; list the profiles to merge",
		    self->name);
		cli_usage(stderr, self);
		cli_release(o);
		return -1;
	}
	if (cli_bases(o, 0) == -1 || cli_load_opts(o) == -1 ||
	    cli_output_open(o) == -1) {
		cli_release(o);
		return -1;
	}
	return 0;
}

/*
 * The rows: every node with a value (pprof never prints the empty
 * ones), largest |flat| first, or |cum| with --cum.  Free the array.
 */
static struct top_row *
top_rows(const struct agg *a, int cum, size_t *nrows)
{
	struct top_row	*rows;
	size_t		 i, n = agg_nnodes(a);

	rows = xreallocarray(NULL, n + 1, sizeof(*rows));
	for (i = 0, *nrows = 0; i < n; i++) {
		const struct agg_node *nd = agg_node(a, i);

		if (nd->flat[AGG_VALUE] == 0 && nd->cum[AGG_VALUE] == 0)
			continue;
		rows[*nrows].name = nd->name;
		rows[*nrows].flat = nd->flat[AGG_VALUE];
		rows[(*nrows)++].cum = nd->cum[AGG_VALUE];
	}
	qsort(rows, *nrows, sizeof(*rows), cum ? cmp_cum : cmp_flat);
	return rows;
}

/*
 * The report of side s, with its rows and their flame graph, as the
 * writers take it (report.h).
 */
static struct top_report
top_report_of(const struct side *s, const struct opts *o,
    const struct top_row *rows, size_t nrows, const struct flame *fl,
    const char *filters)
{
	return (struct top_report){
		.profiles = s->facts,
		.nprofiles = s->nprofiles,
		.merged = s->merged,
		/*
		 * pprof's percentages are of the magnitudes; a window made
		 * with --base has the earlier snapshot's values negated in
		 * it, and its own total is what the window holds.
		 */
		.pct_total = o->load.minus != NULL ? agg_total(s->agg,
		    AGG_VALUE) : agg_abs_total(s->agg, AGG_VALUE),
		.granularity = agg_gran_name(o->load.agg.gran),
		.sort_cum = o->cum,
		.rows = rows,
		.nrows = nrows,
		.nshow = o->nrows == 0 || o->nrows > nrows ? nrows : o->nrows,
		.filters = filters,
		.relative = o->relative,
		.kept = agg_kept_share(s->agg, s->merged.total),
		.by_label = o->load.agg.label_key,
		.fl = fl,
		.out_unit = o->unit,
	};
}

int
cmd_top(const struct cli_cmd *self, int argc, char **argv)
{
	struct opts		 o;
	struct side		 s;
	struct top_report	 r;
	struct top_row		*rows = NULL;
	struct flame		 fl;
	struct diag		 d;
	struct diags		 warnings;
	char			*filters = NULL;
	size_t			 nrows;
	int			 rc;

	if ((rc = top_parse(self, argc, argv, &o)) != 0)
		return rc == 1 ? 0 : 2;
	memset(&fl, 0, sizeof(fl));
	diags_init(&warnings);
	rc = 2;
	if (side_load(&s, o.operands, o.noperands, &o.load, &d) == -1)
		cli_diag(&d);
	else {
		side_warn(&s, NULL, &warnings);
		cli_diags_print(&warnings, 0, o.quiet);
		rows = top_rows(s.agg, o.cum, &nrows);
		/* One side: no statistics, so nothing can fail. */
		if (cli_writer(&o)->tree)
			flame_compute(NULL, s.agg, NULL, 0, NULL, 0, NULL,
			    NULL, o.format == FMT_SVG ? FLAME_MIN_SHARE : 0,
			    &fl);
		filters = cli_filters_text(&o);
		r = top_report_of(&s, &o, rows, nrows, &fl, filters);
		r.warnings = &warnings;
		r.sym = &s.sym;
		if (cli_check_unit(&o, &s.merged) == 0 &&
		    cli_write(&o, &r) == 0)
			rc = 0;
	}
	flame_release(&fl);
	free(rows);
	free(filters);
	diags_release(&warnings);
	side_free(&s);
	cli_release(&o);
	return rc;
}

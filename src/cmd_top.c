/*
 * profdiff top: the functions (or files, lines, addresses) with the most
 * flat or cumulative value in one profile, or in several merged, with
 * the facts to check before trusting it.  Loads, aggregates, sorts and
 * hands plain rows to a report writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "cli.h"
#include "diag.h"
#include "facts.h"
#include "flame.h"
#include "load.h"
#include "report.h"
#include "report_flame.h"
#include "xmalloc.h"

static int
cmp_flat(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;
	int64_t fx = llabs(x->flat), fy = llabs(y->flat);
	int64_t cx = llabs(x->cum), cy = llabs(y->cum);
	int c;

	if (fx != fy)
		return fx > fy ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return 0;
}

static int
cmp_cum(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;
	int64_t fx = llabs(x->flat), fy = llabs(y->flat);
	int64_t cx = llabs(x->cum), cy = llabs(y->cum);
	int c;

	if (cx != cy)
		return cx > cy ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if (fx != fy)
		return fx > fy ? -1 : 1;
	return 0;
}

int
cmd_top(const struct cli_cmd *self, int argc, char **argv)
{
	struct opts		 o;
	struct side		 s;
	struct top_report	 r;
	struct top_row		*rows;
	struct flame		 fl;
	struct flame_report	 fr;
	FILE			*fp;
	size_t			 i, n, nrows;
	char			*filters = NULL;
	int			 rc, ok;

	if ((rc = cli_parse(argc, argv, self->options, self->name, &o)) != 0)
		return rc == 1 ? 0 : 2;
	if (o.format == FMT_SVG || o.format == FMT_FOLDED) {
		if (o.load.agg.label_key != NULL) {
			cli_warn("top: --by-label has no call tree to draw: use "
			    "--format text, json or csv");
			cli_release(&o);
			return 2;
		}
		o.load.agg.tree = 1;		/* flame graphs need the tree */
	}
	if (o.noperands == 0 || o.sep != -1) {
		cli_warn(o.noperands == 0 ? "top: no profile given" :
		    "top: -- has no meaning here; list the profiles to merge");
		cli_usage(stderr, "top");
		cli_release(&o);
		return 2;
	}
	o.load.agg.noedges = 1;	/* a flat/cum table and its tree need no edges */
	if (cli_filters(&o, "top") == -1) {
		cli_release(&o);
		return 2;
	}
	if (side_load(&s, o.operands, o.noperands, &o.load) == -1) {
		side_free(&s);
		cli_release(&o);
		return 2;
	}

	n = agg_nnodes(s.agg);
	rows = xreallocarray(NULL, n, sizeof(*rows));
	/* Nodes with nothing in them (as pprof, which never prints them). */
	for (i = 0, nrows = 0; i < n; i++) {
		const struct agg_node *nd = agg_node(s.agg, i);

		if (nd->flat[AGG_VALUE] == 0 && nd->cum[AGG_VALUE] == 0)
			continue;
		rows[nrows].name = nd->name;
		rows[nrows].flat = nd->flat[AGG_VALUE];
		rows[nrows++].cum = nd->cum[AGG_VALUE];
	}
	n = nrows;
	qsort(rows, n, sizeof(*rows), o.cum ? cmp_cum : cmp_flat);

	memset(&r, 0, sizeof(r));
	r.profiles = s.facts;
	r.nprofiles = s.nprofiles;
	r.merged = s.merged;
	r.pct_total = agg_abs_total(s.agg, AGG_VALUE);
	r.granularity = agg_gran_name(o.load.agg.gran);
	r.sort_cum = o.cum;
	r.rows = rows;
	r.nrows = n;
	r.filters = filters = cli_filters_text(&o);
	r.relative = o.relative;
	r.kept = agg_kept_share(s.agg, s.merged.total);
	r.by_label = o.load.agg.label_key;
	if (o.nrows < 0)
		o.nrows = 10;
	r.nshow = o.nrows == 0 || (size_t)o.nrows > n ? n : (size_t)o.nrows;

	if (!o.quiet)
		side_warn(&s, "");

	rc = 0;
	if ((fp = cli_open_output(&o)) == NULL)
		rc = 2;
	else {
		switch (o.format) {
		case FMT_JSON:
			ok = report_top_json(fp, &r) == 0;
			break;
		case FMT_CSV:
			ok = report_top_csv(fp, &r) == 0;
			break;
		case FMT_SVG:
		case FMT_FOLDED:
			/* One side: no statistics, so nothing can fail. */
			flame_compute(NULL, s.agg, NULL, 0, NULL, 0, NULL,
			    o.format == FMT_SVG ? FLAME_MIN_SHARE : 0, &fl);
			memset(&fr, 0, sizeof(fr));
			fr.fl = &fl;
			fr.h.new = &s.merged;
			fr.h.nnew = s.nprofiles;
			fr.h.filters = filters;
			ok = (o.format == FMT_SVG ? report_flame_svg(fp, &fr) :
			    report_flame_folded(fp, &fr)) == 0;
			flame_release(&fl);
			break;
		default:
			ok = report_top_text(fp, &r) == 0;
			break;
		}
		if (cli_close_output(fp, &o, ok) == -1 || !ok)
			rc = 2;
	}
	free(rows);
	free(filters);
	side_free(&s);
	cli_release(&o);
	return rc;
}

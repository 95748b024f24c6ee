/*
 * profdiff series and check-series: when a sequence of profiles
 * changed, and in which functions.  Each operand is a point (a profile,
 * or replicates "a,b,c" merged); the points are loaded one at a time
 * (load.c), what each adds is kept as per-function counts (series.c)
 * and its aggregate freed, so memory holds one point's aggregate and
 * the counts.  Then the changes (series.c), the report
 * (report_series.c), and for check-series the exit status: 1 when the
 * newest segment regressed, 3 when nothing could be tested, 0 else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "cli/cli.h"
#include "cli/diags.h"
#include "core/delta.h"
#include "core/kind.h"
#include "load/load.h"
#include "report/report.h"
#include "report/report_series.h"
#include "core/series.h"
#include "support/xmalloc.h"

/*
 * --base: given once, the first point subtracts it and each later point
 * the point before it, so that cumulative snapshots t0 t1 t2 ... make
 * the windows between them (one profile a point); given once per
 * profile, each profile its own, in order.  Returns 0, or -1 after a
 * message.
 */
static int
series_bases(const struct cli_cmd *self, const struct opts *o)
{
	const char *s;
	size_t	 i, n = 0;

	if (o->bases.n == 0)
		return 0;
	for (i = 0; i < o->noperands; i++)
		for (s = o->operands[i], n++; (s = strchr(s, ',')) != NULL; s++)
			n++;
	if ((o->bases.n == 1 && n == o->noperands) || o->bases.n == n)
		return 0;
	cli_warn("%s: --base is given %zu time%s for %zu profiles: once (the "
	    "snapshot before the first point, with one profile a point) or "
	    "once per profile", self->name, o->bases.n, o->bases.n == 1 ? "" :
	    "s", n);
	return -1;
}

/*
 * The operands: two points or more, none with an empty file name.  The
 * options series refuses (--by-label, --normalize none, the formats it
 * does not write) cli_parse() refused already.
 */
static int
series_operands(const struct cli_cmd *self, struct opts *o)
{
	size_t i;

	if (o->noperands < 2 || o->sep != -1) {
		cli_warn(o->sep != -1 ? "%s: -- has no meaning here; list the "
		    "points in order" : "%s: need at least two points (a "
		    "profile, or replicates a,b,c, each)", self->name);
		cli_usage(stderr, self);
		return -1;
	}
	for (i = 0; i < o->noperands; i++)
		if (o->operands[i][0] == '\0' || strstr(o->operands[i], ",,") !=
		    NULL || o->operands[i][0] == ',' ||
		    o->operands[i][strlen(o->operands[i]) - 1] == ',') {
			cli_warn("%s: operand %zu: an empty file name in '%s'",
			    self->name, i + 1, o->operands[i]);
			return -1;
		}
	return series_bases(self, o);
}

static int
series_parse(const struct cli_cmd *self, int argc, char **argv,
    struct opts *o)
{
	int rc;

	if ((rc = cli_parse(self, argc, argv, o)) != 0)
		return rc;
	if (series_operands(self, o) == -1 || cli_load_opts(o) == -1 ||
	    cli_output_open(o) == -1) {
		cli_release(o);
		return -1;
	}
	return 0;
}

/* Split "a,b,c" into its files; free *paths[0] and *paths. */
static char **
split_point(const char *operand, size_t *n)
{
	char	**v, *s, *p;
	size_t	 cap = 4;

	s = xstrdup(operand);
	v = xreallocarray(NULL, cap, sizeof(*v));
	*n = 0;
	for (p = s; p != NULL; ) {
		if (*n + 1 >= cap) {
			cap *= 2;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[(*n)++] = p;
		if ((p = strchr(p, ',')) != NULL)
			*p++ = '\0';
	}
	v[*n] = NULL;
	return v;
}

/*
 * The quantity compared: --normalize's, or for auto, decided on the
 * first point as diff decides it (kind.h): rates for events over
 * windows whose length the first point knows, else shares; a series
 * has no model of absolute values, so a snapshot's points are compared
 * as shares.
 */
static enum delta_norm
series_quantity(const struct side *first, const struct opts *o)
{
	if (o->normalize.given)
		return o->normalize.how;
	return first->kind == KIND_EVENTS && first->merged.duration_ns > 0 ?
	    DELTA_NORM_DURATION : DELTA_NORM_TOTAL;
}

/*
 * What a point must have to join the others: the first point's unit,
 * the first point's kind if both are Go's mutex/block header (refused
 * as diff refuses a pair, and warned of once, into w, when the leaves
 * are less sure: *warned), and a duration when they are compared as
 * rates (series_quantity()).
 */
static int
point_fits(const struct side *sd, const struct side *first, char **paths,
    const struct opts *o, const char *cmd, struct diags *w, int *warned)
{
	struct diag d;

	if (first != NULL && side_comparable(first, sd, &d) == -1)
		return cli_diag(&d);
	if (first != NULL && !*warned)
		*warned = side_warn_wait(first, sd, w);
	if (series_quantity(first != NULL ? first : sd, o) ==
	    DELTA_NORM_DURATION && sd->merged.duration_ns <= 0) {
		cli_warn("%s: %s: --normalize=duration needs the duration of "
		    "every profile, and this one has none", cmd, paths[0]);
		return -1;
	}
	return 0;
}

/* side_load_ex(): 0, or -1 after its error is printed. */
static int
point_load(struct side *s, char **paths, size_t n,
    const struct load_opts *lo, const char *want_type, int keep_each)
{
	struct diag d;

	if (side_load_ex(s, paths, n, lo, want_type, keep_each, &d) == -1)
		return cli_diag(&d);
	return 0;
}

/*
 * Point i's --base snapshots (series_bases()): the point before it, or
 * its profiles' own, from *at on, which it moves past its n profiles.
 */
static char *const *
point_minus(const struct opts *o, size_t i, size_t n, size_t *at)
{
	char *const *m = NULL;

	if (o->bases.n == 1)
		m = i == 0 ? o->bases.v : &o->operands[i - 1];
	else if (o->bases.n > 0)
		m = o->bases.v + *at;
	*at += n;
	return m;
}

/*
 * A mutex profile's contentions, divided point by point by each one's
 * own divisor, would scale each point's counts against the others': the
 * points after the first are read once more, before they are folded for
 * good, for the divisor of them all.  Returns it (0 or 1: none), or -1
 * after a message when a point cannot be read.
 */
static int64_t
series_divisor(const struct opts *o, struct side *first)
{
	struct side	 sd, *both[2] = { first, &sd };
	struct load_opts lo = o->load;
	char		**paths;
	size_t		 i, n, at = first->nprofiles;
	int64_t		 g = side_count_divisor(both, 1);

	lo.keep_counts = 1;
	for (i = 1; g > 1 && i < o->noperands; i++) {
		paths = split_point(o->operands[i], &n);
		lo.minus = point_minus(o, i, n, &at);
		if (point_load(&sd, paths, n, &lo, first->sample_type,
		    0) == -1)
			g = -1;
		else
			g = side_count_divisor(both, 2);
		side_free(&sd);
		free(paths[0]);
		free(paths);
	}
	return g;
}

/*
 * Load each point in turn, add it to the series, and free it; the
 * first point is kept (its sample type and unit are the series').  The
 * warnings about them are added to w and printed.  Returns 0, or -1
 * after a message.
 */
static int
series_load(struct series *ser, struct side *first, struct opts *o,
    const char *cmd, int *has_counts, struct diags *w)
{
	struct side	 sd, *cur;
	struct load_opts lo = o->load;
	char		**paths, **first_paths = NULL;
	size_t		 i, n, at = 0;
	size_t		 kept = 0, seen = 0;
	int		 rc = 0, scaled, warned = 0;
	int64_t		 g = 0;
	struct diag	 d;

	*has_counts = 1;
	scaled = 0;
	lo.keep_counts = 1;	/* divided alike (series_divisor()) */
	lo.sym_cache = sym_cache_new(&lo.sym);	/* each binary read once */
	for (i = 0; i < o->noperands && rc == 0; i++) {
		paths = split_point(o->operands[i], &n);
		cur = i == 0 ? first : &sd;
		lo.minus = point_minus(o, i, n, &at);
		if (point_load(cur, paths, n, &lo, i == 0 ? NULL :
		    first->sample_type, n >= 2) == -1 ||
		    (i == 0 && (g = series_divisor(o, cur)) == -1) ||
		    point_fits(cur, i == 0 ? NULL : first, paths, o,
		    cmd, w, &warned) == -1)
			rc = -1;
		else {
			side_divide(cur, g);
			diag_init(&d, paths[0]);
			if (series_add(ser, cur->agg, cur->each, n >= 2 ?
			    cur->nprofiles : 0, o->operands[i], paths[0],
			    cur->facts[0].time_ns,
			    cur->merged.duration_ns, &d) == -1)
				rc = cli_diag(&d);
		}
		*has_counts &= cur->has_counts;
		if (i > 0)
			sym_summary_merge(&first->sym, &sd.sym);
		scaled |= cur->merged.counts_scaled;
		kept += cur->fstats.kept;
		seen += cur->fstats.samples;
		if (i > 0)
			side_free(&sd);
		/* The first point's facts name its files: kept till the end. */
		if (i == 0)
			first_paths = paths;
		else {
			free(paths[0]);
			free(paths);
		}
	}
	if (rc == 0 && o->filter != NULL && seen > 0 && kept == 0)
		diags_add(w, MSG_FILTERED_ALL, NULL, NULL, cmd,
		    " in any point");
	if (rc == 0 && scaled && *has_counts)
		diags_add(w, MSG_SERIES_ESTIMATES, NULL, NULL, NULL,
		    first->facts[0].count_type);
	if (rc == 0)
		side_warn_symbols(&first->sym, NULL, NULL, cmd, w);
	cli_diags_print(w, 0, o->quiet);
	if (rc == 0 && !*has_counts) {
		/* Even with -q: it says why nothing was tested. */
		diags_add(w, MSG_NO_COUNTS, NULL, NULL, NULL,
		    first->sample_type);
		cli_diags_print(w, w->n - 1, 0);
	}
	if (first_paths != NULL) {
		free(first_paths[0]);
		free(first_paths);
	}
	sym_cache_free(lo.sym_cache);
	return rc;
}

/*
 * check-series: 1 when the newest segment regressed; 3 when nothing
 * could be tested, or when a change at the newest point alone, of a 50%
 * share, as large as --min-effect asks (its points, or its relative
 * part at that share), would be found less than 80% of the time; else
 * 0.  *mde is that change, or -1.
 */
static int
gate_status(const struct series *ser, const struct series_result *res,
    const struct opts *o, int has_counts, double *mde)
{
	*mde = -1;
	if (!has_counts || res->nhyps == 0)
		return 3;
	if (series_newest_regressed(ser, res))
		return 1;
	*mde = series_newest_mde(ser, res, o->alpha);
	if (*mde * 100 > o->min_effect.pp && *mde * 100 >
	    o->min_effect.rel * 0.5)
		return 3;
	return 0;
}

/* The result line of check-series; free it. */
static char *
gate_conclusion(int status, double mde)
{
	char *s;

	if (status == 1)
		s = xstrdup("significant regression in the newest segment");
	else if (status == 3 && mde < 0)
		s = xstrdup("inconclusive: nothing could be tested (no "
		    "sample counts)");
	else if (status == 3)
		xasprintf(&s, "inconclusive: no significant regression, but "
		    "a change at the newest point alone is found 80%% of the "
		    "time only from ±%.1f points (at a 50%% share), more than "
		    "--min-effect; collect longer profiles or raise it",
		    100 * mde);
	else
		s = xstrdup("no significant regression in the newest segment");
	return s;
}

int
cmd_series(const struct cli_cmd *self, int argc, char **argv)
{
	struct opts		 o;
	struct side		 first;
	struct series		 ser;
	struct series_opts	 so;
	struct series_result	 res;
	struct series_report	 sr;
	struct diags		 warnings;
	struct diag		 d;
	char			*filters = NULL, *conclusion = NULL;
	double			 mde;
	int			 rc, has_counts, status = 0;

	if ((rc = series_parse(self, argc, argv, &o)) != 0)
		return rc == 1 ? 0 : 2;
	memset(&first, 0, sizeof(first));
	memset(&res, 0, sizeof(res));
	series_init(&ser);
	diags_init(&warnings);
	rc = 2;
	if (series_load(&ser, &first, &o, self->name, &has_counts,
	    &warnings) == -1)
		goto out;
	if (o.by_time)
		series_sort_time(&ser);
	so.rates = series_quantity(&first, &o) == DELTA_NORM_DURATION;
	so.alpha = o.alpha;
	so.min_effect_pp = o.min_effect.pp;
	so.min_effect_rel = o.min_effect.rel;
	diag_init(&d, self->name);
	if (series_compute(&ser, &so, &res, &d) == -1) {
		cli_diag(&d);
		goto out;
	}
	if (self->gate) {
		status = gate_status(&ser, &res, &o, has_counts, &mde);
		conclusion = gate_conclusion(status, mde);
	}
	filters = cli_filters_text(&o);
	sr = (struct series_report){
		.s = &ser,
		.r = &res,
		.sample_type = first.sample_type,
		.unit = first.unit,
		.granularity = agg_gran_name(o.load.agg.gran),
		.filters = filters,
		.alpha = o.alpha,
		.min_effect_pp = o.min_effect.pp,
		.min_effect_rel = o.min_effect.rel,
		.nshow = o.nrows == 0 ? res.nchanges : o.nrows,
		.gate = self->gate,
		.exit_status = status,
		.conclusion = conclusion,
		.warnings = &warnings,
		.sym = &first.sym,
	};
	if (cli_write(&o, &sr) == 0)
		rc = status;
out:
	free(filters);
	free(conclusion);
	series_result_release(&res);
	series_release(&ser);
	diags_release(&warnings);
	side_free(&first);
	cli_release(&o);
	return rc;
}

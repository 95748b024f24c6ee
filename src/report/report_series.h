/*
 * The report of profdiff series: the changes found along a sequence of
 * profiles, in text, Markdown, JSON, or SVG (one small chart a change).
 * Reports room: every number was computed before (series.c).
 */
#ifndef REPORT_SERIES_H
#define REPORT_SERIES_H

#include <stddef.h>
#include <stdio.h>

#include "report/report.h"
#include "core/series.h"

struct series_report {
	const struct series		*s;
	const struct series_result	*r;
	const char	*sample_type;
	const char	*unit;
	const char	*granularity;
	const char	*filters;	/* or NULL */
	double		 alpha;
	double		 min_effect_pp, min_effect_rel;
	size_t		 nshow;		/* changes to show */
	int		 gate;		/* check-series */
	int		 exit_status;	/* check-series */
	const char	*conclusion;	/* check-series, or NULL */
	const struct diags *warnings;	/* about the input, or NULL */
	/* What symbolization did, over every point, or NULL. */
	const struct sym_summary *sym;
};

/* series' and check-series' formats, of a struct series_report. */
extern const struct report_writer report_series_formats[];

#endif

/*
 * Flame graph writers: a self-contained SVG (differential for diff and
 * check-significance, plain for top) and folded stacks, one column for
 * top and two ("difffolded", as flamegraph.pl reads them) for diff.
 * They draw the frames flame.c computed; they do no statistics.
 */
#ifndef REPORT_FLAME_H
#define REPORT_FLAME_H

#include <stddef.h>
#include <stdio.h>

#include "report/report.h"

struct flame;

struct flame_report {
	struct report_head h;		/* as the diff report's */
	const struct flame *fl;
	int		 width_base;	/* widths from the base (--flame-width) */
	const char	*out_unit;	/* svg's labels: --unit, or NULL */
};

/* Return 0, or -1 on a write error. */
int	report_flame_svg(FILE *, const struct flame_report *);
int	report_flame_folded(FILE *, const struct flame_report *);

/*
 * Escaping for these writers, in report_util.c beside the others.
 * report_put_xml() writes at most len bytes of s as XML text or an
 * attribute value; report_put_folded() writes a frame name that cannot
 * break a folded line (';' and control bytes as \xNN).
 */
void	report_put_xml(FILE *, const char *s, size_t len);
void	report_put_folded(FILE *, const char *s);

#endif

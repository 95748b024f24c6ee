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

#include "facts.h"

struct flame;

struct flame_report {
	const struct flame *fl;
	const struct facts *base;	/* merged facts; NULL for top */
	const struct facts *new;	/* the profile of top */
	size_t		 nbase, nnew;	/* profiles per side */
	const char	*method;	/* how frames were tested, for people */
	double		 alpha;
	double		 min_effect_pp;
	double		 min_effect_rel;
	int		 has_counts;
	const char	*filters;	/* "--focus RE" etc., or NULL */
	int		 width_base;	/* widths from the base (--flame-width) */
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

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
	/*
	 * The table of the same two sides, whose units a frame's title
	 * and the header give the quantity it compares in (flame.norm),
	 * as its rows are printed; NULL for top.
	 */
	const struct diff_report *diff;
};

/* Return 0, or -1 on a write error. */
int	report_flame_svg(FILE *, const struct flame_report *);
int	report_flame_folded(FILE *, const struct flame_report *);

/*
 * Escaping for these writers, in report_util.c beside the others: every
 * text node and attribute value of an SVG that holds a name, a path or
 * a computed string ("p <1e-300") is written by one of these two.
 * report_put_xml() writes at most len bytes of s as XML text or an
 * attribute value, a name's control bytes (newlines too) as \xNN;
 * report_put_xmlf() writes the formatted text the same way, but keeps
 * its own newlines (a <title>'s lines): a name goes through
 * report_put_xml(), not as one of its arguments.  report_put_folded()
 * writes a frame name that cannot break a folded line (';' and control
 * bytes as \xNN).
 */
void	report_put_xml(FILE *, const char *s, size_t len);
void	report_put_xmlf(FILE *, const char *fmt, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
void	report_put_folded(FILE *, const char *s);
/*
 * s in at most max characters (but no fewer than REPORT_ELIDE_MIN):
 * whole, or its first third and last two thirds about an ellipsis
 * (U+2026), so that a path keeps its file name; a writer that elides
 * gives the whole text as a tooltip (<title>).  Free it.
 */
#define REPORT_ELIDE_MIN	24
char	*report_elide(const char *s, size_t max);
/* Characters (UTF-8 sequences, or single bytes) of s. */
size_t	 report_nchars(const char *s);
/* Bytes of s that hold its first n characters. */
size_t	 report_prefix_bytes(const char *s, size_t n);

#endif

/*
 * pprof's value formatting, as in its internal/measurement package:
 * scaling a sample value to a unit ("1.47s", "6.50MB", "120kB"), the
 * percentage column ("12.34%", "0.52%", "  100%") and the choice of one
 * output unit for a whole report.  The results are byte for byte what
 * go tool pprof prints.  No I/O and no allocation here; the output does
 * not depend on the locale.
 *
 * Units are recognized as pprof does: case-insensitively, with a
 * trailing "s" dropped from names longer than two characters, so that
 * "nanoseconds", "ns", "bytes", "B" and "kilobytes" all work.  Three
 * families exist: bytes (B kB MB GB TB PB, powers of 1024), time (ns us
 * ms s hrs) and Google compute units (n*GCU ... P*GCU).  Anything else,
 * such as "count" or "objects", is printed as a bare number.
 */
#ifndef UNITS_H
#define UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * A buffer this long holds any label of a value in a known unit and any
 * percentage.  Labels ending in an unknown unit name also carry that
 * name; every formatter truncates to the buffer it is given and always
 * NUL-terminates it (len > 0).
 */
#define UNITS_BUFSZ	80

/*
 * pprof's Scale: convert value from unit "from" to unit "to".  to may be
 * a unit name, or "auto" or "minimum" to pick the largest unit in which
 * the value is at least 1.  Returns the converted value and points *unit
 * at the unit to print after it: a static canonical name ("ms", "MB"),
 * "" when the value is a plain number, or the caller's "to" string when
 * "from" is not a known unit and "to" is not one of count, sample, unit,
 * minimum or auto.  unit may be NULL.
 */
double		 units_scale(int64_t value, const char *from, const char *to,
		    const char **unit);

/* units_scale() of a value that need not be whole (a rate), unit aside. */
double		 units_scale_f(double value, const char *from, const char *to);

/*
 * pprof's ScaledLabel: the scaled value printed with "%.2f", a trailing
 * ".00" removed, then the unit ("1.47s", "10ms", "6.50MB", "1234"); a
 * value that prints as zero is just "0".
 */
void		 units_label(char *buf, size_t len, int64_t value,
		    const char *from, const char *to);

/* units_label() with to = "auto": the best unit for this one value. */
void		 units_format(char *buf, size_t len, int64_t value,
		    const char *unit);

/*
 * pprof's Percentage: |value / total| * 100 as "%5.2f%%" when at least
 * 1, as "%5.2g%%" below 1 ("0.52%", " 0.0012%"), and "  100%" within
 * 0.05 of 100.  A zero total gives "    0%".
 */
void		 units_percent(char *buf, size_t len, int64_t value,
		    int64_t total);

/*
 * pprof's choice of one output unit for a report (its default -unit
 * minimum).  minval is the smallest non-zero |flat| over the nodes the
 * report shows, taking |cum| for a node whose flat is zero, or 0 if all
 * are zero; total is the report total.  Returns a static canonical unit
 * name, or the sample unit itself (the caller's string) when pprof would
 * print plain numbers or the unit is unknown.  Format every value of the
 * report with units_label(buf, len, v, unit, units_pick(...)).  pprof
 * makes no choice for a report with no nodes: it formats with "minimum".
 */
const char	*units_pick(int64_t minval, int64_t total, const char *unit);

/*
 * The unit of a numeric label: num_unit when set, else pprof's guess from
 * the key (InferNumLabelUnits: "alignment" and "request" are bytes, any
 * other key is its own unit, so a label "bytes" is in bytes).
 */
const char	*units_of_label(const char *key, const char *num_unit);

/*
 * The family of a unit name as pprof reads it (sniffUnit): "bytes",
 * "time" or "GCU", or NULL when pprof knows no such unit ("count", "").
 */
const char	*units_kind(const char *unit);

/*
 * Is s a value pprof's -unit makes sense with: a unit of one of the three
 * families, in any of pprof's spellings, or "minimum" or "auto"?
 */
int		 units_output_ok(const char *s);

/*
 * The value of --unit to for a report whose values are in unit from:
 * NULL when to is NULL, the sample unit itself when to is "minimum" or
 * "auto" and from is not a known unit, else to.  A report that needs one
 * unit for a whole column (CSV, JSON) gives minval and total as for
 * units_pick() and gets pprof's choice for "minimum" and "auto".
 */
const char	*units_column(const char *to, int64_t minval, int64_t total,
		    const char *from);

/*
 * v in the shortest decimal that reads back as the same double ("%.17g"
 * at most; "12.5", "0.001", "1e+21"), whatever the locale.  Non-finite
 * values print as "null", as JSON needs.
 */
void		 units_number(char *buf, size_t len, double v);
/*
 * The sign of a change v that prints as shown (its magnitude, a number
 * then perhaps a unit: "1.5ms", "0.00"): "-" or "+", but "" when shown
 * is a zero, which a sign would make a change the digits do not show
 * ("[-0, +6]").
 */
const char	*units_sign(double v, const char *shown);
/* v with digits decimals and that sign: "+1.25", "-0.50", "0.00". */
void		 units_signed(char *buf, size_t len, double v, int digits);

#endif

/*
 * pprof's value formatting, transcribed from the measurement package of
 * google/pprof (Scale, ScaledLabel, Percentage, the unit tables) and the
 * report package (selectOutputUnit).  The arithmetic is done in the same
 * order on doubles so that rounding matches Go bit for bit, and C's
 * printf conversions used here ("%.2f", "%.2g") round the way Go's do.
 *
 * No I/O, no allocation and no global state.  printf's decimal point
 * follows LC_NUMERIC, so every number is passed through fix_radix()
 * before it is used: the output never depends on the locale.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/units.h"

struct unit {
	const char	*name;		/* canonical, as printed */
	const char	*alias[4];	/* lower case, NULL-terminated */
	double		 factor;	/* how many base units one is */
};

struct unit_type {
	struct unit	 dflt;		/* used when "to" is not in the family */
	const struct unit *units;	/* in increasing factor */
	size_t		 nunits;
};

static const struct unit mem_units[] = {
	{ "B",	{ "b", "byte", NULL },			1 },
	{ "kB",	{ "kb", "kbyte", "kilobyte", NULL },	1024.0 },
	{ "MB",	{ "mb", "mbyte", "megabyte", NULL },	1048576.0 },
	{ "GB",	{ "gb", "gbyte", "gigabyte", NULL },	1073741824.0 },
	{ "TB",	{ "tb", "tbyte", "terabyte", NULL },	1099511627776.0 },
	{ "PB",	{ "pb", "pbyte", "petabyte", NULL },	1125899906842624.0 },
};

/* The second alias of "us" is the Greek letter mu followed by "s". */
static const struct unit time_units[] = {
	{ "ns",	 { "ns", "nanosecond", NULL },			1 },
	{ "us",	 { "\xce\xbcs", "us", "microsecond", NULL },	1e3 },
	{ "ms",	 { "ms", "millisecond", NULL },			1e6 },
	{ "s",	 { "s", "sec", "second", NULL },		1e9 },
	{ "hrs", { "hour", "hr", NULL },			3.6e12 },
};

static const struct unit gcu_units[] = {
	{ "n*GCU", { "nanogcu", NULL },		1e-9 },
	{ "u*GCU", { "microgcu", NULL },	1e-6 },
	{ "m*GCU", { "milligcu", NULL },	1e-3 },
	{ "GCU",   { "gcu", NULL },		1 },
	{ "k*GCU", { "kilogcu", NULL },		1e3 },
	{ "M*GCU", { "megagcu", NULL },		1e6 },
	{ "G*GCU", { "gigagcu", NULL },		1e9 },
	{ "T*GCU", { "teragcu", NULL },		1e12 },
	{ "P*GCU", { "petagcu", NULL },		1e15 },
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static const struct unit_type unit_types[] = {
	{ { "B", { NULL }, 1 },	  mem_units,  NELEM(mem_units) },
	{ { "s", { NULL }, 1e9 }, time_units, NELEM(time_units) },
	{ { "GCU", { NULL }, 1 }, gcu_units,  NELEM(gcu_units) },
};

/*
 * Go's strings.ToLower, as far as it can matter for matching an alias:
 * ASCII letters, plus the three non-ASCII capitals whose lower case an
 * alias could contain (KELVIN SIGN, LATIN CAPITAL I WITH DOT ABOVE and
 * GREEK CAPITAL MU).  Any other non-ASCII character lowers to something
 * no alias contains, so the function gives up.  Returns the length of
 * the lowered string in dst, or -1 if it cannot match or does not fit.
 */
static int
lower_unit(const char *s, char *dst, size_t dstlen)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n = 0;

	while (*p != '\0') {
		if (n + 2 >= dstlen)
			return -1;
		if (*p < 0x80) {
			dst[n++] = (*p >= 'A' && *p <= 'Z') ? *p - 'A' + 'a' : *p;
			p++;
		} else if (p[0] == 0xe2 && p[1] == 0x84 && p[2] == 0xaa) {
			dst[n++] = 'k';
			p += 3;
		} else if (p[0] == 0xc4 && p[1] == 0xb0) {
			dst[n++] = 'i';
			p += 2;
		} else if (p[0] == 0xce && (p[1] == 0x9c || p[1] == 0xbc)) {
			dst[n++] = (char)0xce;
			dst[n++] = (char)0xbc;
			p += 2;
		} else
			return -1;
	}
	dst[n] = '\0';
	return (int)n;
}

/*
 * pprof's sniffUnit: find the unit of a family named by s, matching
 * lower case, with one trailing "s" dropped from names longer than two
 * bytes.  Returns NULL when s names no unit of the family.
 */
static const struct unit *
sniff_unit(const struct unit_type *ut, const char *s)
{
	char	 low[32];
	int	 n;
	size_t	 i, j;

	if (s == NULL || (n = lower_unit(s, low, sizeof(low))) < 0)
		return NULL;
	if (n > 2 && low[n - 1] == 's')
		low[n - 1] = '\0';
	for (i = 0; i < ut->nunits; i++)
		for (j = 0; ut->units[i].alias[j] != NULL; j++)
			if (strcmp(ut->units[i].alias[j], low) == 0)
				return &ut->units[i];
	return NULL;
}

/*
 * pprof's autoScale: the largest unit in which v (in base units) is at
 * least 1.  Returns 0 when there is none (v below the smallest unit).
 */
static int
auto_scale(const struct unit_type *ut, double v, double *out,
    const char **name)
{
	double	 f = 0;
	size_t	 i;

	for (i = 0; i < ut->nunits; i++) {
		if (ut->units[i].factor >= f && v / ut->units[i].factor >= 1.0) {
			f = ut->units[i].factor;
			*name = ut->units[i].name;
		}
	}
	if (f == 0)
		return 0;
	*out = v / f;
	return 1;
}

/* pprof's convertUnit.  Returns 0 when "from" is not of this family. */
static int
convert_unit(const struct unit_type *ut, double value, const char *from,
    const char *to, double *out, const char **name)
{
	const struct unit	*fu, *tu;
	double			 v;

	if ((fu = sniff_unit(ut, from)) == NULL)
		return 0;
	v = value * fu->factor;
	if (strcmp(to, "minimum") == 0 || strcmp(to, "auto") == 0) {
		if (auto_scale(ut, v, out, name))
			return 1;
		*out = v / ut->dflt.factor;
		*name = ut->dflt.name;
		return 1;
	}
	if ((tu = sniff_unit(ut, to)) == NULL) {
		*out = v / ut->dflt.factor;
		*name = ut->dflt.name;
		return 1;
	}
	*out = v / tu->factor;
	*name = tu->name;
	return 1;
}

double
units_scale(int64_t value, const char *from, const char *to,
    const char **unit)
{
	const char	*name = "";
	double		 v;
	size_t		 i;

	if (from == NULL)
		from = "";
	if (to == NULL)
		to = "";
	/* As in Go, the most negative value has no negation and falls through. */
	if (value < 0 && value != INT64_MIN) {
		v = units_scale(-value, from, to, unit);
		return -v;
	}
	for (i = 0; i < NELEM(unit_types); i++) {
		if (convert_unit(&unit_types[i], (double)value, from, to, &v,
		    &name)) {
			if (unit != NULL)
				*unit = name;
			return v;
		}
	}
	if (strcmp(to, "count") != 0 && strcmp(to, "sample") != 0 &&
	    strcmp(to, "unit") != 0 && strcmp(to, "minimum") != 0 &&
	    strcmp(to, "auto") != 0)
		name = to;
	if (unit != NULL)
		*unit = name;
	return (double)value;
}

/*
 * Replace whatever decimal point the locale gave printf with ".".  s is
 * the output of a "%.Nf" or "%.Ng" conversion of a finite double: an
 * optional sign, digits, then possibly a radix (one or more bytes),
 * more digits and an exponent.
 */
static void
fix_radix(char *s)
{
	char	*p, *q;

	p = s;
	if (*p == '-')
		p++;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '\0' || *p == 'e' || *p == '.')
		return;
	for (q = p; *q != '\0' && !(*q >= '0' && *q <= '9'); q++)
		continue;
	*p = '.';
	memmove(p + 1, q, strlen(q) + 1);
}

void
units_label(char *buf, size_t len, int64_t value, const char *from,
    const char *to)
{
	const char	*unit = "";
	char		 num[400];
	double		 v;
	size_t		 n;

	if (len == 0)
		return;
	v = units_scale(value, from, to, &unit);
	snprintf(num, sizeof(num), "%.2f", v);
	fix_radix(num);
	n = strlen(num);
	if (n >= 3 && strcmp(num + n - 3, ".00") == 0)
		num[n - 3] = '\0';
	if (strcmp(num, "0") == 0 || strcmp(num, "-0") == 0) {
		snprintf(buf, len, "0");
		return;
	}
	snprintf(buf, len, "%s%s", num, unit);
}

void
units_format(char *buf, size_t len, int64_t value, const char *unit)
{
	units_label(buf, len, value, unit, "auto");
}

void
units_percent(char *buf, size_t len, int64_t value, int64_t total)
{
	char	 num[400];
	double	 ratio = 0;

	if (len == 0)
		return;
	if (total != 0)
		ratio = fabs((double)value / (double)total) * 100;
	if (fabs(ratio) >= 99.95 && fabs(ratio) <= 100.05) {
		snprintf(buf, len, "  100%%");
		return;
	}
	if (fabs(ratio) >= 1.0)
		snprintf(num, sizeof(num), "%.2f", ratio);
	else
		snprintf(num, sizeof(num), "%.2g", ratio);
	fix_radix(num);
	snprintf(buf, len, "%5s%%", num);
}

const char *
units_pick(int64_t minval, int64_t total, const char *unit)
{
	const char	*minu = "", *maxu = "", *u;

	if (unit == NULL)
		unit = "";
	if (minval == 0)
		minval = total;
	units_scale(minval, unit, "minimum", &minu);
	units_scale(total, unit, "minimum", &maxu);
	u = minu;
	/* Go's int64 multiplication wraps; so does this one. */
	if (strcmp(minu, maxu) != 0 &&
	    (int64_t)((uint64_t)minval * 100) < total)
		units_scale((int64_t)((uint64_t)minval * 100), unit,
		    "minimum", &u);
	return u[0] != '\0' ? u : unit;
}

const char *
units_of_label(const char *key, const char *num_unit)
{
	if (num_unit != NULL && num_unit[0] != '\0')
		return num_unit;
	if (strcmp(key, "alignment") == 0 || strcmp(key, "request") == 0)
		return "bytes";
	return key;
}

const char *
units_kind(const char *unit)
{
	static const char *const kinds[] = { "bytes", "time", "GCU" };
	size_t i;

	for (i = 0; i < NELEM(unit_types); i++)
		if (sniff_unit(&unit_types[i], unit) != NULL)
			return kinds[i];
	return NULL;
}

int
units_output_ok(const char *s)
{
	return strcmp(s, "minimum") == 0 || strcmp(s, "auto") == 0 ||
	    units_kind(s) != NULL;
}

const char *
units_column(const char *to, int64_t minval, int64_t total, const char *from)
{
	if (to == NULL)
		return NULL;
	if (strcmp(to, "minimum") == 0 || strcmp(to, "auto") == 0)
		return units_pick(minval, total, from);
	return to;
}

void
units_number(char *buf, size_t len, double v)
{
	char	 num[400];
	int	 prec, dec;

	if (len == 0)
		return;
	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		return;
	}
	/* strtod reads the locale's radix as snprintf wrote it. */
	for (prec = 1; prec < 17; prec++) {
		snprintf(num, sizeof(num), "%.*g", prec, v);
		if (strtod(num, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(num, sizeof(num), "%.17g", v);
	/* The same digits without an exponent, where that is short: 650. */
	if (strchr(num, 'e') != NULL && fabs(v) >= 1e-6 && fabs(v) < 1e17) {
		dec = prec - 1 - (int)floor(log10(fabs(v)));
		snprintf(num, sizeof(num), "%.*f", dec > 0 ? dec : 0, v);
	}
	fix_radix(num);
	snprintf(buf, len, "%s", num);
}

double
units_scale_f(double value, const char *from, const char *to)
{
	const char	*name;
	double		 v;
	size_t		 i;

	if (value < 0)
		return -units_scale_f(-value, from, to);
	for (i = 0; i < NELEM(unit_types); i++)
		if (convert_unit(&unit_types[i], value, from ? from : "",
		    to ? to : "", &v, &name))
			return v;
	return value;
}

const char *
units_sign(double v, const char *shown)
{
	const char	*p = shown;

	/* Its digits up to the unit; a radix is any byte but a digit. */
	while (*p == '0' || *p == '.' || *p == ',')
		p++;
	if (p == shown || (*p >= '1' && *p <= '9') || !isfinite(v))
		return v < 0 ? "-" : "+";
	return "";
}

void
units_signed(char *buf, size_t len, double v, int digits)
{
	char	 num[400];

	if (len == 0)
		return;
	snprintf(num, sizeof(num), "%.*f", digits, fabs(v));
	fix_radix(num);
	snprintf(buf, len, "%s%s", units_sign(v, num), num);
}

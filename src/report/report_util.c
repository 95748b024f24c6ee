/*
 * What more than one report writer uses: the escaping that keeps any
 * name from a profile (which may hold newlines, quotes, NUL spelled as
 * \x00, or invalid UTF-8) from breaking a row, a JSON document, a CSV
 * record, a Markdown table, an SVG or a folded line, and a CSV cell
 * from being read as a formula by a spreadsheet; invalid UTF-8 is
 * U+FFFD in every format that is meant to be UTF-8 (JSON, CSV,
 * Markdown, SVG); p-values as the tables print them;
 * the facts block of top and diff; the warnings about the input in
 * Markdown and JSON; and the sentence on the test that diff and its
 * flame graph print.  Formatting only: every number was
 * computed before.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/judge.h"
#include "report/report.h"
#include "report/report_flame.h"
#include "support/diag.h"
#include "support/msg.h"
#include "support/units.h"
#include "support/xmalloc.h"

/* Length of a valid UTF-8 sequence at s, or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned int c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	c = n == 2 ? 0 : n == 3 ? (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 :
	    (s[0] & 0x07u) << 18 | (s[1] & 0x3fu) << 12;
	if (n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff)))
		return 0;
	if (n == 4 && (c < 0x10000 || c > 0x10ffff))
		return 0;
	return n;
}

/*
 * The character at p, a valid UTF-8 sequence as it is and an invalid
 * byte as U+FFFD, as JSON's and the SVG's writers have it; returns the
 * bytes it took.
 */
static size_t
put_utf8(FILE *fp, const unsigned char *p)
{
	size_t n = utf8_len(p);

	if (n == 0) {
		fputs("\xef\xbf\xbd", fp);	/* U+FFFD */
		return 1;
	}
	fwrite(p, 1, n, fp);
	return n;
}

void
report_put_text(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++) {
		if (*p == '\n')
			fputs("\\n", fp);
		else if (*p == '\t')
			fputs("\\t", fp);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\x%02x", *p);
		else
			fputc(*p, fp);
	}
}

void
report_put_json(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	fputc('"', fp);
	while (*p != '\0') {
		if (*p == '"' || *p == '\\') {
			fputc('\\', fp);
			fputc(*p++, fp);
		} else if (*p == '\n') {
			fputs("\\n", fp);
			p++;
		} else if (*p == '\t') {
			fputs("\\t", fp);
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(fp, "\\u%04x", *p++);
		} else if ((n = utf8_len(p)) == 0) {
			fputs("\\ufffd", fp);	/* invalid UTF-8, as Go does */
			p++;
		} else {
			fwrite(p, 1, n, fp);
			p += n;
		}
	}
	fputc('"', fp);
}

/*
 * A CSV field as RFC 4180 has it, quoted when it holds a comma, a
 * quote or a line end, invalid UTF-8 as U+FFFD.  Only text cells come
 * here (names, units), never numbers: one that begins as a formula
 * would (=, +, -, @, a tab or a carriage return) gets a ' before it,
 * as OWASP advises against CSV injection, so that a spreadsheet shows
 * it as text and runs nothing.  The numeric cells (-1.5) keep their
 * sign.
 */
void
report_put_csv(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int	 quote = strpbrk(s, ",\"\r\n") != NULL;

	if (quote)
		fputc('"', fp);
	if (*p != '\0' && strchr("=+-@\t\r", *p) != NULL)
		fputc('\'', fp);
	while (*p != '\0') {
		if (*p == '"') {
			fputs("\"\"", fp);
			p++;
		} else
			p += put_utf8(fp, p);
	}
	if (quote)
		fputc('"', fp);
}

/*
 * XML character data or an attribute value (either quote): the five
 * markup characters as entities; control bytes, which XML 1.0 forbids
 * even as references, spelled \xNN as report_put_text() does (but a
 * newline, when lines, which XML keeps as it is); invalid UTF-8 and the
 * non-characters U+FFFE and U+FFFF as U+FFFD.  At most len bytes of s.
 * Every SVG writer's text goes through here, by report_put_xml() or
 * report_put_xmlf().
 */
static void
xml_put(FILE *fp, const char *s, size_t len, int lines)
{
	const unsigned char *p = (const unsigned char *)s, *end;
	size_t n;

	end = p + strnlen(s, len);
	while (p < end) {
		switch (*p) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&apos;", fp);
			break;
		default:
			if (*p == '\n' && lines) {
				fputc('\n', fp);
				break;
			}
			if (*p < 0x20 || *p == 0x7f) {
				fprintf(fp, "\\x%02x", *p);
				break;
			}
			if ((n = utf8_len(p)) == 0 || (size_t)(end - p) < n) {
				fputs("\xef\xbf\xbd", fp);	/* U+FFFD */
				break;
			}
			if (n == 3 && p[0] == 0xef && p[1] == 0xbf &&
			    p[2] >= 0xbe)
				fputs("\xef\xbf\xbd", fp);
			else
				fwrite(p, 1, n, fp);
			p += n;
			continue;
		}
		p++;
	}
}

void
report_put_xml(FILE *fp, const char *s, size_t len)
{
	xml_put(fp, s, len, 0);
}

void
report_put_xmlf(FILE *fp, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	xml_put(fp, s, (size_t)n, 1);
	free(s);
}

size_t
report_nchars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	for (; *p != '\0'; p++)
		if ((*p & 0xc0) != 0x80)
			n++;
	return n;
}

size_t
report_prefix_bytes(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (p[i] != '\0' && n > 0) {
		i++;
		while ((p[i] & 0xc0) == 0x80)
			i++;
		n--;
	}
	return i;
}

char *
report_elide(const char *s, size_t max)
{
	size_t	 n = report_nchars(s), head, tail;
	char	*out;

	if (max < REPORT_ELIDE_MIN)
		max = REPORT_ELIDE_MIN;
	if (n <= max)
		return xstrdup(s);
	head = (max - 1) / 3;
	tail = max - 1 - head;
	xasprintf(&out, "%.*s\xe2\x80\xa6%s", (int)report_prefix_bytes(s, head), s,
	    s + report_prefix_bytes(s, n - tail));
	return out;
}

/*
 * A frame name in a folded stack ("a;b;c 12"): the separator ';' and
 * control bytes (a newline would end the line) as \xNN, and the rest
 * as it is, so that distinct names stay distinct.
 */
void
report_put_folded(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++) {
		if (*p == ';' || *p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\x%02x", *p);
		else
			fputc(*p, fp);
	}
}

void
report_fmt_num(char *buf, size_t len, double v)
{
	int prec;

	if (v == 0) {			/* and -0 */
		snprintf(buf, len, "0");
		return;
	}
	if (v == trunc(v) && fabs(v) < 1e17) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

void
report_put_num(FILE *fp, double v)
{
	char buf[REPORT_NUMSZ];

	if (!isfinite(v)) {
		fputs("null", fp);
		return;
	}
	report_fmt_num(buf, sizeof(buf), v);
	fputs(buf, fp);
}

void
report_put_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 1e-300)
		snprintf(buf, len, "<1e-300");
	else if (p < 0.001)
		snprintf(buf, len, "%.1e", p);
	else
		snprintf(buf, len, "%.3f", p);
}

static void
put_time(FILE *fp, int64_t ns)
{
	char		 buf[64];
	struct tm	 tm;
	time_t		 t = (time_t)(ns / 1000000000);

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		fprintf(fp, "%" PRId64 "ns", ns);
	else
		fputs(buf, fp);
}

void
report_facts_text(FILE *fp, const struct facts *f, const char *label,
    size_t nprofiles, const char *to)
{
	char a[UNITS_BUFSZ], b[UNITS_BUFSZ];

	fputs(label, fp);
	if (nprofiles > 1)
		fprintf(fp, "%zu profiles merged\n", nprofiles);
	else {
		report_put_text(fp, f->path ? f->path : "-");
		fputc('\n', fp);
	}
	fprintf(fp, "Type: ");
	report_put_text(fp, f->sample_type[0] ? f->sample_type : "(unnamed)");
	if (f->unit[0] != '\0') {
		fputs(" (", fp);
		report_put_text(fp, f->unit);
		fputc(')', fp);
	}
	if (f->samples >= 0)
		fprintf(fp, ", %" PRId64 " samples", f->samples);
	else
		fputs(", sample count unknown", fp);
	fputc('\n', fp);
	if (nprofiles == 1 && f->time_ns > 0) {
		fputs("Time: ", fp);
		put_time(fp, f->time_ns);
		fputc('\n', fp);
	}
	units_label(a, sizeof(a), f->total, f->unit, to ? to : "auto");
	if (f->duration_ns > 0) {
		units_format(b, sizeof(b), f->duration_ns, "nanoseconds");
		fprintf(fp, "Duration: %s, Total: %s", b, a);
	} else
		fprintf(fp, "Duration: unknown, Total: %s", a);
	if (f->cpu_util >= 0)
		fprintf(fp, ", CPU utilization %.1f%% of one core",
		    100 * f->cpu_util);
	fputc('\n', fp);
}

/*
 * Markdown: a name as a code span, in which nothing is markup but a
 * backtick, which would end it (written '), and a pipe, which would end
 * a table's cell (written \|, as GFM escapes one even in a code span);
 * control bytes, a newline among them, as spaces, and invalid UTF-8 as
 * U+FFFD.  An empty name is a space, since `` opens no code span.
 */
void
report_put_md(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('`', fp);
	if (*p == '\0')
		fputc(' ', fp);
	while (*p != '\0') {
		if (*p == '|')
			fputs("\\|", fp);
		else if (*p == '`')
			fputc('\'', fp);
		else if (*p < 0x20 || *p == 0x7f)
			fputc(' ', fp);
		else {
			p += put_utf8(fp, p);
			continue;
		}
		p++;
	}
	fputc('`', fp);
}

/*
 * Is the byte at p of s one CommonMark reads as markup there?  The
 * characters of inline markup anywhere, but an underscore inside a word,
 * which starts no emphasis (duration_nanos); and at the start, what
 * would begin a block (a heading's #, a list's -, + or "1.", a setext
 * line's =), since the text follows a list item's marker; digits is
 * how many digits s begins with.
 */
static int
md_markup(const unsigned char *s, const unsigned char *p, size_t digits)
{
	if (strchr("\\`*[]<>|~&", *p) != NULL)
		return 1;
	if (*p == '_')
		return !(p > s && isalnum(p[-1]) && isalnum(p[1]));
	if (p == s)
		return strchr("#+-=", *p) != NULL;
	return digits > 0 && p == s + digits && (*p == '.' || *p == ')');
}

/*
 * Prose in Markdown: the markup characters (md_markup()) each escaped
 * by a backslash, control bytes as spaces and invalid UTF-8 as U+FFFD,
 * as report_put_md() makes them.
 */
void
report_put_md_text(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t	 digits = strspn(s, "0123456789");

	while (*p != '\0') {
		if (*p < 0x20 || *p == 0x7f)
			fputc(' ', fp);
		else if (md_markup((const unsigned char *)s, p, digits))
			fprintf(fp, "\\%c", *p);
		else if (*p >= 0x80) {
			p += put_utf8(fp, p);
			continue;
		} else
			fputc(*p, fp);
		p++;
	}
}

void
report_warnings_md(FILE *fp, const struct diags *ds)
{
	size_t i;

	if (ds == NULL || ds->n == 0)
		return;
	fputs("\n### Warnings\n\n", fp);
	for (i = 0; i < ds->n; i++) {
		fputs("- ", fp);
		report_put_md_text(fp, ds->v[i].line);
		fputc('\n', fp);
	}
}

/* A JSON string, or null. */
static void
json_or_null(FILE *fp, const char *s)
{
	if (s != NULL)
		report_put_json(fp, s);
	else
		fputs("null", fp);
}

void
report_warnings_json(FILE *fp, const struct diags *ds, int spaced)
{
	const char	*c = spaced ? ": " : ":", *sep = spaced ? ", " : ",";
	size_t		 i, n = ds != NULL ? ds->n : 0;

	fprintf(fp, ",%s\"warnings\"%s[", spaced ? "\n  " : "", c);
	for (i = 0; i < n; i++) {
		const struct diag_msg *m = &ds->v[i];

		fprintf(fp, "%s\n%s{\"level\"%s", i > 0 ? "," : "",
		    spaced ? "    " : "", c);
		report_put_json(fp, msg_level_name(m->level));
		fprintf(fp, "%s\"side\"%s", sep, c);
		json_or_null(fp, m->side);
		fprintf(fp, "%s\"file\"%s", sep, c);
		json_or_null(fp, m->file);
		fprintf(fp, "%s\"code\"%s", sep, c);
		report_put_json(fp, msg_name(m->code));
		fprintf(fp, "%s\"message\"%s", sep, c);
		report_put_json(fp, m->text);
		fputc('}', fp);
	}
	fputs(n > 0 && spaced ? "\n  ]" : "]", fp);
}

void
report_facts_md(FILE *fp, const char *label, const struct facts *f,
    size_t n, const char *to)
{
	char t[UNITS_BUFSZ], du[UNITS_BUFSZ];

	units_label(t, sizeof(t), f->total, f->unit, to ? to : "auto");
	fprintf(fp, "- **%s**: ", label);
	if (n > 1)
		fprintf(fp, "%zu profiles merged", n);
	else
		report_put_md(fp, f->path ? f->path : "-");
	fputs(" — ", fp);
	report_put_md(fp, f->sample_type);
	if (f->samples >= 0)
		fprintf(fp, ", %" PRId64 " samples", f->samples);
	fprintf(fp, ", total %s", t);
	if (f->duration_ns > 0) {
		units_format(du, sizeof(du), f->duration_ns, "nanoseconds");
		fprintf(fp, " over %s", du);
	}
	if (f->cpu_util >= 0)
		fprintf(fp, ", CPU utilization %.1f%%", 100 * f->cpu_util);
	fputc('\n', fp);
}

void
report_facts_json(FILE *fp, const struct facts *f, const char *to)
{
	fputs("{\"path\":", fp);
	report_put_json(fp, f->path ? f->path : "");
	fputs(",\"sample_type\":", fp);
	report_put_json(fp, f->sample_type);
	fputs(",\"unit\":", fp);
	report_put_json(fp, f->unit);
	fprintf(fp, ",\"samples\":");
	if (f->samples >= 0)
		fprintf(fp, "%" PRId64, f->samples);
	else
		fputs("null", fp);
	fprintf(fp, ",\"records\":%zu,\"total\":", f->records);
	report_put_value(fp, f->total, f->unit, to);
	fprintf(fp, ",\"duration_ns\":");
	if (f->duration_ns > 0)
		fprintf(fp, "%" PRId64, f->duration_ns);
	else
		fputs("null", fp);
	fprintf(fp, ",\"time_ns\":");
	if (f->time_ns > 0)
		fprintf(fp, "%" PRId64, f->time_ns);
	else
		fputs("null", fp);
	fputs(",\"cpu_utilization\":", fp);
	if (f->cpu_util >= 0)
		report_put_num(fp, f->cpu_util);
	else
		fputs("null", fp);
	fputc('}', fp);
}

/*
 * The test, in words: Fisher's on the count sample type, which the
 * sentence names when the p-values are of its shares rather than of
 * the values' (alloc_objects behind alloc_space), of the flat and
 * cumulative counts (cumulative only for the frames of a flame graph);
 * one profile a side, widened where the processes differ by more than
 * sampling (judge_null()); between replicates, of the pooled counts at
 * the dispersion the runs showed, of runs (profiles, or spans' parts).
 */
char *
report_method(const struct facts *base, int has_counts,
    const struct judge *j, int frames, int weighted, const char *runs)
{
	const char	*ct = base->count_type, *what;
	char		*s, *of, *disp = NULL;

	if (!has_counts) {
		xasprintf(&s, "none: no sample counts");
		return s;
	}
	what = frames ? "cumulative" : "flat and cumulative";
	if (base->counts_recovered && weighted)
		xasprintf(&of, "%s %s (p of the counts, CI of the values by "
		    "the delta method)", what, base->count_note);
	else if (base->counts_recovered)
		xasprintf(&of, "%s %s", what, base->count_note);
	else if (ct[0] != '\0' && strcmp(ct, base->sample_type) != 0 &&
	    strcmp(ct, "samples") != 0 && weighted)
		xasprintf(&of, "%s %s counts (p of the counts, CI of the %s "
		    "values by the delta method)", what, ct,
		    base->sample_type);
	else if (ct[0] != '\0' && strcmp(ct, base->sample_type) != 0 &&
	    strcmp(ct, "samples") != 0)
		xasprintf(&of, "%s %s counts (p and CI are of %s shares)",
		    what, ct, ct);
	else
		xasprintf(&of, "%s %s counts", what, ct[0] != '\0' &&
		    strcmp(ct, "samples") != 0 ? ct : "sample");
	if (j != NULL && !j->replicates && j->null.tau2 > 0)
		xasprintf(&s, "Fisher's exact test on %s, quasi-binomial where "
		    "the processes' own difference counts (a share differs by "
		    "about %.0f%% between them beyond sampling, from %zu "
		    "functions' flat counts)", of, 100 * sqrt(j->null.tau2),
		    j->null.n);
	else if (j != NULL && !j->replicates &&
	    j->null.n >= STATS_NULL_MINUNITS)
		xasprintf(&s, "Fisher's exact test on %s (the %zu functions "
		    "of %d samples or more differ no more than sampling makes "
		    "them)", of, j->null.n, STATS_NULL_MINCOUNT);
	else if (j == NULL || !j->replicates)
		xasprintf(&s, "Fisher's exact test on %s", of);
	else if (j->prior.binomial)
		xasprintf(&s, "Fisher's exact test on pooled %s of %zu and "
		    "%zu %s (no function has the samples a run to show how "
		    "the runs vary)", of, j->nb, j->nn, runs);
	else {
		xasprintf(&disp, "%.2f", j->prior.s02);
		xasprintf(&s, "pooled %s of %zu and %zu %s, quasi-binomial "
		    "at the dispersion the runs show (%s times sampling's, "
		    "shared across functions)", of, j->nb, j->nn, runs, disp);
	}
	free(of);
	free(disp);
	return s;
}

void
report_put_value(FILE *fp, int64_t v, const char *from, const char *to)
{
	char buf[64];

	if (to == NULL) {
		fprintf(fp, "%" PRId64, v);
		return;
	}
	units_number(buf, sizeof(buf), units_scale(v, from, to, NULL));
	fputs(buf, fp);
}

const char *
report_value_unit(const char *to, int64_t minval, int64_t total,
    const char *from, const char **name)
{
	const char *col;

	*name = from;
	/* Values in no unit pprof knows stay the exact integers they are. */
	if (units_kind(from) == NULL ||
	    (col = units_column(to, minval, total, from)) == NULL)
		return NULL;
	units_scale(1, from, col, name);
	if ((*name)[0] == '\0')
		*name = from;
	return col;
}

void
report_sel_kept(char *buf, size_t len, const struct report_sel *s)
{
	char of[64];

	if (s->nprofiles > 1)
		snprintf(of, sizeof(of), "its %zu profiles'", s->nprofiles);
	else
		snprintf(of, sizeof(of), "the profile's");
	if (s->samples >= 0 && s->of >= 0)
		snprintf(buf, len, "%" PRId64 " of %s %" PRId64 " samples",
		    s->samples, of, s->of);
	else
		snprintf(buf, len, "%.1f%% of %s total", 100 * s->share, of);
}

const char *
report_sel_sides(char *buf, size_t len, const struct report_head *h)
{
	char n[64] = "";

	if (!h->one_profile)
		return NULL;
	if (h->neither >= 0)
		snprintf(n, sizeof(n), ", %" PRId64 " of its samples on "
		    "neither side", h->neither);
	snprintf(buf, len, "two label groups of one profile%s; tested as "
	    "windows of one process (--same-process)", n);
	return buf;
}

void
report_sel_text(FILE *fp, const struct report_head *h, int side)
{
	char buf[256];

	if (h->sel[side] != NULL) {
		report_sel_kept(buf, sizeof(buf), h->sel[side]);
		fputs("Selected: ", fp);
		report_put_text(fp, h->sel[side]->terms);
		fprintf(fp, ", %s\n", buf);
	}
	if (side == 1 && report_sel_sides(buf, sizeof(buf), h) != NULL)
		fprintf(fp, "Sides: %s\n", buf);
}

void
report_sel_md(FILE *fp, const struct report_head *h, int side)
{
	char buf[256];

	if (h->sel[side] != NULL) {
		report_sel_kept(buf, sizeof(buf), h->sel[side]);
		fprintf(fp, "- **%s selected**: ", side == 0 ? "Base" : "New");
		report_put_md(fp, h->sel[side]->terms);
		fprintf(fp, ", %s\n", buf);
	}
	if (side == 1 && report_sel_sides(buf, sizeof(buf), h) != NULL)
		fprintf(fp, "- **Sides**: %s\n", buf);
}

static void
sel_json(FILE *fp, const struct report_sel *s)
{
	if (s == NULL) {
		fputs("null", fp);
		return;
	}
	fputs("{\"terms\":", fp);
	report_put_json(fp, s->terms);
	fputs(",\"samples\":", fp);
	if (s->samples >= 0)
		fprintf(fp, "%" PRId64, s->samples);
	else
		fputs("null", fp);
	fputs(",\"of\":", fp);
	if (s->of >= 0)
		fprintf(fp, "%" PRId64, s->of);
	else
		fputs("null", fp);
	fputs(",\"share\":", fp);
	report_put_num(fp, s->share);
	fputc('}', fp);
}

void
report_sel_json(FILE *fp, const struct report_head *h)
{
	if (h->sel[0] == NULL && h->sel[1] == NULL)
		return;
	fputs(",\"selection\":{\"base\":", fp);
	sel_json(fp, h->sel[0]);
	fputs(",\"new\":", fp);
	sel_json(fp, h->sel[1]);
	fprintf(fp, ",\"one_profile\":%s,\"neither\":", h->one_profile ?
	    "true" : "false");
	if (h->one_profile && h->neither >= 0)
		fprintf(fp, "%" PRId64, h->neither);
	else
		fputs("null", fp);
	fprintf(fp, ",\"same_process\":%s}", h->same_process ? "true" :
	    "false");
}

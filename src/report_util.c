/*
 * Escaping shared by the report writers, so that no name from a profile
 * (which may hold newlines, quotes, NUL spelled as \x00, or invalid
 * UTF-8) can break a row, a JSON document or a CSV record.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

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

void
report_put_csv(FILE *fp, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/*
 * XML character data or an attribute value (either quote): the five
 * markup characters as entities; control bytes, which XML 1.0 forbids
 * even as references, spelled \xNN as report_put_text() does; invalid
 * UTF-8 and the non-characters U+FFFE and U+FFFF as U+FFFD.  At most
 * len bytes of s.
 */
void
report_put_xml(FILE *fp, const char *s, size_t len)
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

/*
 * What symbolization did, side by side, in the header of top, diff and
 * series: for each mapping whose locations had addresses and no names,
 * how many it named and from which file, or why none (no binary found,
 * one of another build id, a mapping with no file to read), so that a
 * row named [libc.so.6] is never taken for a function.  Text and
 * Markdown give one line a side, JSON an array of objects.  Formatting
 * only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "symbol/symbol.h"

static const char *
state_name(enum sym_state s)
{
	switch (s) {
	case SYM_NAMED:
		return "named";
	case SYM_MISSING:
		return "not-found";
	case SYM_MISMATCH:
		return "build-id-mismatch";
	case SYM_SYSTEM:
		return "no-file";
	case SYM_NOFILE:
		return "no-file-name";
	case SYM_NOBASE:
		return "no-load-address";
	}
	return "";
}

/* One mapping's words, its names written by put (text or Markdown). */
static void
entry_words(FILE *fp, const struct sym_map *e,
    void (*put)(FILE *, const char *))
{
	const char *s = e->naddrs == 1 ? "" : "es";

	put(fp, e->mapping[0] != '\0' ? e->mapping : "(no file name)");
	fputs(": ", fp);
	if (e->state == SYM_NAMED) {
		fprintf(fp, "%" PRIu64 " of %" PRIu64 " address%s named",
		    e->nnamed, e->naddrs, s);
		if (strcmp(e->file, e->mapping) != 0) {
			fputs(" from ", fp);
			put(fp, e->file);
		}
		return;
	}
	fprintf(fp, "%" PRIu64 " address%s unnamed, ", e->naddrs, s);
	switch (e->state) {
	case SYM_NAMED:
		break;
	case SYM_MISSING:
		fputs("no binary found", fp);
		break;
	case SYM_MISMATCH:
		put(fp, e->file);
		fputs(" has another build id", fp);
		break;
	case SYM_SYSTEM:
	case SYM_NOFILE:
		fputs("no file to read", fp);
		break;
	case SYM_NOBASE:
		if (strcmp(e->file, e->mapping) != 0) {
			put(fp, e->file);
			fputc(' ', fp);
		}
		fputs("relocatable and no load address in the profile", fp);
		break;
	}
}

static void
entries(FILE *fp, const struct sym_summary *sum,
    void (*put)(FILE *, const char *))
{
	size_t i;

	for (i = 0; i < sum->n; i++) {
		if (i > 0)
			fputs("; ", fp);
		entry_words(fp, &sum->v[i], put);
	}
}

void
report_symbols_text(FILE *fp, const struct sym_summary *sum,
    const char *label)
{
	if (!sym_summary_any(sum))
		return;
	fprintf(fp, "%s", label);
	entries(fp, sum, report_put_text);
	fputc('\n', fp);
}

void
report_symbols_md(FILE *fp, const struct sym_summary *sum,
    const char *label)
{
	if (!sym_summary_any(sum))
		return;
	fprintf(fp, "- **%s**: ", label);
	entries(fp, sum, report_put_md);
	fputc('\n', fp);
}

static void
array_json(FILE *fp, const struct sym_summary *sum)
{
	const struct sym_map	*e;
	size_t			 i;

	fputc('[', fp);
	for (i = 0; sum != NULL && i < sum->n; i++) {
		e = &sum->v[i];
		fputs(i > 0 ? ",{\"mapping\":" : "{\"mapping\":", fp);
		report_put_json(fp, e->mapping);
		fputs(",\"build_id\":", fp);
		report_put_json(fp, e->build_id);
		fputs(",\"file\":", fp);
		if (e->file != NULL && (e->state == SYM_NAMED ||
		    e->state == SYM_MISMATCH || e->state == SYM_NOBASE))
			report_put_json(fp, e->file);
		else
			fputs("null", fp);
		if (e->state == SYM_MISMATCH) {
			fputs(",\"file_build_id\":", fp);
			report_put_json(fp, e->file_id);
		}
		fprintf(fp, ",\"state\":\"%s\",\"addresses\":%" PRIu64
		    ",\"named\":%" PRIu64 "}", state_name(e->state), e->naddrs,
		    e->nnamed);
	}
	fputc(']', fp);
}

void
report_symbols_json(FILE *fp, const struct sym_summary *sum)
{
	if (!sym_summary_any(sum))
		return;
	fputs(",\"symbols\":", fp);
	array_json(fp, sum);
}

void
report_symbols_json2(FILE *fp, const struct sym_summary *base,
    const struct sym_summary *new)
{
	if (!sym_summary_any(base) && !sym_summary_any(new))
		return;
	fputs(",\"symbols\":{\"base\":", fp);
	array_json(fp, base);
	fputs(",\"new\":", fp);
	array_json(fp, new);
	fputc('}', fp);
}

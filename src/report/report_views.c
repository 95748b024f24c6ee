/*
 * The sections --list and --peek add to a diff report (views.h), in
 * text, Markdown and JSON, laid out as go tool pprof's -list and -peek
 * lay theirs out, with both sides, the change and a verdict where
 * pprof prints one number.  --list prints the source text of the lines
 * when it finds the file under --source-path: the one file this room
 * reads, as pprof's report package reads it, but never outside the
 * folders given (src_find()).  Every number printed here was computed
 * in views.c.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/delta.h"
#include "report/report.h"
#include "support/units.h"
#include "core/views.h"
#include "support/xmalloc.h"

#define SRC_MARGIN	5		/* lines around a line with samples */
#define SRC_MAX		(64 << 20)	/* largest source file read */

/* A source file, split into lines; line i is text[i - 1]. */
struct srcfile {
	char		*path;		/* where it was found, or NULL */
	char		*refused;	/* else where the name led outside
					   --source-path (resolved), or NULL */
	char		*buf;
	char		**text;
	size_t		 n;
};

/*
 * Read path into sf, if it is a regular file of at most SRC_MAX bytes;
 * shown is the name the report gives it.  path is resolved
 * (realpath()), and its last component is not followed either, should
 * it have become a symbolic link since; a FIFO is not waited on.
 */
static int
src_read(struct srcfile *sf, const char *path, const char *shown)
{
	struct stat	 st;
	FILE		*fp;
	size_t		 len, i, cap = 0;
	char		*p;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size > SRC_MAX || (fp = fdopen(fd, "r")) == NULL) {
		close(fd);
		return -1;
	}
	sf->buf = xmalloc((size_t)st.st_size + 1);
	len = fread(sf->buf, 1, (size_t)st.st_size, fp);
	fclose(fp);
	sf->buf[len] = '\0';
	for (i = 0, p = sf->buf; i <= len && *p != '\0'; i++) {
		char *e = strchr(p, '\n');

		if (sf->n == cap) {
			cap = cap ? 2 * cap : 256;
			sf->text = xreallocarray(sf->text, cap,
			    sizeof(*sf->text));
		}
		sf->text[sf->n++] = p;
		if (e == NULL)
			break;
		*e = '\0';
		if (e > p && e[-1] == '\r')
			e[-1] = '\0';
		p = e + 1;
	}
	sf->path = xstrdup(shown);
	return 0;
}

/*
 * Is path inside the folder dir, both resolved: dir itself, or dir and
 * more after a '/', component by component (/src is not in /srv, nor
 * /src2 in /src).
 */
static int
path_inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n > 0 && dir[n - 1] == '/')	/* "/" */
		n--;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' ||
	    path[n] == '\0');
}

/*
 * Try DIR/s, the folder dir resolved as rdir: read it if it resolves
 * inside rdir; else keep the first place outside in sf->refused.
 * Returns 0 when read, or -1.
 */
static int
src_try(struct srcfile *sf, const char *dir, int len, const char *rdir,
    const char *s)
{
	char	*try, *real;
	int	 rc = -1;

	xasprintf(&try, "%.*s%s%s", len, dir, len > 0 && dir[len - 1] != '/' ?
	    "/" : "", s);
	if ((real = realpath(try, NULL)) != NULL) {
		if (!path_inside(real, rdir)) {
			if (sf->refused == NULL) {
				sf->refused = real;
				real = NULL;
			}
		} else
			rc = src_read(sf, real, try);
	}
	free(real);
	free(try);
	return rc;
}

/*
 * Find file, as the profile names it, under the directories of dirs
 * (separated by ':'; an empty one is the current directory): pprof's
 * rule, each directory with the whole path (made relative), then with
 * its leading components dropped one at a time, down to the base name.
 * Only what resolves inside the directory is read: a name with "../",
 * or a symbolic link, that leads outside it is refused, and the first
 * place it led to kept in sf->refused for the report to say.  Returns 0
 * with sf filled, or -1.
 */
static int
src_find(struct srcfile *sf, const char *dirs, const char *file)
{
	const char	*d, *e, *s;
	char		*dir, *rdir;
	int		 len;

	memset(sf, 0, sizeof(*sf));
	if (dirs == NULL || file[0] == '\0')
		return -1;
	for (d = dirs; ; d = e + 1) {
		e = strchr(d, ':');
		len = e != NULL ? (int)(e - d) : (int)strlen(d);
		xasprintf(&dir, "%.*s", len, d);
		rdir = realpath(len > 0 ? dir : ".", NULL);
		free(dir);
		for (s = file; rdir != NULL && s != NULL; s = strchr(s, '/')) {
			while (*s == '/')
				s++;
			if (*s == '\0')
				break;
			if (src_try(sf, d, len, rdir, s) == 0) {
				free(rdir);
				free(sf->refused);
				sf->refused = NULL;
				return 0;
			}
		}
		free(rdir);
		if (e == NULL)
			return -1;
	}
}

static void
src_free(struct srcfile *sf)
{
	free(sf->path);
	free(sf->refused);
	free(sf->buf);
	free(sf->text);
	memset(sf, 0, sizeof(*sf));
}

/* Line ln's text, or NULL if the file has no such line. */
static const char *
src_line(const struct srcfile *sf, int64_t ln)
{
	if (sf->path == NULL || ln < 1 || (uint64_t)ln > sf->n)
		return NULL;
	return sf->text[ln - 1];
}

/*
 * Source text for a terminal: tabs to the next multiple of 8 columns,
 * as pprof pads its listings, and other control bytes as '?'.
 */
static void
put_src_text(FILE *fp, const char *s)
{
	size_t col = 0;

	for (; *s != '\0'; s++) {
		if (*s == '\t') {
			do
				fputc(' ', fp);
			while (++col % 8 != 0);
			continue;
		}
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, fp);
		col++;
	}
}

/* The verdict cell: the verdict, "flat" if only flat flagged it, #finding. */
static void
fmt_verdict(char *buf, size_t len, int verdict, int hyp, long finding,
    int exposure)
{
	char n[24] = "";

	if (finding >= 0)
		snprintf(n, sizeof(n), " #%ld", finding + 1);
	snprintf(buf, len, "%s%s%s", report_verdict_text(verdict, exposure),
	    hyp == DELTA_HYP_FLAT && (verdict == VERDICT_REGRESSED ||
	    verdict == VERDICT_IMPROVED) ? " flat" : "", n);
}

static void
fmt_row_verdict(char *buf, size_t len, const struct delta_row *row,
    const struct diff_report *r)
{
	fmt_verdict(buf, len, row->verdict, row->hyp, row->finding,
	    r->d->exposure);
}

/* A line's verdict and q, or "-" when the lines were not tested. */
static void
fmt_line(char *v, size_t vlen, char *q, size_t qlen, const struct views *vs,
    const struct view_line *l)
{
	const struct judge_hyp *h = l->hyp == DELTA_HYP_FLAT ? &l->flat :
	    &l->cum;

	if (!vs->tested) {
		snprintf(v, vlen, "-");
		snprintf(q, qlen, "-");
		return;
	}
	fmt_verdict(v, vlen, l->verdict, l->hyp, -1, 0);
	report_put_p(q, qlen, h->tested ? h->q : NAN);
}

/* Does line ln have samples on either side, or lie near one that has? */
static int
near_samples(const struct view_list *vw, size_t *at, int64_t ln)
{
	while (*at < vw->nlines && vw->lines[*at].line + SRC_MARGIN < ln)
		(*at)++;
	return *at < vw->nlines && vw->lines[*at].line - SRC_MARGIN <= ln;
}

/* The sentence on how the lines were tested, or why not. */
static void
put_lines_method(FILE *fp, const struct diff_report *r, const char *nl)
{
	const struct views *v = r->views;

	if (v->tested)
		fprintf(fp, "Lines: the flat and cum sample counts of each "
		    "line%s, a family of their own (%zu hypotheses; %zu can "
		    "reach significance; Benjamini-Hochberg at %g), apart "
		    "from the rows' family.\n%s", v->judge.replicates ?
		    " between replicates" : "", v->nhyp, v->judge.fdr.kept,
		    r->h.alpha, nl);
	else
		fprintf(fp, "Lines: not tested (no sample counts): values "
		    "only.\n%s", nl);
	if (r->source_path == NULL)
		fprintf(fp, "Source: no --source-path: line numbers only.\n%s",
		    nl);
}

/*
 * One line's cells, the same in text and Markdown: its values, changes,
 * q and verdict, or dots for a line of source with no samples.
 */
struct line_cells {
	char	 c[6][UNITS_BUFSZ + 8], v[40], q[16];
};

/* The four values and two changes, normalized as the table's. */
static void
value_cells(struct line_cells *lc, const struct diff_report *r, double bf,
    double nf, double bc, double nc, double df, double d)
{
	report_diff_norm(lc->c[0], sizeof(lc->c[0]), bf, r);
	report_diff_norm(lc->c[1], sizeof(lc->c[1]), nf, r);
	report_diff_norm(lc->c[2], sizeof(lc->c[2]), bc, r);
	report_diff_norm(lc->c[3], sizeof(lc->c[3]), nc, r);
	report_diff_delta(lc->c[4], sizeof(lc->c[4]), df, r);
	report_diff_delta(lc->c[5], sizeof(lc->c[5]), d, r);
}

static void
line_cells(struct line_cells *lc, const struct diff_report *r,
    const struct view_line *l)
{
	size_t	 i;

	if (l == NULL) {
		for (i = 0; i < 6; i++)
			snprintf(lc->c[i], sizeof(lc->c[i]), ".");
		lc->v[0] = lc->q[0] = '\0';
		return;
	}
	value_cells(lc, r, l->base_flat_n, l->new_flat_n, l->base_cum_n,
	    l->new_cum_n, l->delta_flat, l->delta);
	fmt_line(lc->v, sizeof(lc->v), lc->q, sizeof(lc->q), r->views, l);
}

/* The function's own cells, above its lines: its row's verdict. */
static void
function_cells(struct line_cells *lc, const struct diff_report *r,
    const struct view_list *vw)
{
	value_cells(lc, r, vw->base_flat_n, vw->new_flat_n, vw->base_cum_n,
	    vw->new_cum_n, vw->delta_flat, vw->delta);
	snprintf(lc->v, sizeof(lc->v), "-");
	lc->q[0] = '\0';
	if (vw->row >= 0)
		fmt_row_verdict(lc->v, sizeof(lc->v), &r->d->rows[vw->row], r);
}

typedef void (*list_line_fn)(FILE *, const struct diff_report *,
    const struct view_line *, int64_t, const char *, int);

/*
 * The lines --list shows of vw, each to put: every line with samples,
 * and with the source sf, SRC_MARGIN lines either side of each that the
 * file has; gap is set when lines were left out before one.
 */
static void
list_lines(FILE *fp, const struct diff_report *r, const struct view_list *vw,
    const struct srcfile *sf, list_line_fn put)
{
	size_t	 k, at = 0;
	int64_t	 ln, last = 0, end;

	if (sf->path == NULL) {
		for (k = 0; k < vw->nlines; k++)
			put(fp, r, &vw->lines[k], vw->lines[k].line, NULL, 0);
		return;
	}
	end = vw->nlines > 0 ? vw->lines[vw->nlines - 1].line + SRC_MARGIN : 0;
	for (k = 0; k < vw->nlines && vw->lines[k].line < 1; k++)
		put(fp, r, &vw->lines[k], vw->lines[k].line, NULL, 0);
	for (ln = vw->nlines > 0 ? vw->lines[0].line - SRC_MARGIN : 1,
	    k = 0; ln <= end; ln++) {
		const struct view_line *l = NULL;

		if (ln < 1 || !near_samples(vw, &at, ln))
			continue;
		while (k < vw->nlines && vw->lines[k].line < ln)
			k++;
		if (k < vw->nlines && vw->lines[k].line == ln)
			l = &vw->lines[k];
		if (l == NULL && src_line(sf, ln) == NULL)
			continue;
		put(fp, r, l, ln, src_line(sf, ln), last != 0 && ln > last + 1);
		last = ln;
	}
}

/* One line's cells in text, with its source text if any. */
static void
text_line(FILE *fp, const struct diff_report *r, const struct view_line *l,
    int64_t ln, const char *text, int gap)
{
	struct line_cells lc;

	if (gap)
		fputs("       ...\n", fp);
	line_cells(&lc, r, l);
	fprintf(fp, "%10s %10s %10s %10s %11s %11s %8s  %-16s %6" PRId64 ":",
	    lc.c[0], lc.c[1], lc.c[2], lc.c[3], lc.c[4], lc.c[5], lc.q, lc.v,
	    ln);
	if (text != NULL && text[0] != '\0') {
		fputc(' ', fp);
		put_src_text(fp, text);
	}
	fputc('\n', fp);
}

/* A function of --list: its totals, then its lines. */
static void
text_list(FILE *fp, const struct diff_report *r, const struct view_list *vw)
{
	struct srcfile		 sf;
	struct line_cells	 fc;

	fputs("\nROUTINE ======================== ", fp);
	report_put_text(fp, vw->name);
	fputs(" in ", fp);
	report_put_text(fp, vw->file[0] != '\0' ? vw->file : "(no file)");
	fputc('\n', fp);
	if (src_find(&sf, r->source_path, vw->file) == 0) {
		fputs("Source: ", fp);
		report_put_text(fp, sf.path);
		fputc('\n', fp);
	} else if (sf.refused != NULL) {
		fputs("Source: not read: resolves to ", fp);
		report_put_text(fp, sf.refused);
		fputs(", outside --source-path: line numbers only\n",
		    fp);
	} else if (r->source_path != NULL)
		fputs("Source: not found under --source-path: line numbers "
		    "only\n", fp);
	function_cells(&fc, r, vw);
	fprintf(fp, "%10s %10s %10s %10s %11s %11s %8s  %-16s %s\n",
	    "base flat", "new flat", "base cum", "new cum", "delta flat",
	    "delta", "q", "verdict", "line");
	fprintf(fp, "%10s %10s %10s %10s %11s %11s %8s  %-16s %s\n", fc.c[0],
	    fc.c[1], fc.c[2], fc.c[3], fc.c[4], fc.c[5], "", fc.v,
	    "(the function's row)");
	list_lines(fp, r, vw, &sf, text_line);
	src_free(&sf);
}

/* A neighbour, or the peeked row itself (edge NULL), in text. */
static void
text_peek_line(FILE *fp, const struct diff_report *r,
    const struct view_edge *e, const struct delta_row *row)
{
	char	 b[UNITS_BUFSZ + 8], n[UNITS_BUFSZ + 8], dl[UNITS_BUFSZ + 8];
	char	 df[UNITS_BUFSZ + 8], v[40];

	report_diff_norm(b, sizeof(b), e ? e->base_n : row->base_cum_n, r);
	report_diff_norm(n, sizeof(n), e ? e->new_n : row->new_cum_n, r);
	report_diff_delta(dl, sizeof(dl), e ? e->delta : row->delta, r);
	fmt_row_verdict(v, sizeof(v), row, r);
	fprintf(fp, "%10s %10s %11s  %-18s | %s", b, n, dl, v, e ? "  " : "");
	report_put_text(fp, row->name);
	if (e == NULL) {
		report_diff_delta(df, sizeof(df), row->delta_flat, r);
		report_diff_norm(b, sizeof(b), row->base_flat_n, r);
		report_diff_norm(n, sizeof(n), row->new_flat_n, r);
		fprintf(fp, "  (flat %s -> %s, %s)", b, n, df);
	}
	fputc('\n', fp);
}

#define PEEK_RULE \
	"------------------------------------------------------+-------------"

int
report_views_text(FILE *fp, const struct diff_report *r)
{
	const struct views	*v = r->views;
	size_t			 i, k;

	if (v == NULL)
		return 0;
	if (v->list_re != NULL && v->nlists > 0) {
		fputs("\nList: --list ", fp);
		report_put_text(fp, v->list_re);
		fputc('\n', fp);
		put_lines_method(fp, r, "");
		for (i = 0; i < v->nlists; i++)
			text_list(fp, r, &v->lists[i]);
	}
	if (v->peek_re != NULL && v->npeeks > 0) {
		fputs("\nPeek: --peek ", fp);
		report_put_text(fp, v->peek_re);
		fputs(" (callers above, callees below: the values through "
		    "each call, and each neighbour's own verdict)\n", fp);
		fprintf(fp, "%10s %10s %11s  %-18s | %s\n", "base", "new",
		    "delta", "verdict", "function");
		for (i = 0; i < v->npeeks; i++) {
			const struct view_peek *pk = &v->peeks[i];

			fprintf(fp, "%s\n", PEEK_RULE);
			for (k = 0; k < pk->ncallers; k++)
				text_peek_line(fp, r, &pk->callers[k],
				    &r->d->rows[pk->callers[k].row]);
			text_peek_line(fp, r, NULL, &r->d->rows[pk->row]);
			for (k = 0; k < pk->ncallees; k++)
				text_peek_line(fp, r, &pk->callees[k],
				    &r->d->rows[pk->callees[k].row]);
		}
		fprintf(fp, "%s\n", PEEK_RULE);
	}
	return ferror(fp) ? -1 : 0;
}

/* One line of a list as a Markdown row. */
static void
md_line(FILE *fp, const struct diff_report *r, const struct view_line *l,
    int64_t ln, const char *text, int gap)
{
	struct line_cells lc;
	const char	*b;

	(void)gap;	/* a table's line numbers show it */
	line_cells(&lc, r, l);
	b = l != NULL && l->verdict == VERDICT_REGRESSED ? "**" : "";
	fprintf(fp, "| %" PRId64 " | %s | %s | %s | %s | %s | %s | %s | %s%s%s "
	    "| ", ln, lc.c[0], lc.c[1], lc.c[2], lc.c[3], lc.c[4], lc.c[5],
	    lc.q, b, lc.v, b);
	if (text != NULL && text[strspn(text, " \t")] != '\0')
		report_put_md(fp, text + strspn(text, " \t"));
	fputs(" |\n", fp);
}

static void
md_list(FILE *fp, const struct diff_report *r, const struct view_list *vw)
{
	struct srcfile		 sf;
	struct line_cells	 fc;

	fputs("#### ", fp);
	report_put_md(fp, vw->name);
	fputs(" in ", fp);
	report_put_md(fp, vw->file[0] != '\0' ? vw->file : "(no file)");
	fputs("\n\n", fp);
	if (src_find(&sf, r->source_path, vw->file) == 0) {
		fputs("Source: ", fp);
		report_put_md(fp, sf.path);
		fputs("\n\n", fp);
	} else if (sf.refused != NULL) {
		fputs("Source: not read: resolves to ", fp);
		report_put_md(fp, sf.refused);
		fputs(", outside --source-path: line numbers only\n\n",
		    fp);
	} else if (r->source_path != NULL)
		fputs("Source: not found under --source-path: line numbers "
		    "only\n\n", fp);
	function_cells(&fc, r, vw);
	fputs("| line | base flat | new flat | base cum | new cum | delta flat "
	    "| delta | q | verdict | source |\n", fp);
	fputs("|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n", fp);
	fprintf(fp, "| function | %s | %s | %s | %s | %s | %s | | %s | |\n",
	    fc.c[0], fc.c[1], fc.c[2], fc.c[3], fc.c[4], fc.c[5], fc.v);
	list_lines(fp, r, vw, &sf, md_line);
	src_free(&sf);
}

static void
md_peek_line(FILE *fp, const struct diff_report *r, const char *role,
    const struct view_edge *e, const struct delta_row *row)
{
	char	 b[UNITS_BUFSZ + 8], n[UNITS_BUFSZ + 8], dl[UNITS_BUFSZ + 8];
	char	 v[40];

	report_diff_norm(b, sizeof(b), e ? e->base_n : row->base_cum_n, r);
	report_diff_norm(n, sizeof(n), e ? e->new_n : row->new_cum_n, r);
	report_diff_delta(dl, sizeof(dl), e ? e->delta : row->delta, r);
	fmt_row_verdict(v, sizeof(v), row, r);
	fprintf(fp, "| %s | ", role);
	report_put_md(fp, row->name);
	fprintf(fp, " | %s | %s | %s | %s%s%s |\n", b, n, dl,
	    row->verdict == VERDICT_REGRESSED ? "**" : "", v,
	    row->verdict == VERDICT_REGRESSED ? "**" : "");
}

int
report_views_markdown(FILE *fp, const struct diff_report *r)
{
	const struct views	*v = r->views;
	size_t			 i, k;

	if (v == NULL)
		return 0;
	if (v->list_re != NULL && v->nlists > 0) {
		fputs("\n### List: ", fp);
		report_put_md(fp, v->list_re);
		fputs("\n\n", fp);
		put_lines_method(fp, r, "\n");
		for (i = 0; i < v->nlists; i++) {
			if (i > 0)
				fputc('\n', fp);
			md_list(fp, r, &v->lists[i]);
		}
	}
	for (i = 0; v->peek_re != NULL && i < v->npeeks; i++) {
		const struct view_peek *pk = &v->peeks[i];

		if (i == 0) {
			fputs("\n### Peek: ", fp);
			report_put_md(fp, v->peek_re);
			fputs("\n\nThe values through each call (cum for the "
			    "function itself), and each neighbour's own "
			    "verdict.\n", fp);
		}
		fputs("\n| | function | base | new | delta | verdict |\n", fp);
		fputs("|---|---|---:|---:|---:|---|\n", fp);
		for (k = 0; k < pk->ncallers; k++)
			md_peek_line(fp, r, "caller", &pk->callers[k],
			    &r->d->rows[pk->callers[k].row]);
		md_peek_line(fp, r, "**function**", NULL,
		    &r->d->rows[pk->row]);
		for (k = 0; k < pk->ncallees; k++)
			md_peek_line(fp, r, "callee", &pk->callees[k],
			    &r->d->rows[pk->callees[k].row]);
	}
	return ferror(fp) ? -1 : 0;
}

/* The verdict of a line for scripts: null when the lines were not tested. */
static void
json_line(FILE *fp, const struct views *v, const struct view_line *l,
    const char *text)
{
	const struct judge_hyp *h = l->hyp == DELTA_HYP_FLAT ? &l->flat :
	    &l->cum;

	fprintf(fp, "{\"line\":%" PRId64 ",\"base_flat\":%" PRId64
	    ",\"new_flat\":%" PRId64 ",\"base_cum\":%" PRId64 ",\"new_cum\":%"
	    PRId64 ",\"base_flat_samples\":%" PRId64 ",\"new_flat_samples\":%"
	    PRId64 ",\"base_samples\":%" PRId64 ",\"new_samples\":%" PRId64,
	    l->line, l->base_flat, l->new_flat, l->base_cum, l->new_cum,
	    l->base_flat_count, l->new_flat_count, l->base_count,
	    l->new_count);
	fputs(",\"delta_flat\":", fp);
	report_put_num(fp, l->delta_flat);
	fputs(",\"delta\":", fp);
	report_put_num(fp, l->delta);
	fputs(",\"q_value\":", fp);
	report_put_num(fp, v->tested && h->tested ? h->q : NAN);
	fputs(",\"verdict\":", fp);
	if (v->tested)
		report_put_json(fp, report_verdict_name(l->verdict));
	else
		fputs("null", fp);
	if (text != NULL) {
		fputs(",\"text\":", fp);
		report_put_json(fp, text);
	}
	fputc('}', fp);
}

static void
json_list(FILE *fp, const struct diff_report *r, const struct view_list *vw)
{
	struct srcfile	 sf;
	size_t		 k;

	fputs("{\"function\":", fp);
	report_put_json(fp, vw->name);
	fputs(",\"file\":", fp);
	report_put_json(fp, vw->file);
	fputs(",\"source\":", fp);
	if (src_find(&sf, r->source_path, vw->file) == 0)
		report_put_json(fp, sf.path);
	else
		fputs("null", fp);
	fprintf(fp, ",\"base_flat\":%" PRId64 ",\"new_flat\":%" PRId64
	    ",\"base_cum\":%" PRId64 ",\"new_cum\":%" PRId64, vw->base_flat,
	    vw->new_flat, vw->base_cum, vw->new_cum);
	fputs(",\"delta_flat\":", fp);
	report_put_num(fp, vw->delta_flat);
	fputs(",\"delta\":", fp);
	report_put_num(fp, vw->delta);
	fputs(",\"verdict\":", fp);
	if (vw->row >= 0)
		report_put_json(fp,
		    report_verdict_name(r->d->rows[vw->row].verdict));
	else
		fputs("null", fp);
	fputs(",\"lines\":[", fp);
	for (k = 0; k < vw->nlines; k++) {
		if (k > 0)
			fputc(',', fp);
		json_line(fp, r->views, &vw->lines[k],
		    src_line(&sf, vw->lines[k].line));
	}
	fputs("]}", fp);
	src_free(&sf);
}

static void
json_edges(FILE *fp, const struct delta *d, const struct view_edge *e,
    size_t n)
{
	size_t i;

	fputc('[', fp);
	for (i = 0; i < n; i++) {
		fputs(i > 0 ? ",{\"name\":" : "{\"name\":", fp);
		report_put_json(fp, e[i].name);
		fprintf(fp, ",\"base\":%" PRId64 ",\"new\":%" PRId64
		    ",\"delta\":", e[i].base, e[i].new);
		report_put_num(fp, e[i].delta);
		fputs(",\"verdict\":", fp);
		report_put_json(fp, report_verdict_name(
		    d->rows[e[i].row].verdict));
		fputc('}', fp);
	}
	fputc(']', fp);
}

int
report_views_json(FILE *fp, const struct diff_report *r)
{
	const struct views	*v = r->views;
	size_t			 i;

	if (v == NULL)
		return 0;
	if (v->list_re != NULL) {
		fputs(",\"list_tested\":", fp);
		fputs(v->tested ? "true" : "false", fp);
		fputs(",\"list\":[", fp);
		for (i = 0; i < v->nlists; i++) {
			fputs(i > 0 ? ",\n" : "\n", fp);
			json_list(fp, r, &v->lists[i]);
		}
		fputc(']', fp);
	}
	if (v->peek_re != NULL) {
		fputs(",\"peek\":[", fp);
		for (i = 0; i < v->npeeks; i++) {
			const struct view_peek *pk = &v->peeks[i];
			const struct delta_row *row = &r->d->rows[pk->row];

			fputs(i > 0 ? ",\n{\"name\":" : "\n{\"name\":", fp);
			report_put_json(fp, row->name);
			fprintf(fp, ",\"base_flat\":%" PRId64 ",\"new_flat\":%"
			    PRId64 ",\"base_cum\":%" PRId64 ",\"new_cum\":%"
			    PRId64, row->base_flat, row->new_flat,
			    row->base_cum, row->new_cum);
			fputs(",\"delta\":", fp);
			report_put_num(fp, row->delta);
			fputs(",\"verdict\":", fp);
			report_put_json(fp, report_verdict_name(row->verdict));
			fputs(",\"callers\":", fp);
			json_edges(fp, r->d, pk->callers, pk->ncallers);
			fputs(",\"callees\":", fp);
			json_edges(fp, r->d, pk->callees, pk->ncallees);
			fputc('}', fp);
		}
		fputc(']', fp);
	}
	return ferror(fp) ? -1 : 0;
}

void
report_views_refused(const struct views *v, const char *source_path,
    struct diags *ds)
{
	struct srcfile	 sf;
	size_t		 i, k;

	for (i = 0; v != NULL && source_path != NULL && i < v->nlists; i++) {
		const char *file = v->lists[i].file;

		for (k = 0; k < i && strcmp(v->lists[k].file, file) != 0; k++)
			;
		if (k < i)
			continue;	/* said once a file */
		if (src_find(&sf, source_path, file) == -1 &&
		    sf.refused != NULL)
			diags_add(ds, MSG_SOURCE_OUTSIDE, NULL, file, NULL,
			    sf.refused);
		src_free(&sf);
	}
}

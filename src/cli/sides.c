/*
 * Two label groups as the two sides: --base-tag and --new-tag select
 * each side's samples, so that one profile (or each side's own) is
 * split as pprof -tagfocus -proto would split it, and the groups are
 * compared with the same statistics as two profiles.  Here: the
 * operands (one profile is both sides), the selections compiled and
 * @FILE's values read, and once loaded, the refusal of a side that a
 * selection or a label filter left empty (a --tag among one side's
 * operands applies to both, and once made diff exit 0 on nothing), and
 * the header's account of what each selection kept.  The matching is
 * load/selection.c's.  CLI layer: it prints to stderr.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/filter.h"
#include "input/fetch.h"
#include "load/load.h"
#include "load/selection.h"
#include "report/report.h"
#include "support/diag.h"
#include "support/xmalloc.h"

static const char *const side_opt[2] = { "--base-tag", "--new-tag" };

/* Read once: standard input, a URL (each fetch another window). */
static int
read_once(const char *path)
{
	return strcmp(path, "-") == 0 || fetch_is_url(path);
}

int
cli_read_twice(const struct opts *o, const char *path, const char *reader)
{
	if (!read_once(path))
		return 0;
	cli_warn("%s: %s is read once, and %s once a side: save it to a file "
	    "first (--save DIR keeps a URL's)", o->cmd->name,
	    strcmp(path, "-") == 0 ? "- (standard input)" : path, reader);
	return -1;
}

/* Two paths of one regular file? */
static int
same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !read_once(a) && !read_once(b) && stat(a, &sa) == 0 &&
	    stat(b, &sb) == 0 && S_ISREG(sa.st_mode) &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int
cli_sides_operands(struct opts *o)
{
	const char	*cmd = o->cmd->name;
	int		 hb = o->base_tags.n > 0, hn = o->new_tags.n > 0;

	if (!hb && !hn)
		return 0;
	if (o->noperands == 2 && (o->sep < 0 || o->sep == 1) &&
	    same_file(o->operands[0], o->operands[1]))
		o->one_profile = 1;
	else if (o->noperands != 1 || o->sep >= 0)
		return 0;
	/* A group against the whole would share its samples. */
	if (!hb || !hn) {
		cli_warn("%s: one profile is both sides with --base-tag and "
		    "--new-tag, the two label groups to compare: %s is "
		    "missing", cmd, hb ? "--new-tag" : "--base-tag");
		return -1;
	}
	if (o->one_profile)
		return 0;
	if (cli_read_twice(o, o->operands[0],
	    "one profile as both sides is read") == -1)
		return -1;
	/* parse() made room for argc + 1 operands: argc is 4 or more. */
	o->operands[1] = o->operands[0];
	o->operands[2] = NULL;
	o->noperands = 2;
	o->one_profile = 1;
	return 0;
}

/* A bound of --tag's numeric ranges: [+-]digits[unit]; its end, or NULL. */
static const char *
bound(const char *v)
{
	const char *d;

	if (*v == '+' || *v == '-')
		v++;
	for (d = v; *v >= '0' && *v <= '9'; v++)
		continue;
	if (v == d)
		return NULL;
	while ((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z'))
		v++;
	return v;
}

/*
 * Does v read as a numeric range of --tag ("64", "1kb:4mb", ":10ms",
 * "1mb:")?  filter.c reads it so, or as an expression if its units do
 * not agree.
 */
static int
range_like(const char *v)
{
	const char *e = bound(v);

	if (e == NULL && *v != ':')
		return 0;
	if (e != NULL)
		v = e;
	if (*v == '\0')
		return 1;
	if (*v++ != ':')
		return 0;
	return *v == '\0' ? e != NULL : (e = bound(v)) != NULL && *e == '\0';
}

/*
 * --tag's expressions, each compiled as the filters compile them but
 * named by opt, so that a bad one is refused in the option's words.
 */
static int
check_exprs(const char *opt, const char *val, struct diag *d)
{
	regex_t	 re;
	char	*pat;
	size_t	 n;

	if (range_like(val))
		return 0;
	for (;;) {
		n = strcspn(val, ",");
		pat = xmalloc(n + 1);
		memcpy(pat, val, n);
		pat[n] = '\0';
		if (filter_regcomp(&re, pat, opt, d) == -1) {
			free(pat);
			return -1;
		}
		regfree(&re);
		free(pat);
		if (val[n] == '\0')
			return 0;
		val += n + 1;
	}
}

/* A line of @FILE without its blanks at either end, in place. */
static char *
trim(char *s, size_t *len)
{
	while (*len > 0 && (s[*len - 1] == '\n' || s[*len - 1] == '\r' ||
	    s[*len - 1] == ' ' || s[*len - 1] == '\t'))
		s[--*len] = '\0';
	while (*s == ' ' || *s == '\t') {
		s++;
		--*len;
	}
	return s;
}

/*
 * @FILE: its values, one a line, blank lines skipped; at most max
 * bytes (--max-input).  Returns the number, or -1 after a message.
 */
static ssize_t
read_values(const struct opts *o, const char *opt, const char *term,
    const char *path, char ***vals)
{
	FILE	*fp;
	char	*line = NULL, *v;
	size_t	 cap = 0, n = 0, len, total = 0;
	ssize_t	 got;
	int	 bad = 0;

	*vals = NULL;
	if ((fp = fopen(path, "r")) == NULL) {
		cli_warn("%s: %s %s: %s", o->cmd->name, opt, term,
		    strerror(errno));
		return -1;
	}
	while (!bad && (got = getline(&line, &cap, fp)) != -1) {
		len = (size_t)got;
		total += len;
		if ((bad = total > o->load.limits.max_input ? 1 :
		    strlen(line) != len ? 2 : 0) != 0)
			break;
		if ((v = trim(line, &len))[0] == '\0')
			continue;
		*vals = xreallocarray(*vals, n + 1, sizeof(**vals));
		(*vals)[n++] = xstrdup(v);
	}
	if (!bad && ferror(fp))
		bad = 3;
	free(line);
	fclose(fp);
	if (bad || n == 0)
		cli_warn("%s: %s %s: %s %s", o->cmd->name, opt, term, path,
		    bad == 1 ? "is larger than --max-input" : bad == 2 ?
		    "holds a NUL byte: a list of values is text, one a line" :
		    bad == 3 ? "could not be read" :
		    "holds no value: give one a line");
	if (!bad && n > 0)
		return (ssize_t)n;
	while (n > 0)
		free((*vals)[--n]);
	free(*vals);
	return -1;
}

/* One term of a side's selection: KEY=VALUE, or KEY=@FILE. */
static int
add_term(const struct opts *o, struct selection *sel, const char *opt,
    const char *term)
{
	const char	*eq = strchr(term, '=');
	struct diag	 d;
	char		**vals, *key;
	ssize_t		 n, i;

	diag_init(&d, NULL);
	if (eq == NULL || eq == term) {
		cli_warn("%s: %s '%s': expected KEY=VALUE", o->cmd->name, opt,
		    term);
		return -1;
	}
	if (eq[1] == '@') {
		if ((n = read_values(o, opt, term, eq + 2, &vals)) == -1)
			return -1;
		key = xmalloc((size_t)(eq - term) + 1);
		memcpy(key, term, (size_t)(eq - term));
		key[eq - term] = '\0';
		selection_values(sel, key, vals, (size_t)n, term);
		for (i = 0; i < n; i++)
			free(vals[i]);
		free(vals);
		free(key);
		return 0;
	}
	if (check_exprs(opt, eq + 1, &d) == -1 ||
	    selection_tag(sel, term, &d) == -1) {
		cli_warn("%s: %s", o->cmd->name, d.msg);
		return -1;
	}
	return 0;
}

int
cli_selections(struct opts *o)
{
	const struct cli_list	*l[2] = { &o->base_tags, &o->new_tags };
	size_t			 s, i;

	for (s = 0; s < 2; s++) {
		if (l[s]->n == 0)
			continue;
		o->select[s] = selection_new(side_opt[s]);
		for (i = 0; i < l[s]->n; i++)
			if (add_term(o, o->select[s], side_opt[s],
			    l[s]->v[i]) == -1)
				return -1;
	}
	o->load.select = o->select[0];
	o->load.select_new = o->select[1];
	o->load.select_other = o->one_profile ? o->select[1] : NULL;
	return 0;
}

/* The samples of a side's profiles before its selection, or -1. */
static int64_t
whole_samples(const struct side *s)
{
	int64_t	 n = 0;
	size_t	 i;

	for (i = 0; i < s->nprofiles; i++) {
		if (s->whole[i].samples < 0)
			return -1;
		n += s->whole[i].samples;
	}
	return n;
}

/* "p.pb.gz", or "its 3 profiles", for a message about side s. */
static void
side_files(char *buf, size_t len, const struct side *s)
{
	if (s->nprofiles == 1)
		snprintf(buf, len, "%s", s->facts[0].path);
	else
		snprintf(buf, len, "its %zu profiles", s->nprofiles);
}

/* A side that its selection left empty: the option, and why. */
static int
sel_empty(const struct opts *o, int i, const struct side *s)
{
	const char	*miss = selection_unkeyed(o->select[i], &s->sel);
	const char	*eq = miss != NULL ? strchr(miss, '=') : NULL;
	int64_t		 all = whole_samples(s);
	char		 files[1024], n[64];

	side_files(files, sizeof(files), s);
	if (all >= 0)
		snprintf(n, sizeof(n), "%" PRId64 " samples", all);
	else
		snprintf(n, sizeof(n), "%zu sample records", s->sel.seen);
	if (eq != NULL)
		cli_warn("%s: the %s side is empty: %s selects none of the %s "
		    "of %s, none of which carries the label %.*s",
		    o->cmd->name, i == 0 ? "base" : "new",
		    selection_text(o->select[i]), n, files, (int)(eq - miss),
		    miss);
	else
		cli_warn("%s: the %s side is empty: %s selects none of the %s "
		    "of %s", o->cmd->name, i == 0 ? "base" : "new",
		    selection_text(o->select[i]), n, files);
	return -1;
}

/* Did --tag or --tag-ignore leave the side with no sample? */
static int
tags_emptied(const struct side *s)
{
	const struct filter_stats *fs = &s->fstats;

	return fs->samples > 0 && fs->kept == 0 &&
	    ((fs->ntags > 0 && fs->tag_hits == 0) ||
	    (fs->ntag_ignores > 0 && fs->tag_ignore_hits > 0));
}

/* The label filters, as given: "--tag K=V --tag-ignore K=V". */
static char *
tag_text(const struct opts *o)
{
	char	*s = NULL, *t;
	size_t	 i, k;

	for (k = 0; k < 2; k++) {
		const struct cli_list *l = k == 0 ? &o->tags : &o->tag_ignores;

		for (i = 0; i < l->n; i++) {
			xasprintf(&t, "%s%s%s %s", s ? s : "", s ? " " : "",
			    k == 0 ? "--tag" : "--tag-ignore", l->v[i]);
			free(s);
			s = t;
		}
	}
	return s;
}

/*
 * The old trap: a --tag written among the new side's operands applies
 * to both sides, matched nothing on the base side, and diff exited 0
 * on a side of nothing.  A side the label filters empty is refused.
 */
static int
tags_empty(const struct opts *o, const struct side *b, const struct side *n)
{
	int	 eb = tags_emptied(b), en = tags_emptied(n);
	char	*what, fb[1024], fn[1024];

	if (!eb && !en)
		return 0;
	what = tag_text(o);
	side_files(fb, sizeof(fb), b);
	side_files(fn, sizeof(fn), n);
	cli_warn("%s: %s keeps no sample of %s (%s%s%s): options apply to "
	    "both sides wherever they stand; --base-tag and --new-tag select "
	    "one side's samples", o->cmd->name, what, eb && en ?
	    "either side" : eb ? "the base side" : "the new side",
	    eb ? fb : fn, eb && en ? ", " : "", eb && en ? fn : "");
	free(what);
	return -1;
}

/*
 * spans: a trace none of whose spans is on a sample of the profiles (a
 * trace of another window, or of another service) is refused, naming
 * both; a side alone left empty is the command's to say (too few slow
 * spans with samples is inconclusive, not an error).
 */
static int
trace_unmatched(const struct opts *o, const struct side *b)
{
	char files[1024];

	side_files(files, sizeof(files), b);
	if (selection_unkeyed(o->select[0], &b->sel) != NULL)
		cli_warn("%s: %s: no sample of %s carries the label %s that "
		    "holds a span id (--span-label)", o->cmd->name, o->trace,
		    files, o->span_label);
	else if (o->span_name != NULL)
		cli_warn("%s: %s: none of its spans named %s is on a sample of "
		    "%s (label %s)", o->cmd->name, o->trace, o->span_name,
		    files, o->span_label);
	else
		cli_warn("%s: %s: none of its span ids is on a sample of %s "
		    "(label %s): a trace of another window or service?",
		    o->cmd->name, o->trace, files, o->span_label);
	return -1;
}

int
cli_sides_check(const struct opts *o, const struct side *b,
    const struct side *n)
{
	const struct side	*sd[2] = { b, n };
	char			 files[1024];
	int			 i;

	if (o->trace != NULL) {
		if (b->sel.kept == 0 && n->sel.kept == 0)
			return trace_unmatched(o, b);
		return tags_empty(o, b, n);
	}
	for (i = 0; i < 2; i++)
		if (o->select[i] != NULL && sd[i]->sel.kept == 0)
			return sel_empty(o, i, sd[i]);
	if (o->one_profile && b->sel.both > 0) {
		side_files(files, sizeof(files), b);
		cli_warn("%s: %s and %s both select %zu of the %zu sample "
		    "records of %s: the two sides of one profile must share "
		    "no sample", o->cmd->name, selection_text(o->select[0]),
		    selection_text(o->select[1]), b->sel.both, b->sel.seen,
		    files);
		return -1;
	}
	return tags_empty(o, b, n);
}

void
cli_sides_head(const struct opts *o, const struct side *b,
    const struct side *n, struct report_sel sel[2], int64_t *neither)
{
	const struct side	*sd[2] = { b, n };
	int64_t			 total;
	size_t			 i, k;

	memset(sel, 0, 2 * sizeof(*sel));
	for (i = 0; i < 2; i++) {
		if (o->select[i] == NULL)
			continue;
		sel[i].terms = selection_text(o->select[i]);
		sel[i].samples = sd[i]->merged.samples;
		sel[i].of = whole_samples(sd[i]);
		for (k = 0, total = 0; k < sd[i]->nprofiles; k++)
			total += sd[i]->whole[k].total;
		sel[i].share = total != 0 ? (double)sd[i]->merged.total /
		    (double)total : 0;
		sel[i].nprofiles = sd[i]->nprofiles;
	}
	*neither = -1;
	if (o->one_profile && sel[0].samples >= 0 && sel[1].samples >= 0 &&
	    sel[0].of >= 0)
		*neither = sel[0].of - sel[0].samples - sel[1].samples;
}

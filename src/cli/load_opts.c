/*
 * What the options mean for loading and for the report's header, once
 * they are parsed: the filters and --list's and --peek's expressions
 * compiled, and everything else loading needs decided here only
 * (cli_load_opts()); --unit checked against the values' unit; the
 * filters as the header lists them.  This is CLI code: it prints to
 * stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/filter.h"
#include "core/views.h"
#include "input/fetch.h"
#include "support/diag.h"
#include "support/units.h"
#include "support/xmalloc.h"

/*
 * --save: where a URL's bytes went.  The two sides fetch on two
 * threads: stderr is held for the whole line.
 */
static void
note_saved(const char *url, const char *path, size_t len)
{
	flockfile(stderr);
	cli_warn("saved %s (%zu bytes) as %s", url, len, path);
	funlockfile(stderr);
}

/*
 * Each operand and --base file with a password in a URL is replaced by
 * the same with ***: every message, header and report names that one,
 * and only fetch.c, which keeps the password, sends it.
 */
int
cli_redact_inputs(struct opts *o)
{
	struct diag	 d;
	const char	*r;
	char		**p;
	size_t		 i;

	for (i = 0; i < o->noperands + o->bases.n; i++) {
		p = i < o->noperands ? &o->operands[i] :
		    &o->bases.v[i - o->noperands];
		diag_init(&d, NULL);
		if (fetch_redact(*p, &r, &d) == -1) {
			cli_warn("%s: %s", o->cmd->name, d.msg);
			return -1;
		}
		*p = (char *)(uintptr_t)r;
	}
	return 0;
}

static int
writes_views(const struct report_writer *w)
{
	return w->views;
}

/*
 * --list and --peek, compiled once into o->views for the loading and
 * the views: reports of call stacks, in a format that writes them.
 * Returns 0, or -1 with the diag filled or after a message.
 */
static int
views_opts(struct opts *o, struct diag *d)
{
	const char	*cmd = o->cmd->name;
	const char	*what = o->list != NULL ? "--list" : "--peek";
	char		 fmts[128];

	if (o->list == NULL && o->peek == NULL) {
		if (o->source_path != NULL)
			cli_warn("%s: --source-path is for --list", cmd);
		return o->source_path != NULL ? -1 : 0;
	}
	if (!cli_writer(o)->views) {
		cli_formats(fmts, sizeof(fmts), o->cmd, writes_views);
		cli_warn("%s: %s is written in %s only", cmd, what, fmts);
		return -1;
	}
	if (o->load.agg.label_key != NULL) {
		cli_warn("%s: %s needs call stacks, and --by-label rows have "
		    "none", cmd, what);
		return -1;
	}
	return views_spec_new(o->list, o->peek, &o->views, d);
}

/*
 * The filter options, for every subcommand, compiled once into
 * o->filter; load.c applies it to each profile as it is loaded.
 */
static int
filter_opts(struct opts *o, struct diag *d)
{
	struct filter_spec sp;

	memset(&sp, 0, sizeof(sp));
	sp.focus = o->focus;
	sp.ignore = o->ignore;
	sp.hide = o->hide;
	sp.show = o->show;
	sp.tags = o->tags.v;
	sp.ntags = o->tags.n;
	sp.tag_ignores = o->tag_ignores.v;
	sp.ntag_ignores = o->tag_ignores.n;
	sp.relative = o->relative;
	return filter_new(&sp, &o->filter, d);
}

/* Add each folder of a colon-separated list to o->sym_dirs. */
static void
sym_dirs_add(struct opts *o, size_t *n, const char *list)
{
	const char	*s, *e;
	char		*d;

	for (s = list;; s = e + 1) {
		if ((e = strchr(s, ':')) == NULL)
			e = s + strlen(s);
		if (e > s) {
			o->sym_dirs = xreallocarray(o->sym_dirs, *n + 2,
			    sizeof(*o->sym_dirs));
			d = xmalloc(e - s + 1);
			memcpy(d, s, e - s);
			d[e - s] = '\0';
			o->sym_dirs[(*n)++] = d;
		}
		if (*e == '\0')
			break;
	}
}

/*
 * Where symbolization looks for binaries, before the mapping's own path
 * and /usr/lib/debug/.build-id: --binary-path's folders, in order, then
 * PPROF_BINARY_PATH's, or, as pprof, $HOME/pprof/binaries when it is
 * unset or empty.
 */
static void
sym_dirs(struct opts *o)
{
	const char	*env = getenv("PPROF_BINARY_PATH"), *home;
	char		*def;
	size_t		 n = 0;

	if (o->binary_path != NULL)
		sym_dirs_add(o, &n, o->binary_path);
	if (env != NULL && env[0] != '\0')
		sym_dirs_add(o, &n, env);
	else if ((home = getenv("HOME")) != NULL && home[0] != '\0') {
		xasprintf(&def, "%s/pprof/binaries", home);
		o->sym_dirs = xreallocarray(o->sym_dirs, n + 2,
		    sizeof(*o->sym_dirs));
		o->sym_dirs[n++] = def;
	}
	o->load.sym.dirs = o->sym_dirs;
	o->load.sym.ndirs = n;
}

void
cli_sym_dirs_free(struct opts *o)
{
	size_t i;

	for (i = 0; i < o->load.sym.ndirs; i++)
		free(o->sym_dirs[i]);
	free(o->sym_dirs);
	o->sym_dirs = NULL;
	o->load.sym.dirs = NULL;
	o->load.sym.ndirs = 0;
}

int
cli_load_opts(struct opts *o)
{
	struct load_opts	*lo = &o->load;
	struct diag		 d;

	diag_init(&d, NULL);
	if (filter_opts(o, &d) == -1 || views_opts(o, &d) == -1) {
		if (d.msg[0] != '\0')
			cli_warn("%s: %s", o->cmd->name, d.msg);
		return -1;
	}
	if (cli_selections(o) == -1)
		return -1;
	lo->filter = o->filter;
	lo->views = o->views;
	lo->agg.tree = cli_writer(o)->tree;
	lo->agg.noedges = (o->cmd->needs & CMD_EDGES) == 0;
	lo->moments = (o->cmd->needs & CMD_MOMENTS) != 0;
	lo->agg.idle_apart = (o->cmd->needs & CMD_COMPARES) != 0;
	lo->limits.fetch = &o->fetch;
	o->fetch.saved = o->quiet ? NULL : note_saved;
	sym_dirs(o);
	return 0;
}

int
cli_check_unit(const struct opts *o, const struct facts *f)
{
	const char *unit = o->unit, *want, *have;

	if (unit == NULL || strcmp(unit, "minimum") == 0 ||
	    strcmp(unit, "auto") == 0)
		return 0;
	want = units_kind(unit);
	if ((have = units_kind(f->unit)) != NULL && strcmp(have, want) == 0)
		return 0;
	if (f->unit[0] == '\0')
		cli_warn("%s: --unit %s is a %s unit, but %s values have no "
		    "unit", o->cmd->name, unit, want, f->sample_type);
	else
		cli_warn("%s: --unit %s is a %s unit, but %s values are in %s",
		    o->cmd->name, unit, want, f->sample_type, f->unit);
	return -1;
}

static void
text_add(char **s, const char *opt, const char *arg)
{
	char *t;

	xasprintf(&t, "%s%s%s%s%s", *s ? *s : "", *s ? " " : "", opt,
	    arg ? " " : "", arg ? arg : "");
	free(*s);
	*s = t;
}

/* The active filters as the report header lists them, or NULL. */
char *
cli_filters_text(const struct opts *o)
{
	char	*s = NULL;
	size_t	 i;

	if (o->focus != NULL)
		text_add(&s, "--focus", o->focus);
	if (o->ignore != NULL)
		text_add(&s, "--ignore", o->ignore);
	if (o->hide != NULL)
		text_add(&s, "--hide", o->hide);
	if (o->show != NULL)
		text_add(&s, "--show", o->show);
	for (i = 0; i < o->tags.n; i++)
		text_add(&s, "--tag", o->tags.v[i]);
	for (i = 0; i < o->tag_ignores.n; i++)
		text_add(&s, "--tag-ignore", o->tag_ignores.v[i]);
	if (o->relative)
		text_add(&s, "--relative", NULL);
	return s;
}

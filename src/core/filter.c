/*
 * Sample filters: pprof's FilterSamplesByName (focus, ignore, hide,
 * show) and FilterSamplesByTag (tagfocus, tagignore), in that order, on
 * POSIX extended regular expressions.  Each expression is matched once
 * per location, not once per frame of every sample.  No I/O here.
 */
#include <math.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "core/filter.h"
#include "model/profile.h"
#include "support/units.h"
#include "support/xmalloc.h"

/* One --tag or --tag-ignore. */
struct tagf {
	char		*key;
	/* A numeric range: lo <= value <= hi, in the unit of the bounds. */
	int		 numeric;
	double		 lo, hi;
	char		*unit;		/* as given, "" when none */
	char		*text;		/* the value as given */
	/* Otherwise expressions, any of which may match. */
	regex_t		*rx;
	size_t		 nrx;
};

struct filter {
	const char	*focus_pat, *ignore_pat, *hide_pat, *show_pat;
	regex_t		 focus, ignore, hide, show;
	int		 has_focus, has_ignore, has_hide, has_show;
	struct tagf	*tags;
	size_t		 ntags;
	struct tagf	*tignores;
	size_t		 ntignores;
	int		 relative;
};

/* Location flags, computed once per location. */
#define L_FOCUS		0x1	/* focused, or no --focus and not ignored */
#define L_IGNORE	0x2
#define L_HIDDEN	0x4	/* no frame left after hide and show */

/*
 * What POSIX leaves undefined in an extended regular expression and
 * glibc makes expensive: a repetition operator right after another
 * ("a++", "x*?"; each one more doubles regcomp's memory or regexec's
 * time), and back-references, which make matching exponential.  NULL
 * when the pattern has neither.
 */
static const char *
unsafe_pattern(const char *p)
{
	int	 rep = 0;	/* the previous token was a repetition */

	while (*p != '\0') {
		if (*p == '\\') {
			if (p[1] >= '1' && p[1] <= '9')
				return "back-references are not supported";
			p += p[1] != '\0' ? 2 : 1;
			rep = 0;
		} else if (*p == '[') {
			/* A bracket expression: "]" first is a member. */
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p != '\0' && *p != ']') {
				if (*p == '[' && (p[1] == ':' || p[1] == '.' ||
				    p[1] == '=')) {
					char	 end = p[1];

					for (p += 2; *p != '\0' &&
					    !(p[0] == end && p[1] == ']'); p++)
						continue;
					if (*p != '\0')
						p++;
				}
				if (*p != '\0')
					p++;
			}
			if (*p == ']')
				p++;
			rep = 0;
		} else if (*p == '*' || *p == '+' || *p == '?' || *p == '{') {
			if (rep && *p != '{')
				return "a repetition operator follows another "
				    "(POSIX leaves that undefined; non-greedy "
				    "forms like '*?' do not exist here)";
			if (*p == '{')
				while (*p != '\0' && *p != '}')
					p++;
			if (*p != '\0')
				p++;
			rep = 1;
		} else {
			p++;
			rep = 0;
		}
	}
	return NULL;
}

static int
compile(regex_t *re, const char *pat, const char *opt, struct diag *d)
{
	const char	*why;
	char		 err[128];
	int		 rc;

	if ((why = unsafe_pattern(pat)) != NULL)
		return diag_set(d, DIAG_USAGE, -1, "bad regular expression "
		    "for %s '%s': %s", opt, pat, why);
	if ((rc = regcomp(re, pat, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(rc, re, err, sizeof(err));
		regfree(re);
		return diag_set(d, DIAG_USAGE, -1, "bad regular expression "
		    "for %s '%s': %s", opt, pat, err);
	}
	return 0;
}

/*
 * "N" with an optional unit, the whole of [s, e): a bound of a numeric
 * range as pprof's tag filters read it.  Returns 0 or -1.
 */
static int
parse_bound(const char *s, const char *e, double *v, char *unit,
    size_t unitlen)
{
	const char	*p = s;
	long long	 n = 0;
	int		 neg = 0;
	size_t		 k;

	if (p < e && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	if (p == e || *p < '0' || *p > '9')
		return -1;
	for (; p < e && *p >= '0' && *p <= '9'; p++) {
		if (n > (INT64_MAX - (*p - '0')) / 10)
			return -1;
		n = n * 10 + (*p - '0');
	}
	for (k = 0; p < e && ((*p >= 'a' && *p <= 'z') ||
	    (*p >= 'A' && *p <= 'Z')); p++)
		if (k + 1 < unitlen)
			unit[k++] = *p;
		else
			return -1;
	unit[k] = '\0';
	if (p != e)
		return -1;
	*v = neg ? -(double)n : (double)n;
	return 0;
}

/*
 * Is val a numeric range: "N", "N:", ":N" or "N:M", each N with an
 * optional unit, both in one unit?  The bounds are kept in their own
 * unit; a label's value is converted into it when compared.
 */
static int
parse_range(struct tagf *t, const char *val)
{
	const char	*colon, *end = val + strlen(val);
	char		 u1[32], u2[32];
	double		 a, b;
	const char	*c1, *c2;

	colon = strchr(val, ':');
	if (colon != NULL && strchr(colon + 1, ':') != NULL)
		return -1;
	if (colon == NULL) {
		if (parse_bound(val, end, &a, u1, sizeof(u1)) == -1)
			return -1;
		t->lo = t->hi = a;
	} else if (colon == val) {
		if (parse_bound(colon + 1, end, &b, u1, sizeof(u1)) == -1)
			return -1;
		t->lo = -HUGE_VAL;
		t->hi = b;
	} else if (colon + 1 == end) {
		if (parse_bound(val, colon, &a, u1, sizeof(u1)) == -1)
			return -1;
		t->lo = a;
		t->hi = HUGE_VAL;
	} else {
		if (parse_bound(val, colon, &a, u1, sizeof(u1)) == -1 ||
		    parse_bound(colon + 1, end, &b, u2, sizeof(u2)) == -1)
			return -1;
		/* "1kb:2mb": the upper bound in the unit of the lower. */
		units_scale(1, u1, u1, &c1);
		units_scale(1, u2, u1, &c2);
		if (u1[0] == '\0' && u2[0] != '\0')
			return -1;
		if (u2[0] != '\0' && strcmp(c1, c2) != 0)
			return -1;
		t->lo = a;
		t->hi = u2[0] != '\0' ? b * units_scale(1, u2, u1, NULL) : b;
	}
	t->numeric = 1;
	t->unit = xstrdup(u1);
	return 0;
}

static char *
dupn(const char *s, size_t n)
{
	char *t;

	t = xmalloc(n + 1);
	memcpy(t, s, n);
	t[n] = '\0';
	return t;
}

static void
tagf_release(struct tagf *t)
{
	size_t i;

	for (i = 0; i < t->nrx; i++)
		regfree(&t->rx[i]);
	free(t->rx);
	free(t->key);
	free(t->unit);
	free(t->text);
}

static int
tagf_init(struct tagf *t, const char *arg, const char *opt, struct diag *d)
{
	const char	*eq, *s, *comma;
	char		*pat;

	memset(t, 0, sizeof(*t));
	if ((eq = strchr(arg, '=')) == NULL || eq == arg)
		return diag_set(d, DIAG_USAGE, -1, "%s '%s': expected "
		    "KEY=VALUE", opt, arg);
	t->key = dupn(arg, (size_t)(eq - arg));
	t->text = xstrdup(eq + 1);
	if (parse_range(t, eq + 1) == 0)
		return 0;
	/* Expressions separated by commas, as pprof's -tagfocus. */
	s = eq + 1;
	for (;;) {
		comma = strchr(s, ',');
		pat = dupn(s, comma ? (size_t)(comma - s) : strlen(s));
		t->rx = xreallocarray(t->rx, t->nrx + 1, sizeof(*t->rx));
		if (compile(&t->rx[t->nrx], pat, opt, d) == -1) {
			free(pat);
			tagf_release(t);
			return -1;
		}
		t->nrx++;
		free(pat);
		if (comma == NULL)
			break;
		s = comma + 1;
	}
	return 0;
}

static int
tagf_label(const struct tagf *t, const struct pf_label *l)
{
	const char	*cu, *lu;
	double		 v;
	size_t		 i;

	if (strcmp(l->key, t->key) != 0)
		return 0;
	if (t->numeric) {
		if (l->str != NULL)	/* "200" against a string "200" */
			return strcmp(l->str, t->text) == 0;
		if (t->unit[0] == '\0')
			v = (double)l->num;
		else {
			/* The label's unit must convert to the bound's. */
			units_scale(1, t->unit, t->unit, &cu);
			v = units_scale(l->num, units_of_label(l->key,
			    l->num_unit), t->unit, &lu);
			if (strcmp(cu, lu) != 0)
				return 0;
		}
		return v >= t->lo && v <= t->hi;
	}
	if (l->str == NULL)
		return 0;
	for (i = 0; i < t->nrx; i++)
		if (regexec(&t->rx[i], l->str, 0, NULL, 0) == 0)
			return 1;
	return 0;
}

static int
tagf_sample(const struct tagf *t, const struct pf_sample *s)
{
	size_t i;

	for (i = 0; i < s->nlabels; i++)
		if (tagf_label(t, &s->labels[i]))
			return 1;
	return 0;
}

static int
compile_opt(regex_t *re, int *has, const char *pat, const char *opt,
    struct diag *d)
{
	if (pat == NULL)
		return 0;
	if (compile(re, pat, opt, d) == -1)
		return -1;
	*has = 1;
	return 0;
}

int
filter_new(const struct filter_spec *sp, struct filter **out, struct diag *d)
{
	struct filter	*f;
	size_t		 i;

	*out = NULL;
	if (sp->focus == NULL && sp->ignore == NULL && sp->hide == NULL &&
	    sp->show == NULL && sp->ntags == 0 && sp->ntag_ignores == 0 &&
	    !sp->relative)
		return 0;
	f = xcalloc(1, sizeof(*f));
	f->relative = sp->relative;
	f->focus_pat = sp->focus;
	f->ignore_pat = sp->ignore;
	f->hide_pat = sp->hide;
	f->show_pat = sp->show;
	f->tags = xcalloc(sp->ntags ? sp->ntags : 1, sizeof(*f->tags));
	f->tignores = xcalloc(sp->ntag_ignores ? sp->ntag_ignores : 1,
	    sizeof(*f->tignores));
	if (compile_opt(&f->focus, &f->has_focus, sp->focus, "--focus",
	    d) == -1 ||
	    compile_opt(&f->ignore, &f->has_ignore, sp->ignore, "--ignore",
	    d) == -1 ||
	    compile_opt(&f->hide, &f->has_hide, sp->hide, "--hide", d) == -1 ||
	    compile_opt(&f->show, &f->has_show, sp->show, "--show", d) == -1)
		goto fail;
	for (i = 0; i < sp->ntags; i++, f->ntags++)
		if (tagf_init(&f->tags[i], sp->tags[i], "--tag", d) == -1)
			goto fail;
	for (i = 0; i < sp->ntag_ignores; i++, f->ntignores++)
		if (tagf_init(&f->tignores[i], sp->tag_ignores[i],
		    "--tag-ignore", d) == -1)
			goto fail;
	*out = f;
	return 0;

fail:
	filter_free(f);
	return -1;
}

void
filter_free(struct filter *f)
{
	size_t i;

	if (f == NULL)
		return;
	if (f->has_focus)
		regfree(&f->focus);
	if (f->has_ignore)
		regfree(&f->ignore);
	if (f->has_hide)
		regfree(&f->hide);
	if (f->has_show)
		regfree(&f->show);
	for (i = 0; i < f->ntags; i++)
		tagf_release(&f->tags[i]);
	for (i = 0; i < f->ntignores; i++)
		tagf_release(&f->tignores[i]);
	free(f->tags);
	free(f->tignores);
	free(f);
}

static int
line_matches(const regex_t *re, const struct pf_line *ln)
{
	const struct pf_function *fn = ln->function;

	return fn != NULL && (regexec(re, fn->name, 0, NULL, 0) == 0 ||
	    (fn->filename[0] != '\0' &&
	    regexec(re, fn->filename, 0, NULL, 0) == 0));
}

/* A location without lines is named by its binary, if anything. */
static int
bare_matches(const regex_t *re, const struct pf_location *l)
{
	return l->nlines == 0 && l->mapping != NULL &&
	    l->mapping->filename[0] != '\0' &&
	    regexec(re, l->mapping->filename, 0, NULL, 0) == 0;
}

static int
loc_matches(const regex_t *re, const struct pf_location *l)
{
	size_t i;

	for (i = 0; i < l->nlines; i++)
		if (line_matches(re, &l->lines[i]))
			return 1;
	return bare_matches(re, l);
}

/*
 * Keep the lines of l that match re (want 1) or do not (want 0), in
 * place; lines without a function are kept, as pprof keeps them.
 * Returns how many are left.
 */
static size_t
keep_lines(struct pf_location *l, const regex_t *re, int want)
{
	size_t i, n = 0;

	for (i = 0; i < l->nlines; i++)
		if (l->lines[i].function == NULL ||
		    line_matches(re, &l->lines[i]) == want)
			l->lines[n++] = l->lines[i];
	return l->nlines = n;
}

/* The flags of every location; rewrites the lines for hide and show. */
static unsigned char *
locations(const struct filter *f, struct profile *p, struct filter_stats *st)
{
	unsigned char	*fl;
	size_t		 i;

	fl = xcalloc(p->nlocations ? p->nlocations : 1, 1);
	for (i = 0; i < p->nlocations; i++) {
		struct pf_location *l = &p->locations[i];

		if (f->has_ignore && loc_matches(&f->ignore, l)) {
			fl[i] |= L_IGNORE;
			st->ignore_hits++;
		} else if (!f->has_focus || loc_matches(&f->focus, l)) {
			fl[i] |= L_FOCUS;
			st->focus_hits += f->has_focus;
		}
		if (f->has_hide && loc_matches(&f->hide, l)) {
			st->hide_hits++;
			if (bare_matches(&f->hide, l) ||
			    keep_lines(l, &f->hide, 0) == 0)
				fl[i] |= L_HIDDEN;
		}
		if (f->has_show) {
			/*
			 * pprof's matchedLines: a location without lines
			 * has none to show, whatever its binary.
			 */
			if (l->nlines == 0 || keep_lines(l, &f->show, 1) == 0)
				fl[i] |= L_HIDDEN;
			else
				st->show_hits++;
		}
	}
	return fl;
}

/*
 * Is the sample kept?  pprof's focusedAndNotIgnored: some location
 * focused and none ignored (so a sample with no locations is dropped),
 * then the tags.
 */
static int
keep_sample(const struct filter *f, const struct profile *p,
    const unsigned char *fl, const struct pf_sample *s,
    struct filter_stats *st)
{
	size_t	 i;
	int	 focused = 0, ok;

	for (i = 0; i < s->nlocs; i++) {
		unsigned char b = fl[s->locs[i] - p->locations];

		if (b & L_IGNORE)
			return 0;
		if (b & L_FOCUS)
			focused = 1;
	}
	if (!focused)
		return 0;
	if (f->ntags > 0) {
		for (i = 0, ok = 1; i < f->ntags && ok; i++)
			ok = tagf_sample(&f->tags[i], s);
		if (!ok)
			return 0;
		st->tag_hits++;
	}
	for (i = 0; i < f->ntignores; i++)
		if (tagf_sample(&f->tignores[i], s)) {
			st->tag_ignore_hits++;
			return 0;
		}
	return 1;
}

/* One profile being filtered, a sample at a time. */
struct filter_run {
	const struct filter *f;		/* NULL: keep everything */
	struct profile	*p;
	struct filter_stats *st;
	unsigned char	*fl;		/* L_* per location */
	const struct pf_location **locs;	/* a stack without its hidden */
	size_t		 cap;		/*   frames */
	struct pf_sample s;
};

struct filter_run *
filter_begin(const struct filter *f, struct profile *p,
    struct filter_stats *st)
{
	struct filter_run *r;

	r = xcalloc(1, sizeof(*r));
	r->f = f;
	r->p = p;
	r->st = st;
	if (f == NULL)
		return r;
	st->focus = f->focus_pat;
	st->ignore = f->ignore_pat;
	st->hide = f->hide_pat;
	st->show = f->show_pat;
	st->ntags = f->ntags;
	st->ntag_ignores = f->ntignores;
	r->fl = locations(f, p, st);
	return r;
}

/* A kept sample's stack without its hidden locations; 0 if none is left. */
static int
unhide(struct filter_run *r, const struct pf_sample *s,
    const struct pf_sample **out)
{
	const struct profile *p = r->p;
	size_t		 i, n = 0;

	*out = s;
	for (i = 0; i < s->nlocs; i++)
		if (!(r->fl[s->locs[i] - p->locations] & L_HIDDEN))
			n++;
	if (n == s->nlocs)
		return 1;
	if (n == 0)
		return 0;
	if (n > r->cap) {
		r->cap = n;
		r->locs = xreallocarray(r->locs, r->cap, sizeof(*r->locs));
	}
	for (i = 0, n = 0; i < s->nlocs; i++)
		if (!(r->fl[s->locs[i] - p->locations] & L_HIDDEN))
			r->locs[n++] = s->locs[i];
	r->s = *s;
	r->s.locs = r->locs;
	r->s.nlocs = n;
	*out = &r->s;
	return 1;
}

int
filter_sample(struct filter_run *r, const struct pf_sample *s,
    const struct pf_sample **out)
{
	int k;

	*out = s;
	k = r->f == NULL || (keep_sample(r->f, r->p, r->fl, s, r->st) &&
	    unhide(r, s, out));
	r->st->samples++;
	r->st->kept += k;
	return k;
}

void
filter_end(struct filter_run *r)
{
	if (r == NULL)
		return;
	free(r->fl);
	free(r->locs);
	free(r);
}

void
filter_apply(const struct filter *f, struct profile *p, unsigned char **keep,
    struct filter_stats *st)
{
	struct filter_run *r;
	const struct pf_sample *out;
	unsigned char	*mask = NULL;
	size_t		 i, n = 0;
	int		 k;

	r = filter_begin(f, p, st);
	if (f != NULL && !f->relative)
		mask = xcalloc(p->nsamples ? p->nsamples : 1, 1);
	for (i = 0; i < p->nsamples; i++) {
		struct pf_sample *s = &p->samples[i];

		k = filter_sample(r, s, &out);
		if (k && out != s) {
			/* The run's stack is reused: the profile keeps a copy. */
			s->locs = arena_alloc(p->arena, out->nlocs,
			    sizeof(*s->locs));
			memcpy(s->locs, out->locs, out->nlocs *
			    sizeof(*s->locs));
			s->nlocs = out->nlocs;
		}
		if (mask != NULL)
			mask[i] = (unsigned char)k;
		else if (k)
			p->samples[n++] = *s;
	}
	if (f != NULL && mask == NULL)
		p->nsamples = n;
	filter_end(r);
	*keep = mask;
}

int
filter_relative(const struct filter *f)
{
	return f != NULL && f->relative;
}

/*
 * compile() for the other options that take an expression (--list,
 * --peek in views.c), so that every pattern is refused for the same
 * reasons with the same words.
 */
int
filter_regcomp(regex_t *re, const char *pat, const char *opt, struct diag *d)
{
	return compile(re, pat, opt, d);
}

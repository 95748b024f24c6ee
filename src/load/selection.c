/*
 * Which samples of a profile are one side's: --base-tag and --new-tag.
 * The terms that take --tag's values are matched by the filters' own
 * code (filter.c), one filter of every such term, so that a value means
 * what it means to --tag; the lists of values are sorted once and each
 * label looked up by bisection.  No I/O here.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/filter.h"
#include "load/selection.h"
#include "model/profile.h"
#include "support/diag.h"
#include "support/xmalloc.h"

/* A term of values: the label key has one of them. */
struct valset {
	char		*key;
	char		**v;		/* sorted, hex digits in lower case */
	size_t		 n;
	/* selection_parts(): each value's place as given, by v's order */
	size_t		*orig;
};

/* A term, in the order given. */
struct term {
	char		*text;		/* KEY=VALUE as given */
	char		*key;
	struct valset	*set;		/* NULL: one of the filter's tags */
};

struct selection {
	const char	*opt;		/* "--base-tag" */
	struct term	*terms;
	size_t		 nterms;
	char		**tags;		/* the --tag terms, for tagf */
	size_t		 ntags;
	struct filter	*tagf;		/* of tags; NULL if none */
	char		*text;		/* selection_text(), as terms are added */
	/*
	 * selection_parts(): the term of parts, each value's part and the
	 * sum of the weights of the samples it selected, in the order given.
	 */
	struct valset	*parts;
	unsigned	*part;
	int64_t		*sum;
	size_t		 nparts;
};

/*
 * A selection of parts alone (spans): each label string of the profile
 * looked up once, its place in v (or -1) kept by the string's address,
 * which the profile's strings keep while it is read.
 */
struct memo {
	const char	*s;
	long		 at;
};

struct selection_run {
	const struct selection *sel, *other;
	struct filter_run *fr, *ofr;	/* the two selections' tags */
	struct filter_stats fst, ofst;	/* for filter_begin() alone */
	struct selection_stats *st;
	struct memo	*memo;		/* or NULL */
	size_t		 mmask, mused;
};

/* The memo's size at most: 2^21 slots, 32 MiB. */
#define MEMO_MAX	(1 << 21)

/* The memo's place for s: its slot, or an empty one. */
static struct memo *
memo_slot(struct selection_run *r, const char *s)
{
	size_t h = ((uintptr_t)s >> 3) * 0x9e3779b97f4a7c15ULL;

	for (h &= r->mmask;; h = (h + 1) & r->mmask)
		if (r->memo[h].s == s || r->memo[h].s == NULL)
			return &r->memo[h];
}

struct selection *
selection_new(const char *opt)
{
	struct selection *s;

	s = xcalloc(1, sizeof(*s));
	s->opt = opt;
	return s;
}

void
selection_free(struct selection *s)
{
	size_t i, j;

	if (s == NULL)
		return;
	for (i = 0; i < s->nterms; i++) {
		struct term *t = &s->terms[i];

		if (t->set != NULL) {
			for (j = 0; j < t->set->n; j++)
				free(t->set->v[j]);
			free(t->set->v);
			free(t->set->orig);
			free(t->set);
		}
		free(t->text);
		free(t->key);
	}
	free(s->terms);
	free(s->part);
	free(s->sum);
	free(s->tags);
	filter_free(s->tagf);
	free(s->text);
	free(s);
}

static struct term *
add_term(struct selection *s, const char *text, const char *key,
    size_t keylen)
{
	struct term	*t;
	char		*all;

	s->terms = xreallocarray(s->terms, s->nterms + 1, sizeof(*s->terms));
	t = &s->terms[s->nterms++];
	memset(t, 0, sizeof(*t));
	t->text = xstrdup(text);
	t->key = xmalloc(keylen + 1);
	memcpy(t->key, key, keylen);
	t->key[keylen] = '\0';
	xasprintf(&all, "%s%s%s %s", s->text ? s->text : "", s->text ? " " :
	    "", s->opt, text);
	free(s->text);
	s->text = all;
	return t;
}

int
selection_tag(struct selection *s, const char *keyval, struct diag *d)
{
	const char		*eq = strchr(keyval, '=');
	struct filter_spec	 sp;
	struct filter		*f;

	if (eq == NULL || eq == keyval)
		return diag_set(d, DIAG_USAGE, -1, "%s '%s': expected "
		    "KEY=VALUE", s->opt, keyval);
	memset(&sp, 0, sizeof(sp));
	sp.tags = (char *const *)&keyval;
	sp.ntags = 1;
	if (filter_new(&sp, &f, d) == -1)
		return -1;
	filter_free(f);
	(void)add_term(s, keyval, keyval, (size_t)(eq - keyval));
	/* Every term of --tag's kind in one filter: all must match. */
	s->tags = xreallocarray(s->tags, s->ntags + 1, sizeof(*s->tags));
	s->tags[s->ntags++] = s->terms[s->nterms - 1].text;
	filter_free(s->tagf);
	memset(&sp, 0, sizeof(sp));
	sp.tags = s->tags;
	sp.ntags = s->ntags;
	return filter_new(&sp, &s->tagf, d);
}

/* Hex digits only: a span or trace id, in either case. */
static int
hexlike(const char *v)
{
	if (*v == '\0')
		return 0;
	for (; *v != '\0'; v++)
		if (!isxdigit((unsigned char)*v))
			return 0;
	return 1;
}

/* A query: a label's value, and whether to compare it in lower case. */
struct query {
	const char	*s;
	int		 fold;
};

static int
query_cmp(const void *a, const void *b)
{
	const struct query	*q = a;
	const unsigned char	*x = (const unsigned char *)q->s;
	const unsigned char	*y = *(const unsigned char *const *)b;
	int			 cx, cy;

	for (;; x++, y++) {
		cx = q->fold ? tolower(*x) : *x;
		cy = *y;
		if (cx != cy || cx == '\0')
			return cx - cy;
	}
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
selection_values(struct selection *s, const char *key, char *const *values,
    size_t n, const char *text)
{
	struct term	*t;
	struct valset	*vs;
	char		*p;
	size_t		 i;

	t = add_term(s, text, key, strlen(key));
	t->set = vs = xcalloc(1, sizeof(*vs));
	vs->key = t->key;
	vs->v = xreallocarray(NULL, n ? n : 1, sizeof(*vs->v));
	for (i = 0; i < n; i++) {
		vs->v[i] = xstrdup(values[i]);
		if (hexlike(vs->v[i]))
			for (p = vs->v[i]; *p != '\0'; p++)
				*p = (char)tolower((unsigned char)*p);
	}
	vs->n = n;
	qsort(vs->v, vs->n, sizeof(*vs->v), str_cmp);
}

const char *
selection_text(const struct selection *s)
{
	return s->text != NULL ? s->text : "";
}

const char *
selection_unkeyed(const struct selection *s, const struct selection_stats *st)
{
	size_t i;

	for (i = 0; i < s->nterms && i < 63; i++)
		if (!(st->keyed & UINT64_C(1) << i))
			return s->terms[i].text;
	return NULL;
}

/*
 * Does a label of the sample have the set's key and one of its values?
 * *at, if not NULL, gets the value's place in v.
 */
static int
valset_sample(const struct valset *vs, const struct pf_sample *smp,
    size_t *at)
{
	char	**hit;

	struct query	 q;
	char		 num[32];
	size_t		 i;

	for (i = 0; i < smp->nlabels; i++) {
		const struct pf_label *l = &smp->labels[i];

		if (strcmp(l->key, vs->key) != 0)
			continue;
		if (l->str == NULL) {
			/* A numeric label, as its decimal text. */
			snprintf(num, sizeof(num), "%" PRId64, l->num);
			q.s = num;
		} else
			q.s = l->str;
		q.fold = hexlike(q.s);
		if ((hit = bsearch(&q, vs->v, vs->n, sizeof(*vs->v),
		    query_cmp)) != NULL) {
			if (at != NULL)
				*at = (size_t)(hit - vs->v);
			return 1;
		}
	}
	return 0;
}

/* Note the terms whose key the sample carries. */
static void
keyed(const struct selection *s, const struct pf_sample *smp,
    struct selection_stats *st)
{
	size_t		 i, j;
	uint64_t	 all = s->nterms > 63 ? UINT64_MAX :
			    (UINT64_C(1) << s->nterms) - 1;

	if ((st->keyed & all) == all)
		return;
	for (i = 0; i < s->nterms; i++) {
		uint64_t bit = UINT64_C(1) << (i < 63 ? i : 63);

		if (st->keyed & bit)
			continue;
		for (j = 0; j < smp->nlabels; j++)
			if (strcmp(smp->labels[j].key, s->terms[i].key) == 0) {
				st->keyed |= bit;
				break;
			}
	}
}

/*
 * Does s select the sample: every term matches?  fr runs its tags.
 * *at, if not NULL, gets the place in v of the parts' term's value.
 */
static int
selects(const struct selection *s, struct filter_run *fr,
    const struct pf_sample *smp, size_t *at)
{
	const struct pf_sample	*out;
	size_t			 i;

	for (i = 0; i < s->nterms; i++)
		if (s->terms[i].set != NULL &&
		    !valset_sample(s->terms[i].set, smp,
		    s->terms[i].set == s->parts ? at : NULL))
			return 0;
	return fr == NULL || filter_sample(fr, smp, &out);
}

struct selection_run *
selection_begin(const struct selection *sel, const struct selection *other,
    struct profile *p, struct selection_stats *st)
{
	struct selection_run *r;

	if (sel == NULL)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->sel = sel;
	r->other = other;
	r->st = st;
	if (sel->tagf != NULL)
		r->fr = filter_begin(sel->tagf, p, &r->fst);
	if (sel->parts != NULL && sel->nterms == 1) {
		for (r->mmask = 1024; r->mmask < 2 * sel->parts->n &&
		    r->mmask < MEMO_MAX; r->mmask *= 2)
			;
		r->memo = xcalloc(r->mmask, sizeof(*r->memo));
		r->mmask--;
	}
	if (other != NULL && other->tagf != NULL)
		r->ofr = filter_begin(other->tagf, p, &r->ofst);
	return r;
}

static int
has_key(const struct pf_sample *smp, const char *key)
{
	size_t i;

	for (i = 0; i < smp->nlabels; i++)
		if (strcmp(smp->labels[i].key, key) == 0)
			return 1;
	return 0;
}

int
selection_sample(struct selection_run *r, const struct pf_sample *smp)
{
	return selection_sample_w(r, smp, 0, NULL);
}

/*
 * A memo half full doubles (the label strings of a profile are more
 * than the selection's values when the selection is the few slow
 * spans), up to MEMO_MAX; 0, or -1 when it may not grow.
 */
static int
memo_grow(struct selection_run *r)
{
	struct memo	*old = r->memo;
	size_t		 i, n = r->mmask + 1;

	if (r->mused < n / 2)
		return 0;
	if (2 * n > MEMO_MAX)
		return -1;
	r->memo = xcalloc(2 * n, sizeof(*r->memo));
	r->mmask = 2 * n - 1;
	for (i = 0; i < n; i++)
		if (old[i].s != NULL)
			*memo_slot(r, old[i].s) = old[i];
	free(old);
	return 0;
}

/*
 * selects() for a selection of parts alone, through the memo: the
 * sample's label of the key, if a string, looked up once a string.
 */
static int
selects_memo(struct selection_run *r, const struct pf_sample *smp,
    size_t *at)
{
	const struct valset	*vs = r->sel->parts;
	struct memo		*m = NULL;
	size_t			 i, k;

	for (i = 0; i < smp->nlabels; i++) {
		const struct pf_label *l = &smp->labels[i];

		if (strcmp(l->key, vs->key) != 0)
			continue;
		if (l->str == NULL || (m = memo_slot(r, l->str))->s == NULL) {
			if (l->str == NULL || memo_grow(r) == -1)
				return selects(r->sel, r->fr, smp, at);
			m = memo_slot(r, l->str);
			m->s = l->str;
			r->mused++;
			/* The first label of the key, as valset_sample(). */
			m->at = selects(r->sel, r->fr, smp, &k) ? (long)k : -1;
		}
		if (m->at >= 0)
			*at = (size_t)m->at;
		return m->at >= 0;
	}
	return 0;
}

int
selection_sample_w(struct selection_run *r, const struct pf_sample *smp,
    int64_t w, size_t *part)
{
	const struct selection	*s = r->sel;
	size_t			 at = SIZE_MAX;
	int			 k;

	r->st->seen++;
	keyed(s, smp, r->st);
	k = r->memo != NULL ? selects_memo(r, smp, &at) :
	    selects(s, r->fr, smp, s->parts != NULL ? &at : NULL);
	r->st->kept += k;
	if (k && r->other != NULL && selects(r->other, r->ofr, smp, NULL))
		r->st->both++;
	if (k && at != SIZE_MAX) {
		at = s->parts->orig[at];
		if (part != NULL)
			*part = s->part[at];
		s->sum[at] += w;
	} else if (part != NULL)
		*part = 0;
	if (!k && s->parts != NULL) {
		if (has_key(smp, s->parts->key))
			r->st->other_w += w;
		else
			r->st->nokey_w += w;
	}
	return k;
}

void
selection_parts(struct selection *s, const char *key, char *const *values,
    const unsigned *part, size_t n, size_t nparts, const char *text)
{
	struct valset	*vs;
	char		**v;
	size_t		 i, j;

	selection_values(s, key, values, n, text);
	vs = s->terms[s->nterms - 1].set;
	/* selection_values() sorted copies; find each one's place. */
	v = xreallocarray(NULL, n ? n : 1, sizeof(*v));
	vs->orig = xreallocarray(NULL, n ? n : 1, sizeof(*vs->orig));
	for (i = 0; i < n; i++)
		v[i] = vs->v[i];
	for (i = 0; i < n; i++) {
		struct query q = { values[i], hexlike(values[i]) };
		char **hit = bsearch(&q, v, n, sizeof(*v), query_cmp);

		j = hit != NULL ? (size_t)(hit - v) : 0;
		vs->orig[j] = i;
	}
	free(v);
	s->parts = vs;
	s->part = xreallocarray(NULL, n ? n : 1, sizeof(*s->part));
	memcpy(s->part, part, n * sizeof(*part));
	s->sum = xcalloc(n ? n : 1, sizeof(*s->sum));
	s->nparts = nparts;
}

size_t
selection_nparts(const struct selection *s)
{
	return s != NULL && s->parts != NULL ? s->nparts : 0;
}

const int64_t *
selection_sums(const struct selection *s)
{
	return s != NULL ? s->sum : NULL;
}

void
selection_end(struct selection_run *r)
{
	if (r == NULL)
		return;
	filter_end(r->fr);
	filter_end(r->ofr);
	free(r->memo);
	free(r);
}

/*
 * Loading one side of a comparison, or both at once: each profile is
 * decoded, checked against the first (same format, sample type and
 * unit), folded into the side's aggregate, and freed before the next is
 * read; then the warnings about what was loaded.  It takes struct
 * load_opts, never the CLI's options.  Nothing here prints: an error is
 * a struct diag filled for the caller, and the warnings are a list of
 * the message table's (struct diags) that the caller prints and
 * reports.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "core/delta.h"
#include "support/diag.h"
#include "core/facts.h"
#include "load/feed.h"
#include "core/kind.h"
#include "load/load.h"
#include "model/profile.h"
#include "support/msg.h"
#include "stats/stats.h"
#include "support/units.h"
#include "core/views.h"
#include "support/xmalloc.h"

/*
 * How the new side of side_load_pair() learns the sample type the base
 * side chose: the base publishes it (or its failure) once its first
 * profile is decoded, and the new side waits for it only after decoding
 * its own first profile, so that the two decodes overlap.
 */
struct handoff {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 state;		/* 0 waiting, 1 published, -1 failed */
	const char	*type;		/* owned by the base side */
};

static void
handoff_post(struct handoff *h, int state, const char *type)
{
	if (h == NULL)
		return;
	pthread_mutex_lock(&h->mu);
	if (h->state == 0) {
		h->state = state;
		h->type = type;
		pthread_cond_broadcast(&h->cv);
	}
	pthread_mutex_unlock(&h->mu);
}

/* The base side's type, or -1 if the base failed. */
static int
handoff_wait(struct handoff *h, const char **type)
{
	int state;

	pthread_mutex_lock(&h->mu);
	while (h->state == 0)
		pthread_cond_wait(&h->cv, &h->mu);
	state = h->state;
	*type = h->type;
	pthread_mutex_unlock(&h->mu);
	return state == 1 ? 0 : -1;
}

/*
 * An error found in what the header says (a sample type, a format) is
 * reported only if the rest of the file decodes: otherwise the decoding
 * error, as when the whole file was decoded before anything was asked.
 */
static void
drain(struct feed *fd, struct diag *d)
{
	const struct pf_sample	*s;
	struct diag		 dd;
	int			 rc;

	diag_init(&dd, d->path);
	while ((rc = feed_next(fd, &s, &dd)) == 1)
		;
	if (rc == -1)
		*d = dd;
}

/*
 * Does the sample have a negative value of a type in use (used[],
 * n of them; *at: which)?  A profile's values count or measure what
 * happened, and only a difference of two profiles is negative: its
 * shares and tests would be meaningless.  Only the types read count: a
 * delta heap profile (net/http/pprof's ?seconds=) has in-use values
 * that fall where memory was freed, but its allocations only grow, and
 * are a window's.
 */
static int
negative(const struct pf_sample *smp, const int *used, size_t n, size_t *at)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (used[i] >= 0 && smp->values[used[i]] < 0) {
			*at = (size_t)used[i];
			return 1;
		}
	return 0;
}

/*
 * Of an in-use type (Go's inuse_space, inuse_objects), the alloc_ type
 * of the same unit, whose values a delta profile has only growing; -1
 * if there is none.
 */
static int
alloc_twin(const struct profile *p, size_t at)
{
	const struct pf_valuetype	*t = &p->sample_types[at];
	size_t				 i;

	if (strncmp(t->type, "inuse_", 6) != 0)
		return -1;
	for (i = 0; i < p->nsample_types; i++)
		if (strncmp(p->sample_types[i].type, "alloc_", 6) == 0 &&
		    strcmp(p->sample_types[i].type + 6, t->type + 6) == 0 &&
		    strcmp(p->sample_types[i].unit, t->unit) == 0)
			return (int)i;
	return -1;
}

/* Sample i has a negative value of type at: say what the profile is. */
static int
refuse_negative(const struct profile *p, size_t at, size_t i,
    struct diag *d)
{
	const char	*name = p->sample_types[at].type;
	int		 k;

	if ((k = alloc_twin(p, at)) >= 0)
		return diag_set(d, DIAG_USAGE, -1, "sample %zu has a negative "
		    "%s value: if it is a delta heap profile (net/http/pprof's "
		    "?seconds=), its allocations are a window's (-i %s); else "
		    "give two cumulative snapshots (--base)", i, name,
		    p->sample_types[k].type);
	return diag_set(d, DIAG_USAGE, -1, "sample %zu has a negative %s "
	    "value: it is a delta profile (net/http/pprof's ?seconds=) or "
	    "pprof -diff_base output; give profdiff the profiles it came from "
	    "(two cumulative snapshots: --base)", i,
	    name[0] != '\0' ? name : "sample");
}

/*
 * The sample with its values negated, in *copy and the buffer *nv (one
 * value per sample type, grown as needed): an earlier snapshot's
 * samples subtract from a later one (--base).
 */
static const struct pf_sample *
negated(const struct pf_sample *smp, size_t ntypes, struct pf_sample *copy,
    int64_t **nv)
{
	size_t i;

	if (*nv == NULL)
		*nv = xreallocarray(NULL, ntypes + 1, sizeof(**nv));
	for (i = 0; i < ntypes; i++)
		(*nv)[i] = -smp->values[i];
	*copy = *smp;
	copy->values = *nv;
	return copy;
}

/*
 * Where the counts of profile p's samples come from (src), the types a
 * sample's values must not be negative in (used), and the type whose
 * greatest common divisor the side keeps, or -1 (only contentions can
 * be divided, divide_counts(): not a CPU's).
 */
static int
fold_source(struct side *s, const struct profile *p, int vi,
    struct agg_src *src, int used[4])
{
	const char	*why, *uk;

	facts_count_source(p, vi, src, &why);
	if (why == NULL)
		s->has_counts = 0;
	/* Only value / period can be read again at an interval. */
	if (src->count_divisor <= 1 || src->count_index >= 0)
		s->quanta = 0;
	src->keep = NULL;
	used[0] = vi;
	used[1] = src->count_index;
	used[2] = src->unsample != AGG_UNSAMPLE_NONE ? src->un_count : -1;
	used[3] = src->unsample != AGG_UNSAMPLE_NONE ? src->un_bytes : -1;
	/*
	 * Durations of events summed per stack, as Go's mutex and block
	 * delay are: how long each wait was is not recorded, and waits are
	 * not alike.  The moments take them as exponential, the law of a
	 * positive duration of which only the mean is known; sizes of
	 * allocations at one stack are most often one size, and alike.
	 */
	uk = s->unit != NULL ? units_kind(s->unit) : NULL;
	if (s->kind == KIND_EVENTS && uk != NULL && strcmp(uk, "time") == 0)
		src->spread = 1;
	return src->count_index >= 0 && strcmp(p->sample_types[
	    src->count_index].type, "contentions") == 0 ? src->count_index : -1;
}

/* Go's header of a mutex or block profile: contentions, delay. */
static int
go_waits(const struct profile *p)
{
	return p->nsample_types == 2 &&
	    strcmp(p->sample_types[0].type, "contentions") == 0 &&
	    strcmp(p->sample_types[0].unit, "count") == 0 &&
	    strcmp(p->sample_types[1].type, "delay") == 0 &&
	    strcmp(p->sample_types[1].unit, "nanoseconds") == 0;
}

/* The leaf of a sample, its innermost inlined function's name. */
static const char *
leaf_name(const struct pf_sample *smp)
{
	const struct pf_location *l;

	if (smp->nlocs == 0 || (l = smp->locs[0]) == NULL || l->nlines == 0 ||
	    l->lines[0].function == NULL)
		return NULL;
	return l->lines[0].function->name;
}

/*
 * A selection of parts (selection_parts(): a side of many units, such
 * as spans, each part a replicate): a run of each part's aggregate over
 * profile p, or NULL without parts.  On error, NULL with *fail set and
 * the diag filled.
 */
static struct agg_run **
parts_begin(struct side *s, struct profile *p, const struct agg_src *src,
    int *fail, struct diag *d)
{
	struct agg_run	**pr;
	size_t		 i;

	if (s->nparts == 0 || *fail)
		return NULL;
	pr = xcalloc(s->nparts, sizeof(*pr));
	for (i = 0; i < s->nparts; i++)
		if ((pr[i] = agg_begin(s->parts[i], p, src, d)) == NULL) {
			*fail = 1;
			break;
		}
	return pr;
}

static void
parts_end(struct side *s, struct agg_run **pr)
{
	size_t i;

	for (i = 0; pr != NULL && i < s->nparts; i++)
		agg_end(pr[i]);
	free(pr);
}

/*
 * Where a CPU profile's CPU time is its samples times the period (no
 * cpu type: perf's cpu-clock), the samples kept apart as idle (value v,
 * agg_idle(): the kernel's idle loop in a whole-system profile) are
 * slices of a CPU that ran nothing, and its utilization leaves them
 * out.  Not where a cpu type measures each sample's CPU: Datadog's
 * (idle) samples hold the CPU the thread spent outside JavaScript.
 */
static void
idle_cpu(struct facts *f, const struct facts_run *r, int64_t v)
{
	if (v <= 0 || f->cpu_ns < v || r->cpu_vi >= 0)
		return;
	f->cpu_ns -= v;
	if (f->duration_ns > 0)
		f->cpu_util = (double)f->cpu_ns / (double)f->duration_ns;
}

/*
 * Fold the samples of one profile as they are read: into its facts,
 * through the filter, into the side's agg and, with each, into the
 * profile's own.  With a selection (--base-tag, --new-tag), the samples
 * it does not select are the side's no more than another profile's
 * would be, and only whole, the facts of the whole profile, has them.
 * The errors come in the order they would have if each step had gone
 * over every sample in turn: decoding, then the facts' sums, then the
 * aggs'.
 */
static int
fold_profile(struct side *s, struct feed *fd, struct profile *p, int vi,
    const struct load_opts *lo, struct agg *each, struct facts *f,
    struct facts *whole, int sign, struct diag *d)
{
	const struct pf_sample	*smp, *out;
	struct pf_sample	 negs;
	int64_t			*nv = NULL;
	struct facts_run	 fr, wr;
	struct filter_run	*flt;
	struct selection_run	*sr;
	struct agg_run		*ar = NULL, *er = NULL, **pr;
	struct agg_src		 src;
	struct diag		 ad, ed;
	int			 rc, k, afail = 0, efail = 0, used[4];
	size_t			 part;
	int			 relative = filter_relative(lo->filter);
	size_t			 neg, nread = 0;
	int			 gcd_of, waits = 0;
	int64_t			 idle0 = agg_idle(s->agg, AGG_VALUE);

	if (sign > 0) {
		if (!go_waits(p))
			s->wait_go = -1;
		else if (s->wait_go == 0)
			s->wait_go = 1;
		waits = s->wait_go == 1;
	}
	facts_begin(&fr, p, vi, f);
	if (whole != NULL)
		facts_begin(&wr, p, vi, whole);
	gcd_of = fold_source(s, p, vi, &src, used);
	/* After the facts, which describe the whole profile. */
	sr = selection_begin(lo->select, lo->select_other, p, &s->sel);
	flt = filter_begin(lo->filter, p, &s->fstats);
	diag_init(&ad, d->path);
	diag_init(&ed, d->path);
	if ((ar = agg_begin(s->agg, p, &src, &ad)) == NULL ||
	    (each != NULL && (er = agg_begin(each, p, &src, &ed)) == NULL))
		afail = 1;
	else if (s->lines != NULL)
		views_lines_begin(s->lines, p);
	pr = parts_begin(s, p, &src, &efail, &ed);
	while ((rc = feed_next(fd, &smp, d)) == 1) {
		if (negative(smp, used, 4, &neg)) {
			rc = refuse_negative(p, neg, nread, d);
			break;
		}
		nread++;
		if (waits && smp->values[0] > 0) {
			s->wait_weight[kind_wait_leaf(leaf_name(smp))] +=
			    (double)smp->values[0];
			s->wait_weight[3] += (double)smp->values[0];
		}
		if (gcd_of >= 0 || s->quanta)
			side_count_sample(s, smp, gcd_of, vi);
		if (whole != NULL)
			(void)facts_sample(&wr, smp);
		if (sr != NULL && !selection_sample_w(sr, smp, smp->values[vi],
		    &part))
			continue;
		(void)facts_sample(&fr, smp);
		if (afail)
			continue;
		k = filter_sample(flt, smp, &out);
		if (!k && relative)
			continue;
		if (sign < 0)
			out = negated(out, p->nsample_types, &negs, &nv);
		if ((s->lines != NULL ? agg_sample_hook(ar, out, k, &ad,
		    views_lines_sample, s->lines) : agg_sample(ar, out, k,
		    &ad)) == -1)
			afail = 1;
		else if (!efail && ((er != NULL && agg_sample(er, out, k,
		    &ed) == -1) || (pr != NULL && agg_sample(pr[part], out, k,
		    &ed) == -1)))
			efail = 1;
	}
	agg_end(ar);
	agg_end(er);
	parts_end(s, pr);
	if (s->lines != NULL)
		views_lines_end(s->lines);
	filter_end(flt);
	selection_end(sr);
	free(nv);
	if (rc == -1)
		return -1;
	if (facts_end(&fr) == -1 || (whole != NULL && facts_end(&wr) == -1))
		return diag_set(d, DIAG_LIMIT, -1, "the sum of %s values "
		    "overflows a 64-bit integer", s->sample_type);
	idle_cpu(f, &fr, sign > 0 && !afail ? agg_idle(s->agg, AGG_VALUE) -
	    idle0 : 0);
	if (f->subperiod > 0)
		s->has_counts = 0;
	if (afail || efail) {
		*d = afail ? ad : ed;
		return -1;
	}
	return 0;
}

/*
 * Without -i, the type read is the other side's, or the side's first
 * profile's: note the first profile (path) whose own default (its
 * default_sample_type, else its last type) is another, as a Go heap
 * profile's inuse_space is beside an allocs profile's alloc_space.
 */
static void
other_default(struct side *s, const struct profile *p, int vi,
    const struct load_opts *lo, const char *path, int from_other_side)
{
	struct diag	 dd;
	int		 dv;

	if (lo->sample_index != NULL || s->other_default != NULL)
		return;
	diag_init(&dd, path);
	if ((dv = profile_sample_index(p, NULL, &dd)) >= 0 && dv != vi) {
		s->other_path = path;
		s->other_default = xstrdup(p->sample_types[dv].type);
		s->other_from = from_other_side ? "the base" :
		    "the first profile";
	}
}

/*
 * Check profile i of a side against the first and choose its sample
 * type: want_type (the other side's), else the first profile's, else
 * -i.  The first profile's choice is published to post.  Returns the
 * sample type's index, or -1 with the diag filled.
 */
static int
check_profile(struct side *s, const struct profile *p, char *const *paths,
    size_t i, const char *minus, const char *want_type,
    const struct load_opts *lo, struct handoff *post, struct diag *d)
{
	const char	*want;
	int		 vi;

	if (i == 0)
		s->format = p->format;
	else if (p->format != s->format)
		return diag_set(d, DIAG_USAGE, -1, "%s cannot be merged with "
		    "%s (%s): one side is all pprof or all folded",
		    p->format == PF_FOLDED ? "folded stacks" :
		    "a pprof profile", s->format == PF_FOLDED ?
		    "folded stacks" : "a pprof profile", paths[0]);
	want = want_type != NULL ? want_type :
	    s->sample_type != NULL ? s->sample_type : lo->sample_index;
	if ((vi = profile_sample_index(p, want, d)) < 0)
		return -1;
	other_default(s, p, vi, lo, minus != NULL ? minus : paths[i],
	    want_type != NULL);
	if (s->sample_type == NULL) {
		s->sample_type = xstrdup(p->sample_types[vi].type);
		s->unit = xstrdup(p->sample_types[vi].unit);
		s->kind = kind_of(s->sample_type, s->unit, p->period_type.type,
		    &s->kind_why);
		s->waits = kind_waits(s->sample_type, p->period_type.type);
		if (lo->moments && (s->kind != KIND_SLICED || kind_valued(
		    s->sample_type, s->unit, p->period_type.type)))
		{
			agg_want_moments(s->agg);
			s->quanta = 0;	/* agg_counts_from_values() */
		}
		handoff_post(post, 1, s->sample_type);
	} else if (strcmp(s->unit, p->sample_types[vi].unit) != 0)
		return diag_set(d, DIAG_USAGE, -1, "sample type %s is in %s "
		    "here but in %s in %s", s->sample_type,
		    p->sample_types[vi].unit, s->unit, paths[0]);
	if (p->nsamples == 0)
		return diag_set(d, DIAG_EMPTY, -1,
		    "the profile has no samples");
	return vi;
}

/*
 * --base, first half: fold minus, the earlier snapshot of profile i
 * (of paths), into the side, and into each when the profile has an agg
 * of its own, with its values negated, its facts into *mf (with a
 * selection, the whole snapshot's into *mwhole, else NULL).  Only events
 * that accumulate over a process's life (allocations, contentions,
 * delay) make a window when subtracted: a CPU profile is a window
 * already, and a heap's in-use bytes or goroutines are a state, not a
 * sum.
 */
static int
minus_load(struct side *s, const char *minus, char *const *paths, size_t i,
    const struct load_opts *lo, const char *want_type, struct handoff *post,
    struct agg *each, struct facts *mf, struct facts *mwhole, struct diag *d)
{
	struct feed	*fd;
	struct profile	*p;
	char *const	 one[1] = { (char *)minus };
	int		 vi, rc = -1;

	diag_init(d, minus);
	memset(mf, 0, sizeof(*mf));
	fd = feed_new(one, 1, &lo->limits, 0);
	if ((p = feed_open(fd, d)) == NULL)
		goto out;
	symbol_profile(lo->sym_cache, p, &s->sym);
	if ((vi = check_profile(s, p, paths, i, minus, want_type, lo, post,
	    d)) < 0) {
		drain(fd, d);
		goto out;
	}
	if (s->kind != KIND_EVENTS) {
		diag_set(d, DIAG_USAGE, -1, "--base subtracts a cumulative "
		    "profile (allocations, contentions, delay), and %s %s",
		    s->sample_type, s->kind_why);
		drain(fd, d);
		goto out;
	}
	if ((rc = fold_profile(s, fd, p, vi, lo, each, mf, mwhole, -1,
	    d)) == 0)
		feed_close(fd);
out:
	feed_free(fd);
	return rc;
}

/* The facts of a window: the later snapshot's (f) less the earlier's. */
static void
window_facts(struct facts *f, const struct facts *mf)
{
	f->total -= mf->total;
	if (f->samples >= 0 && mf->samples >= 0)
		f->samples -= mf->samples;
	f->duration_ns = mf->time_ns != 0 && f->time_ns != 0 ?
	    f->time_ns - mf->time_ns : 0;
	f->time_ns = mf->time_ns;
}

/*
 * --base, second half: a profile less its earlier snapshot is the
 * window between them, from the base's time to the profile's (f, its
 * facts); every function must have as much in the later one (win, what
 * the two added to the side), or it is not a later snapshot of the same
 * process.
 */
static int
minus_window(const struct agg *win, struct facts *f, const char *path,
    const char *minus, const struct facts *mf, struct diag *d)
{
	size_t		 i;

	diag_init(d, path);
	if (mf->time_ns != 0 && f->time_ns != 0 && mf->time_ns >= f->time_ns)
		return diag_set(d, DIAG_USAGE, -1, "is not later than its "
		    "--base %s: subtract the earlier snapshot from the later",
		    minus);
	for (i = 0; i < agg_nnodes(win); i++) {
		const struct agg_node *x = agg_node(win, i);

		if (x->cum[AGG_VALUE] < 0 || x->cum[AGG_COUNT] < 0)
			return diag_set(d, DIAG_USAGE, -1, "is not a later "
			    "snapshot of the process of its --base %s: %s has "
			    "less in it", minus, x->name);
	}
	window_facts(f, mf);
	return 0;
}

/*
 * Fold profile i (sample type vi) of paths into the side and, with
 * keep_each, into an agg of its own, less its --base snapshot if it has
 * one, and add its facts to the merged ones.  Returns 0, or -1 with the
 * diag filled; s->each[i], if made, is the caller's to free on failure.
 */
static int
add_profile(struct side *s, struct feed *fd, struct profile *p, int vi,
    size_t i, char *const *paths, const struct load_opts *lo, int keep_each,
    const char *want_type, struct handoff *post, struct diag *d)
{
	const char	*minus = lo->minus != NULL ? lo->minus[i] : NULL;
	struct agg_mark	*mark = NULL;
	struct agg	*since = NULL;
	struct agg_opts	 eo;
	struct facts	 mf, mw, *whole = s->whole != NULL ? &s->whole[i] :
			    NULL;
	int		 rc;

	/*
	 * The tests between replicates ask each profile's agg only for
	 * node counts (delta.c) and the tree (flame.c): no edges.  Without
	 * a tree, the counts are what the profile added to the side's agg,
	 * so the profile is folded once.  A window (--base) is checked on
	 * what it added, the same way.
	 */
	if (keep_each && lo->agg.tree) {
		eo = lo->agg;
		eo.noedges = 1;
		s->each[i] = agg_new(&eo);
	} else if (keep_each || minus != NULL)
		mark = agg_mark(s->agg);
	if ((minus != NULL && minus_load(s, minus, paths, i, lo, want_type,
	    post, s->each != NULL ? s->each[i] : NULL, &mf, whole != NULL ?
	    &mw : NULL, d) == -1) ||
	    fold_profile(s, fd, p, vi, lo, s->each != NULL ? s->each[i] :
	    NULL, &s->facts[i], whole, 1, d) == -1) {
		agg_mark_free(mark);
		return -1;
	}
	if (mark != NULL) {
		since = agg_since(s->agg, mark);
		agg_mark_free(mark);
		if (keep_each)
			s->each[i] = since;
	}
	rc = minus == NULL ? 0 : minus_window(since != NULL ? since :
	    s->each[i], &s->facts[i], paths[i], minus, &mf, d);
	if (!keep_each)
		agg_free(since);
	if (rc == -1)
		return -1;
	if (whole != NULL && minus != NULL)
		window_facts(whole, &mw);
	s->facts[i].path = paths[i];
	if (whole != NULL)
		whole->path = paths[i];
	if (i == 0)
		s->merged = s->facts[0];
	else if (facts_merge(&s->merged, &s->facts[i]) == -1)
		return diag_set(d, DIAG_LIMIT, -1, "the sum of %s values over "
		    "all profiles overflows a 64-bit integer", s->sample_type);
	s->nprofiles = i + 1;
	return 0;
}

/*
 * side_load_ex(), on a thread of its own or with a feed thread
 * (threaded): on error the diag is filled and -1 returned.  With post,
 * the sample type chosen is published to it; with wait, want_type is
 * taken from it after the first profile's header is decoded, and -2 is
 * returned with nothing in the diag if the other side failed first.
 */
static int
side_load_d(struct side *s, char *const *paths, size_t n,
    const struct load_opts *lo, const char *want_type, int keep_each,
    struct diag *d, struct handoff *post, struct handoff *wait, int threaded)
{
	struct feed	*fd;
	struct profile	*p;
	struct load_opts lc;
	struct sym_cache *own = NULL;
	size_t		 i;
	int		 vi;

	/* A cache of binaries of its own, unless lo shares one (series). */
	if (lo->sym_cache == NULL) {
		lc = *lo;
		lc.sym_cache = own = sym_cache_new(&lo->sym);
		lo = &lc;
	}
	memset(s, 0, sizeof(*s));
	s->agg = agg_new(&lo->agg);
	if (views_spec_lists(lo->views))
		s->lines = views_lines_new(lo->views, lo->agg.noinlines, n);
	s->facts = xcalloc(n, sizeof(*s->facts));
	if (lo->select != NULL)
		s->whole = xcalloc(n, sizeof(*s->whole));
	if (keep_each)
		s->each = xcalloc(n, sizeof(*s->each));
	if ((s->nparts = selection_nparts(lo->select)) > 0) {
		struct agg_opts po = lo->agg;

		po.noedges = 1;
		s->parts = xcalloc(s->nparts, sizeof(*s->parts));
		for (i = 0; i < s->nparts; i++)
			s->parts[i] = agg_new(&po);
	}
	s->has_counts = 1;
	s->quanta = 1;
	s->label_key = lo->agg.label_key;
	fd = feed_new(paths, n, &lo->limits, threaded);
	for (i = 0; i < n; i++) {
		diag_init(d, paths[i]);
		if ((p = feed_open(fd, d)) == NULL)
			goto fail;
		symbol_profile(lo->sym_cache, p, &s->sym);
		if (wait != NULL && i == 0 &&
		    handoff_wait(wait, &want_type) == -1) {
			feed_free(fd);
			sym_cache_free(own);
			return -2;
		}
		if ((vi = check_profile(s, p, paths, i, NULL, want_type, lo,
		    post, d)) < 0) {
			drain(fd, d);
			goto fail;
		}
		if (add_profile(s, fd, p, vi, i, paths, lo, keep_each,
		    want_type, post, d) == -1)
			goto fail;
		feed_close(fd);
	}
	feed_free(fd);
	sym_cache_free(own);	/* its files are read */
	if (!lo->keep_counts)
		side_divide_counts(&s, 1);
	s->merged.sample_type = s->sample_type;
	s->merged.unit = s->unit;
	for (i = 0; i < n; i++) {
		s->facts[i].sample_type = s->sample_type;
		s->facts[i].unit = s->unit;
		if (s->whole != NULL) {
			s->whole[i].sample_type = s->sample_type;
			s->whole[i].unit = s->unit;
		}
	}
	if (n == 1)
		s->merged.path = paths[0];
	handoff_post(post, 1, s->sample_type);	/* NULL if no profiles */
	return 0;

fail:
	/* each[i] is freed by side_free() only up to nprofiles. */
	if (keep_each && i < n) {
		agg_free(s->each[i]);
		s->each[i] = NULL;
	}
	feed_free(fd);
	sym_cache_free(own);
	handoff_post(post, -1, NULL);
	return -1;
}

int
side_load_ex(struct side *s, char *const *paths, size_t n,
    const struct load_opts *lo, const char *want_type, int keep_each,
    struct diag *d)
{
	return side_load_d(s, paths, n, lo, want_type, keep_each, d, NULL,
	    NULL, 1) == -1 ? -1 : 0;
}

/* The new side of side_load_pair(), on a thread of its own. */
struct newside {
	struct side		*s;
	char *const		*paths;
	size_t			 n;
	const struct load_opts	*lo;
	int			 keep_each;
	struct diag		 d;
	struct handoff		*h;
	int			 rc;
};

static void *
newside_run(void *arg)
{
	struct newside *ns = arg;

	ns->rc = side_load_d(ns->s, ns->paths, ns->n, ns->lo, NULL,
	    ns->keep_each, &ns->d, NULL, ns->h, 0);
	if (ns->rc == 0)
		agg_index_edges(ns->s->agg);
	return NULL;
}

/* What a side's leaves say it is (kind_wait_of()), and its share. */
static enum kind_wait
side_wait(const struct side *s, int *sure, double *share)
{
	enum kind_wait w;

	*sure = 0;
	*share = 0;
	if (s->wait_go != 1)
		return KIND_WAIT_UNKNOWN;
	w = kind_wait_of(s->wait_weight[KIND_WAIT_MUTEX],
	    s->wait_weight[KIND_WAIT_BLOCK], s->wait_weight[3], sure);
	if (w != KIND_WAIT_UNKNOWN)
		*share = 100 * s->wait_weight[w] / s->wait_weight[3];
	return w;
}

static const char *
wait_where(enum kind_wait w)
{
	return w == KIND_WAIT_MUTEX ? "Unlock" :
	    "chan, select, Cond, WaitGroup or Lock";
}

int
side_comparable(const struct side *first, const struct side *s,
    struct diag *d)
{
	enum kind_wait	 wf, ws;
	int		 sf, ss;
	double		 pf, ps;

	wf = side_wait(first, &sf, &pf);
	ws = side_wait(s, &ss, &ps);
	if (wf != KIND_WAIT_UNKNOWN && ws != KIND_WAIT_UNKNOWN && wf != ws &&
	    sf && ss) {
		diag_init(d, first->facts[0].path);
		return diag_set_msg(d, DIAG_PAIR, MSG_WAITS_DIFFER,
		    kind_wait_name(wf), pf, wait_where(wf), s->facts[0].path,
		    kind_wait_name(ws), ps, wait_where(ws));
	}
	if (strcmp(first->unit, s->unit) == 0)
		return 0;
	diag_init(d, s->facts[0].path);
	return diag_set_msg(d, DIAG_PAIR, MSG_UNITS_DIFFER, s->sample_type,
	    s->unit, first->unit, first->facts[0].path);
}

/*
 * side_load_pair()'s loading, the new side on a thread of its own (nlo
 * its options); -2, with nothing loaded, if the thread cannot be had.
 */
static int
load_threads(struct side *b, char *const *bpaths, size_t nb, struct side *n,
    char *const *npaths, size_t nn, const struct load_opts *lo,
    const struct load_opts *nlo, int keep_each, struct diag *d)
{
	struct handoff	 h;
	struct newside	 ns;
	pthread_t	 t;
	int		 rc;

	memset(&h, 0, sizeof(h));
	memset(&ns, 0, sizeof(ns));
	if (pthread_mutex_init(&h.mu, NULL) != 0 ||
	    pthread_cond_init(&h.cv, NULL) != 0)
		return -2;
	ns.s = n;
	ns.paths = npaths;
	ns.n = nn;
	ns.lo = nlo;
	ns.keep_each = keep_each;
	ns.h = &h;
	if (pthread_create(&t, NULL, newside_run, &ns) != 0) {
		pthread_cond_destroy(&h.cv);
		pthread_mutex_destroy(&h.mu);
		return -2;
	}
	/*
	 * Each side has a core: no thread of its own to decode ahead.  A
	 * diff reads the edges by node: each side indexes its own while
	 * it has the core (agg_index_edges()).
	 */
	rc = side_load_d(b, bpaths, nb, lo, NULL, keep_each, d, &h, NULL, 0);
	if (rc == 0)
		agg_index_edges(b->agg);
	pthread_join(t, NULL);
	pthread_cond_destroy(&h.cv);
	pthread_mutex_destroy(&h.mu);
	/*
	 * Each side filled its own diag.  Report what the serial order
	 * would have: the base side's error first.
	 */
	if (rc == -1)
		return -1;
	if (ns.rc == -1) {
		*d = ns.d;
		return -1;
	}
	return 0;
}

int
side_load_pair(struct side *b, char *const *bpaths, size_t nb,
    struct side *n, char *const *npaths, size_t nn,
    const struct load_opts *lo, int keep_each, struct diag *d)
{
	struct load_opts blo, nlo;
	struct side	*both[2] = { b, n };
	int		 rc;

	/*
	 * The per-profile aggs serve only tests between replicates, which
	 * need two profiles or more on each side: otherwise they would be
	 * copies of the merged ones, and cost as much memory.
	 */
	if (nb < 2 || nn < 2)
		keep_each = 0;
	/* Divided alike once both are loaded (side_divide_counts()). */
	blo = *lo;
	blo.keep_counts = 1;
	nlo = blo;
	nlo.minus = lo->minus_new;
	nlo.select = lo->select_new;
	nlo.select_other = NULL;
	memset(n, 0, sizeof(*n));
	rc = load_threads(b, bpaths, nb, n, npaths, nn, &blo, &nlo, keep_each,
	    d);
	if (rc == -2) {
		/* No thread: one side after the other. */
		if (side_load_ex(b, bpaths, nb, &blo, NULL, keep_each, d) ==
		    -1 || side_load_ex(n, npaths, nn, &nlo, b->sample_type,
		    keep_each, d) == -1)
			return -1;
	} else if (rc == -1)
		return -1;
	side_divide_counts(both, 2);
	return side_comparable(b, n, d);
}

int
side_load(struct side *s, char *const *paths, size_t n,
    const struct load_opts *lo, struct diag *d)
{
	return side_load_ex(s, paths, n, lo, NULL, 0, d);
}

/* With --by-label, does a node of the kept samples carry the key? */
static int
label_seen(const struct side *s)
{
	size_t	 i, n = agg_nnodes(s->agg), klen = strlen(s->label_key);

	for (i = 0; i < n; i++) {
		const char *name = agg_node(s->agg, i)->name;

		if (strncmp(name, s->label_key, klen) == 0 &&
		    name[klen] == '=')
			return 1;
	}
	return 0;
}

unsigned
side_unmatched(const struct side *s)
{
	const struct filter_stats	*fs = &s->fstats;
	unsigned			 m = 0;

	if (fs->focus != NULL && fs->focus_hits == 0)
		m |= SIDE_NO_FOCUS;
	if (fs->ignore != NULL && fs->ignore_hits == 0)
		m |= SIDE_NO_IGNORE;
	if (fs->hide != NULL && fs->hide_hits == 0)
		m |= SIDE_NO_HIDE;
	if (fs->show != NULL && fs->show_hits == 0)
		m |= SIDE_NO_SHOW;
	if (fs->ntags > 0 && fs->tag_hits == 0)
		m |= SIDE_NO_TAG;
	if (fs->ntag_ignores > 0 && fs->tag_ignore_hits == 0)
		m |= SIDE_NO_TAG_IGNORE;
	if (s->label_key != NULL && s->agg != NULL && !label_seen(s))
		m |= SIDE_NO_LABEL;
	return m;
}

/* The option of the lowest bit of m, or NULL for --by-label's key. */
static const char *
unmatched_option(unsigned m)
{
	return m & SIDE_NO_FOCUS ? "--focus" : m & SIDE_NO_IGNORE ?
	    "--ignore" : m & SIDE_NO_HIDE ? "--hide" : m & SIDE_NO_SHOW ?
	    "--show" : m & SIDE_NO_TAG ? "--tag" : m & SIDE_NO_TAG_IGNORE ?
	    "--tag-ignore" : NULL;
}

static const char *
unmatched_why(unsigned m)
{
	return m & SIDE_NO_TAG ? " (every --tag must match the same sample)" :
	    "";
}

void
side_unmatched_say(unsigned m, const char *key, char *buf, size_t len)
{
	const char *what = unmatched_option(m);

	if (what != NULL)
		msg_format(buf, len, MSG_NO_MATCH, what, unmatched_why(m));
	else
		msg_format(buf, len, MSG_NO_LABEL, key != NULL ? key : "");
}

/*
 * Add message code about the whole side: about its one profile, or its
 * "merged profiles".
 */
static void
warn_side(struct diags *ds, const struct side *s, const char *side,
    enum msg code, ...)
{
	va_list ap;

	va_start(ap, code);
	diags_vadd(ds, code, side, s->nprofiles == 1 ? s->merged.path : NULL,
	    s->nprofiles == 1 ? NULL : "merged profiles", ap);
	va_end(ap);
}

/*
 * Add message code about the profile of facts f, and the others that
 * also (" (and N more)", or "") counts.
 */
static void
warn_file(struct diags *ds, const char *side, const struct facts *f,
    const char *also, enum msg code, ...)
{
	va_list	 ap;
	char	*about = NULL;

	if (also[0] != '\0')
		xasprintf(&about, "%s%s", f->path, also);
	va_start(ap, code);
	diags_vadd(ds, code, side, f->path, about, ap);
	va_end(ap);
	free(about);
}

/*
 * The first profile of the side that has(), and " (and N more)" in also
 * for the others that have it too; NULL if none has.
 */
static const struct facts *
first_facts(const struct side *s, int (*has)(const struct facts *),
    char *also, size_t len)
{
	const struct facts	*f = NULL;
	size_t			 i, more = 0;

	also[0] = '\0';
	for (i = 0; i < s->nprofiles; i++) {
		if (!has(&s->facts[i]))
			continue;
		if (f == NULL)
			f = &s->facts[i];
		else
			more++;
	}
	if (more > 0)
		snprintf(also, len, " (and %zu more)", more);
	return f;
}

static int
has_note(const struct facts *f)
{
	return f->count_note[0] != '\0';
}

static int
untimed(const struct facts *f)
{
	return f->duration_ns <= 0;
}

static int
subperiod(const struct facts *f)
{
	return f->subperiod > 0;
}

/*
 * Values under one sampling period, where the counts would have been
 * value / period (facts.h): the first profile of the side, named.
 */
static void
subperiod_warn(const struct side *s, const char *side, struct diags *ds)
{
	const struct facts	*f;
	char			 also[64], per[64];

	if ((f = first_facts(s, subperiod, also, sizeof(also))) == NULL)
		return;
	units_format(per, sizeof(per), f->period, f->period_unit);
	warn_file(ds, side, f, also, MSG_SUBPERIOD, (long long)f->subperiod,
	    f->records, s->sample_type, per);
}

/*
 * No samples, or too few, in the side.  The widest 95% interval of a
 * share of n samples is at a share of one half: z(0.975) * sqrt(1/4n)
 * on either side.
 */
static void
samples_warn(const struct side *s, const char *side, int norm,
    struct diags *ds)
{
	const struct facts *m = &s->merged;

	if (m->empty && m->others[0] != '\0')
		/* Not too few samples: the wrong type (pprof's last). */
		warn_side(ds, s, side, MSG_TYPE_ZERO, s->sample_type,
		    m->others, strchr(m->others, ' ') != NULL ? "have" : "has");
	else if (m->samples == 0)
		/* A window less its --base, say, where nothing happened. */
		warn_side(ds, s, side, s->kind == KIND_SNAPSHOT ?
		    MSG_NO_SAMPLES_SNAPSHOT : MSG_NO_SAMPLES);
	else if (m->samples > 0 && m->samples < PD_FEW_SAMPLES &&
	    s->kind == KIND_SNAPSHOT)
		/* A snapshot is what there was: no longer one to take. */
		warn_side(ds, s, side, MSG_FEW_SAMPLES_SNAPSHOT,
		    (long long)m->samples, m->samples == 1 ? "" : "s");
	else if (m->samples > 0 && m->samples < PD_FEW_SAMPLES &&
	    norm != DELTA_NORM_TOTAL)
		/* Rates and values: a Poisson count's ±z/sqrt(n). */
		warn_side(ds, s, side, MSG_FEW_SAMPLES_VALUES,
		    (long long)m->samples, m->samples == 1 ? "" : "s",
		    norm == DELTA_NORM_DURATION ? "rates" :
		    norm == DELTA_NORM_REQUESTS ? "values per request" :
		    "values", 100 * stats_norm_quantile(0.975) /
		    sqrt((double)m->samples));
	else if (m->samples > 0 && m->samples < PD_FEW_SAMPLES)
		warn_side(ds, s, side, MSG_FEW_SAMPLES, (long long)m->samples,
		    m->samples == 1 ? "" : "s", 100 *
		    stats_norm_quantile(0.975) *
		    sqrt(0.25 / (double)m->samples));
}

int
side_idle(const struct side *s, int64_t *idle, int64_t *all)
{
	long	 i;

	*idle = *all = 0;
	if (s->agg == NULL)
		return -1;
	*all = agg_total(s->agg, AGG_COUNT);
	if (agg_nidle(s->agg) > 0) {
		*idle = agg_idle(s->agg, AGG_COUNT);
		*all += *idle;
	} else if ((i = agg_find(s->agg, "(idle)")) >= 0)
		*idle = agg_node(s->agg, (size_t)i)->flat[AGG_COUNT];
	return 0;
}

/*
 * The share of a side's samples whose innermost frame is idle, or -1
 * if it has none (its profiler may mark no idle time).
 */
static double
idle_share(const struct side *s)
{
	int64_t	 idle, all;

	if (side_idle(s, &idle, &all) == -1)
		return -1;
	/* None at all: a profiler that marks no idle time, say nothing. */
	return all > 0 && idle > 0 ? (double)idle / (double)all : -1;
}

double
side_cpu_util(const struct side *o, double *secs)
{
	const struct facts *f = &o->merged;

	if (o->nprofiles == 1)
		f = o->whole != NULL ? &o->whole[0] : &o->facts[0];
	if (secs != NULL)
		*secs = (double)f->duration_ns / 1e9;
	return f->is_cpu && !f->empty && f->duration_ns > 0 ? f->cpu_util :
	    -1;
}

/*
 * The utilization's clause of the messages: "was 4.6% of one core over
 * 10.06s", or, beside the other side's CPU profile, how it changed,
 * "fell from 58.5% of one core (base, 10.00s) to 4.6% (new, 10.06s)",
 * and whom the advice is about, into who: "the process", or "the new
 * window".
 */
static void
util_say(char *buf, size_t len, char *who, size_t wlen,
    const struct facts *f, const char *side, const struct side *other)
{
	double	 u = 100 * f->cpu_util, secs = (double)f->duration_ns / 1e9;
	double	 ou, osecs, bu, nu, bs, ns;

	if (other == NULL || side == NULL || (ou = side_cpu_util(other,
	    &osecs)) < 0) {
		snprintf(buf, len, "was %.1f%% of one core over %.2fs", u,
		    secs);
		snprintf(who, wlen, "the process");
		return;
	}
	ou *= 100;
	snprintf(who, wlen, "the %s window", side);
	bu = strcmp(side, "base") == 0 ? u : ou;
	nu = strcmp(side, "base") == 0 ? ou : u;
	bs = strcmp(side, "base") == 0 ? secs : osecs;
	ns = strcmp(side, "base") == 0 ? osecs : secs;
	/* As the two are printed, to one decimal. */
	if (llround(10 * bu) == llround(10 * nu))
		snprintf(buf, len, "stayed at %.1f%% of one core (base, "
		    "%.2fs; new, %.2fs)", nu, bs, ns);
	else
		snprintf(buf, len, "%s from %.1f%% of one core (base, %.2fs) "
		    "to %.1f%% (new, %.2fs)", nu < bu ? "fell" : "rose", bu,
		    bs, nu, ns);
}

/*
 * A CPU profile of a process off CPU much of the time: what would show
 * where.  Not a profile of wall-clock time (kind_wall()), which shows
 * it already; a profile read for its CPU time that has wall-clock time
 * too (@datadog/pprof's, whose last type is cpu) has it read instead,
 * unless its wall-clock samples were seldom idle: then the thread was
 * not waiting but kept from running (starved).  A CPU profile alone
 * cannot tell the two apart: under PD_WAITING_UTIL the process was
 * mostly waiting, most likely, and only a wall-clock or off-CPU profile
 * can say where; under PD_LOW_UTIL, not that low (a process capped by a
 * CPU quota, or on a loaded machine), it says so, with less urgency.
 * Beside another CPU profile (other), it says how the utilization
 * changed.  Without waiting, the last two are left unsaid.
 */
static void
idle_warn(const struct side *s, const struct facts *f, const char *side,
    const struct side *other, int waiting, struct diags *ds)
{
	double	 idle;
	char	 say[160], who[32];

	if (!f->is_cpu || f->cpu_util < 0 || f->cpu_util >= PD_LOW_UTIL ||
	    f->empty || kind_wall(s->sample_type, f->period_type))
		return;
	util_say(say, sizeof(say), who, sizeof(who), f, side, other);
	if (f->wall_type[0] != '\0' && (idle = idle_share(s)) >= 0 &&
	    idle < PD_STARVED_IDLE)
		warn_file(ds, side, f, "", MSG_STARVED, say, 100 * idle);
	else if (f->wall_type[0] != '\0')
		warn_file(ds, side, f, "", MSG_MOSTLY_WAITING_WALL, say, who,
		    f->wall_type);
	else if (!waiting)
		return;
	else if (f->cpu_util < PD_WAITING_UTIL)
		warn_file(ds, side, f, "", MSG_MOSTLY_WAITING, say, who);
	else
		warn_file(ds, side, f, "", MSG_LOW_UTIL, say, who);
}

/*
 * Stacks cut short (facts.c, roots.h): a warning when at least
 * PD_CUT_STACKS of the side's samples have one, of all its samples
 * (those no rule judges count as whole, so that a side mostly beyond
 * judging is not warned about on the few that are).
 */
static void
cut_warn(const struct side *s, const char *side, struct diags *ds)
{
	const struct facts	*f = &s->merged;
	int64_t			 all;

	all = f->samples > 0 ? f->samples : f->stacks_judged;
	if (f->stacks_cut > 0 && all > 0 &&
	    (double)f->stacks_cut >= PD_CUT_STACKS * (double)all)
		warn_side(ds, s, side, MSG_CUT_STACKS,
		    100.0 * (double)f->stacks_cut / (double)all,
		    (long long)f->stacks_cut, (long long)all);
}

/* Samples whose innermost frame is idle, which agg.c keeps apart. */
static void
idle_apart(const struct side *s, const char *side, struct diags *ds)
{
	int64_t	 idle, all;

	if (s->agg == NULL || agg_nidle(s->agg) == 0 ||
	    side_idle(s, &idle, &all) == -1)
		return;
	if (all > 0)
		warn_side(ds, s, side, MSG_IDLE, (long long)idle,
		    (long long)all, 100.0 * (double)idle / (double)all);
}

/*
 * side_warn() for the quantity compared, norm (enum delta_norm), beside
 * the other side (or NULL); waiting as side_warn_pair() takes it.
 */
static void
side_warn_of(const struct side *s, const char *side, int norm,
    const struct side *other, int waiting, struct diags *ds)
{
	const struct filter_stats	*fs = &s->fstats;
	unsigned			 no;
	size_t				 i;

	/* pprof's "Focus expression matched no samples", per side. */
	if ((no = side_unmatched(s)) != 0 && unmatched_option(no) != NULL)
		warn_side(ds, s, side, MSG_NO_MATCH, unmatched_option(no),
		    unmatched_why(no));
	else if (no != 0)
		warn_side(ds, s, side, MSG_NO_LABEL, s->label_key != NULL ?
		    s->label_key : "");
	else if (fs->samples > 0 && fs->kept == 0)
		warn_side(ds, s, side, MSG_FILTERED_ALL, "");
	if (s->other_default != NULL)
		diags_add(ds, MSG_OTHER_DEFAULT, side, s->other_path, NULL,
		    s->other_default, s->sample_type, s->other_from);
	subperiod_warn(s, side, ds);
	side_warn_symbols(&s->sym, side, s->nprofiles == 1 ?
	    s->merged.path : NULL, s->nprofiles == 1 ? NULL :
	    "merged profiles", ds);
	samples_warn(s, side, norm, ds);
	idle_apart(s, side, ds);
	cut_warn(s, side, ds);
	for (i = 0; i < s->nprofiles; i++) {
		const struct facts *f = &s->facts[i];

		if (f->duration_bogus)
			warn_file(ds, side, f, "", MSG_BAD_DURATION);
		/* A selection's CPU is not all the process did. */
		idle_warn(s, s->whole != NULL ? &s->whole[i] : f, side,
		    other, waiting, ds);
	}
}

void
side_warn(const struct side *s, const char *side, struct diags *ds)
{
	side_warn_of(s, side, DELTA_NORM_TOTAL, NULL, 1, ds);
}

/*
 * Say how the side's counts were found when they are not the samples
 * as written: recovered from scaled estimates, or estimates that could
 * not be undone (facts.c, count_note()).  One line a side, naming the
 * first profile it is true of, and how many more.  Between replicates
 * the spread of the runs is measured, and shows such counts up.
 */
static void
count_warn(const struct side *s, const char *side, struct diags *ds)
{
	const struct facts	*f;
	char			 also[64];

	if ((f = first_facts(s, has_note, also, sizeof(also))) == NULL)
		return;
	warn_file(ds, side, f, also, !f->counts_scaled ?
	    MSG_COUNTS_RECOVERED : s->nprofiles < 2 ? MSG_COUNTS_ESTIMATED :
	    MSG_COUNTS_ESTIMATED_RUNS, f->count_note);
}

/*
 * Events summed over windows of unknown length, the first profile of
 * the side that has none named: Go writes no duration in a mutex, block
 * or allocs profile, whose counts run from the start of the process, so
 * that two of them compare lifetimes.
 */
static void
untimed_warn(const struct side *s, const char *side, struct diags *ds)
{
	const struct facts	*f;
	char			 also[64];

	if ((f = first_facts(s, untimed, also, sizeof(also))) == NULL)
		return;
	warn_file(ds, side, f, also, MSG_NO_DURATION, s->sample_type);
}

/*
 * Sampling periods that differ by more than PD_PERIOD_SKEW of the
 * larger.  A profiler may write the mean interval it measured as the
 * period (@datadog/pprof: 10012345 and 10034567 ns for 10ms), which
 * differs from run to run by a fraction of a percent and means nothing;
 * a period set differently (100 Hz against 1000 Hz) does.
 */
static int
periods_differ(int64_t a, int64_t b)
{
	return a > 0 && b > 0 && fabs((double)a - (double)b) >
	    PD_PERIOD_SKEW * fmax((double)a, (double)b);
}

int
side_warn_wait(const struct side *b, const struct side *n, struct diags *ds)
{
	enum kind_wait	 wb, wn;
	int		 sb, sn;
	double		 pb, pn;

	wb = side_wait(b, &sb, &pb);
	wn = side_wait(n, &sn, &pn);
	if (wb == KIND_WAIT_UNKNOWN || wn == KIND_WAIT_UNKNOWN || wb == wn ||
	    (sb && sn))
		return 0;
	diags_add(ds, MSG_WAITS_UNSURE, NULL, b->facts[0].path, NULL,
	    kind_wait_name(wb), pb, wait_where(wb), n->facts[0].path,
	    kind_wait_name(wn), pn, wait_where(wn));
	return 1;
}

void
side_warn_pair(const struct side *b, const struct side *n, int norm,
    int waiting, struct diags *ds)
{
	const struct facts *fb = &b->merged, *fn = &n->merged;
	double db = (double)fb->duration_ns, dn = (double)fn->duration_ns;
	int skew = db > 0 && dn > 0 && fabs(db - dn) / fmax(db, dn) >
	    PD_DURATION_SKEW;

	side_warn_of(b, "base", norm, n, waiting, ds);
	side_warn_of(n, "new", norm, b, waiting, ds);
	/* Shares and rates allow for it; a sum over each window does not. */
	if (skew && norm == DELTA_NORM_NONE && b->kind != KIND_SNAPSHOT)
		diags_add(ds, MSG_WINDOWS_SUMS, NULL, NULL, NULL, db / 1e9,
		    dn / 1e9);
	else if (skew && norm == DELTA_NORM_TOTAL)
		diags_add(ds, MSG_WINDOWS_SHARES, NULL, NULL, NULL, db / 1e9,
		    dn / 1e9);
	if ((db <= 0 || dn <= 0) && norm == DELTA_NORM_NONE &&
	    b->kind == KIND_EVENTS && !(db <= 0 ? fb : fn)->empty)
		untimed_warn(db <= 0 ? b : n, db <= 0 ? "base" : "new", ds);
	if (periods_differ(fb->period, fn->period))
		diags_add(ds, MSG_PERIODS, NULL, NULL, NULL,
		    (long long)fb->period, (long long)fn->period,
		    fb->period_unit);
	if (b->has_counts && n->has_counts) {
		count_warn(b, "base", ds);
		count_warn(n, "new", ds);
	}
	if (!b->has_counts || !n->has_counts)
		diags_add(ds, MSG_NO_COUNTS, NULL, NULL, NULL,
		    fb->sample_type);
	(void)side_warn_wait(b, n, ds);
}

void
side_free(struct side *s)
{
	size_t i;

	agg_free(s->agg);
	views_lines_free(s->lines);
	sym_summary_release(&s->sym);
	if (s->each != NULL)
		for (i = 0; i < s->nprofiles; i++)
			agg_free(s->each[i]);
	free(s->each);
	for (i = 0; s->parts != NULL && i < s->nparts; i++)
		agg_free(s->parts[i]);
	free(s->parts);
	free(s->facts);
	free(s->whole);
	free(s->sample_type);
	free(s->unit);
	free(s->other_default);
	memset(s, 0, sizeof(*s));
}

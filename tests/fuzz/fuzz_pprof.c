/*
 * Fuzz target: bytes -> pprof_decode() -> facts and aggregation of every
 * sample type at every granularity, then the filters (which rewrite the
 * profile) and aggregation with the call tree and by label.  Whatever the input, the decoder must
 * either refuse it with a diagnostic or give a model that the core can
 * fold without crashing, overflowing or leaking.  Raw input is also
 * decoded by the reference decoder (no fast path), and the two results
 * must agree exactly: the same refusal, or the same model.  The input is
 * also written to a file, gzipped unless it is already, and loaded from
 * there read once and read twice (pprof.c read_twice()), which must agree
 * in the same way.  Built with
 * libFuzzer by
 * `make fuzz`; tests/fuzz/replay.c runs the same function on the files of
 * a corpus without libFuzzer, in `make check`.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "agg.h"
#include "diag.h"
#include "gunzip.h"
#include "facts.h"
#include "filter.h"
#include "folded.h"
#include "profdiff.h"
#include "profile.h"
#include "fuzzfold.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define SAME(a, b)	do { if ((a) != (b)) abort(); } while (0)
#define SAME_STR(a, b)	do {						\
	if (((a) == NULL) != ((b) == NULL) ||				\
	    ((a) != NULL && strcmp((a), (b)) != 0))			\
		abort();						\
} while (0)

/* Abort unless the two decoded profiles are the same model. */
static void
same_profile(const struct profile *a, const struct profile *b)
{
	size_t i, j;

	SAME(a->nsample_types, b->nsample_types);
	for (i = 0; i < a->nsample_types; i++) {
		SAME_STR(a->sample_types[i].type, b->sample_types[i].type);
		SAME_STR(a->sample_types[i].unit, b->sample_types[i].unit);
	}
	SAME_STR(a->period_type.type, b->period_type.type);
	SAME_STR(a->period_type.unit, b->period_type.unit);
	SAME(a->period, b->period);
	SAME(a->time_nanos, b->time_nanos);
	SAME(a->duration_nanos, b->duration_nanos);
	SAME_STR(a->default_sample_type, b->default_sample_type);
	SAME_STR(a->drop_frames, b->drop_frames);
	SAME_STR(a->keep_frames, b->keep_frames);
	SAME(a->ncomments, b->ncomments);
	for (i = 0; i < a->ncomments; i++)
		SAME_STR(a->comments[i], b->comments[i]);
	SAME(a->nmappings, b->nmappings);
	SAME(a->nfunctions, b->nfunctions);
	for (i = 0; i < a->nfunctions; i++) {
		SAME(a->functions[i].id, b->functions[i].id);
		SAME_STR(a->functions[i].name, b->functions[i].name);
		SAME_STR(a->functions[i].filename, b->functions[i].filename);
	}
	SAME(a->nlocations, b->nlocations);
	for (i = 0; i < a->nlocations; i++) {
		const struct pf_location *la = &a->locations[i];
		const struct pf_location *lb = &b->locations[i];

		SAME(la->id, lb->id);
		SAME(la->address, lb->address);
		SAME(la->nlines, lb->nlines);
		SAME(la->mapping == NULL, lb->mapping == NULL);
		for (j = 0; j < la->nlines; j++) {
			SAME(la->lines[j].line, lb->lines[j].line);
			SAME(la->lines[j].function == NULL,
			    lb->lines[j].function == NULL);
			if (la->lines[j].function != NULL)
				SAME(la->lines[j].function->id,
				    lb->lines[j].function->id);
		}
	}
	SAME(a->nsamples, b->nsamples);
	for (i = 0; i < a->nsamples; i++) {
		const struct pf_sample *sa = &a->samples[i];
		const struct pf_sample *sb = &b->samples[i];

		SAME(sa->nlocs, sb->nlocs);
		for (j = 0; j < sa->nlocs; j++)
			SAME(sa->locs[j]->id, sb->locs[j]->id);
		for (j = 0; j < a->nsample_types; j++)
			SAME(sa->values[j], sb->values[j]);
		SAME(sa->nlabels, sb->nlabels);
		for (j = 0; j < sa->nlabels; j++) {
			SAME_STR(sa->labels[j].key, sb->labels[j].key);
			SAME_STR(sa->labels[j].str, sb->labels[j].str);
			SAME(sa->labels[j].num, sb->labels[j].num);
			SAME_STR(sa->labels[j].num_unit,
			    sb->labels[j].num_unit);
		}
	}
}

/*
 * The fast path and the reference decoder must agree on raw input.  The
 * reference has no folded-stack path: text is fuzz_folded.c's business.
 */
static void
differential(const uint8_t *data, size_t len, const struct pd_limits *lim,
    const struct profile *p, const struct diag *d)
{
	struct diag	 rd;
	struct profile	*r;

	if (gunzip_is_gzip(data, len) || folded_sniff(data, len))
		return;
	diag_init(&rd, "fuzz");
	r = pprof_decode_reference(data, len, "fuzz", lim, &rd);
	SAME(p == NULL, r == NULL);
	if (p == NULL) {
		SAME(d->code, rd.code);
		SAME(strcmp(d->msg, rd.msg) == 0, 1);
	} else
		same_profile(p, r);
	profile_free(r);
}

/* The input as a gzipped file, whose path is static; NULL if it fails. */
static const char *
as_file(const uint8_t *data, size_t len)
{
	static char	 path[64];
	uint8_t		*gz = NULL;
	const uint8_t	*out = data;
	z_stream	 z;
	size_t		 n = len;
	int		 fd, ok;

	if (path[0] == '\0')
		snprintf(path, sizeof(path), "/tmp/fuzz-twice.%ld.pb.gz",
		    (long)getpid());
	if (!gunzip_is_gzip(data, len)) {
		memset(&z, 0, sizeof(z));
		if (deflateInit2(&z, 1, Z_DEFLATED, 31, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK)
			return NULL;
		n = deflateBound(&z, len) + 32;
		if ((gz = malloc(n)) == NULL)
			abort();
		z.next_in = (uint8_t *)(uintptr_t)data;
		z.avail_in = (uInt)len;
		z.next_out = gz;
		z.avail_out = (uInt)n;
		ok = deflate(&z, Z_FINISH) == Z_STREAM_END;
		n = z.total_out;
		deflateEnd(&z);
		if (!ok)
			abort();
		out = gz;
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1)
		ok = 0;
	else {
		ok = write(fd, out, n) == (ssize_t)n;
		ok = close(fd) == 0 && ok;
	}
	free(gz);
	return ok ? path : NULL;
}

/* Loaded from a file, read once and read twice: the same. */
static void
twice(const uint8_t *data, size_t len, const struct pd_limits *lim)
{
	struct pd_limits once = *lim, two = *lim;
	struct profile	*a, *b;
	struct diag	 da, db;
	const char	*path;

	if ((path = as_file(data, len)) == NULL)
		return;
	once.read_twice = UINT64_MAX;
	two.read_twice = 0;
	diag_init(&da, path);
	diag_init(&db, path);
	a = pprof_load(path, &once, &da);
	b = pprof_load(path, &two, &db);
	SAME(a == NULL, b == NULL);
	if (a == NULL) {
		SAME(da.code, db.code);
		SAME(strcmp(da.msg, db.msg) == 0, 1);
	} else
		same_profile(a, b);
	profile_free(a);
	profile_free(b);
	unlink(path);
}

/*
 * The filters rewrite a profile in place (hide, show, relative), so they
 * run last, twice: keeping the dropped samples in the totals, then not.
 * Each result is folded with the calling-context tree and by label.
 */
static void
filtered(struct profile *p)
{
	static char		*tags[] = { "bytes=1kb:", "thread_name=a,^b" };
	static char		*ignores[] = { "span_id=239" };
	struct filter_spec	 sp;
	struct filter_stats	 st;
	struct filter		*f;
	struct agg_opts		 o = { 0 };
	struct agg_src		 src;
	struct diag		 d;
	struct agg		*a;
	unsigned char		*keep;
	const char		*why;
	int			 rel, by;

	if (p->nsample_types == 0)
		return;
	memset(&sp, 0, sizeof(sp));
	sp.focus = "[aeiou]";
	sp.ignore = "^z";
	sp.hide = "[0-9]$";
	sp.show = "[a-y]";
	sp.tags = tags;
	sp.ntags = 1;
	sp.tag_ignores = ignores;
	sp.ntag_ignores = 1;
	memset(&st, 0, sizeof(st));
	for (rel = 0; rel <= 1; rel++) {
		sp.relative = rel;
		sp.ntags = (size_t)rel + 1;
		diag_init(&d, "fuzz");
		if (filter_new(&sp, &f, &d) == -1)
			abort();
		filter_apply(f, p, &keep, &st);
		if (st.kept > st.samples)
			abort();
		facts_count_source(p, 0, &src, &why);
		src.keep = keep;
		for (by = 0; by <= 1; by++) {
			o.tree = !by;
			o.label_key = by ? "thread_name" : NULL;
			a = agg_new(&o);
			(void)agg_add(a, p, &src, &d);
			agg_free(a);
		}
		free(keep);
		filter_free(f);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_limits	 lim;
	struct diag		 d;
	struct profile		*p;
	size_t			 vi;

	pd_limits_default(&lim);
	lim.max_inflated = 64u << 20;	/* keep the fuzzer's memory small */
	diag_init(&d, "fuzz");
	p = pprof_decode(data, len, "fuzz", &lim, &d);
	differential(data, len, &lim, p, &d);
	twice(data, len, &lim);
	if (p == NULL)
		return 0;
	for (vi = 0; vi < p->nsample_types; vi++)
		fold_every_granularity(p, (int)vi);
	filtered(p);
	profile_free(p);
	return 0;
}

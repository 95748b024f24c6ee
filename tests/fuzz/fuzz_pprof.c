/*
 * Fuzz target: bytes -> pprof_decode() -> facts and aggregation of every
 * sample type at every granularity, then the filters (which rewrite the
 * profile) and aggregation with the call tree and by label.  Whatever the input, the decoder must
 * either refuse it with a diagnostic or give a model that the core can
 * fold without crashing, overflowing or leaking.  Raw input is also
 * decoded by the reference decoder (no fast path), and the two results
 * must agree exactly: the same refusal, or the same model.  Built with
 * libFuzzer by
 * `make fuzz`; tests/fuzz/replay.c runs the same function on the files of
 * a corpus without libFuzzer, in `make check`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "support/diag.h"
#include "input/gunzip.h"
#include "core/facts.h"
#include "core/filter.h"
#include "input/folded.h"
#include "profdiff.h"
#include "input/input.h"
#include "model/profile.h"
#include "fuzzfold.h"
#include "fuzzsame.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

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
	if (p == NULL)
		return 0;
	for (vi = 0; vi < p->nsample_types; vi++)
		fold_every_granularity(p, (int)vi);
	filtered(p);
	profile_free(p);
	return 0;
}

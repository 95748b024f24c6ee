/*
 * Fuzz target: bytes -> legacy_decode() -> facts and aggregation of
 * every sample type at every granularity.  The legacy formats (the text
 * heap, growth, contention, threadz and goroutine dumps, and the
 * gperftools binary CPU profile) are read by hand-written parsers that
 * fuzz_pprof.c reaches only through the sniffer; here every input goes
 * to them.  Whatever the bytes, legacy_decode() must refuse them with
 * one line of a legacy code, or give a model whose samples hold one
 * value a sample type and locations of its own table.  When the sniffer
 * calls the bytes legacy, pprof_decode() must give the same answer: the
 * same refusal or the same model.  Built with libFuzzer by `make fuzz`;
 * tests/fuzz/replay.c runs it on the seeds in `make check`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"
#include "input/gunzip.h"
#include "input/input.h"
#include "input/legacy.h"
#include "profdiff.h"
#include "model/profile.h"
#include "fuzzfold.h"
#include "fuzzsame.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A refusal: one line, a code the legacy parsers use. */
static void
check_refusal(const struct diag *d)
{
	if (d->code != DIAG_LEGACY && d->code != DIAG_CORRUPT &&
	    d->code != DIAG_LIMIT)
		abort();
	if (d->msg[0] == '\0' || strchr(d->msg, '\n') != NULL)
		abort();
}

/* The model's invariants, which agg relies on. */
static void
check_model(const struct profile *p)
{
	const struct pf_sample *s;
	size_t i, j;

	if (p->nsample_types == 0)
		abort();
	for (i = 0; i < p->nsamples; i++) {
		s = &p->samples[i];
		if (s->values == NULL)
			abort();
		for (j = 0; j < s->nlocs; j++)
			if (s->locs[j] < p->locations ||
			    s->locs[j] >= p->locations + p->nlocations)
				abort();
	}
	for (i = 0; i < p->nlocations; i++)
		if (p->locations[i].mapping != NULL &&
		    (p->locations[i].mapping < p->mappings ||
		    p->locations[i].mapping >= p->mappings + p->nmappings))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_limits	 lim;
	struct diag		 d, pd;
	struct profile		*p, *pp;
	enum input_kind		 k;
	size_t			 vi;

	pd_limits_default(&lim);
	lim.max_inflated = 64u << 20;	/* keep the fuzzer's memory small */
	lim.max_depth = 4096;
	lim.max_functions = 1u << 16;
	diag_init(&d, "fuzz");
	p = legacy_decode(data, len, "fuzz", &lim, &d);
	if (p == NULL)
		check_refusal(&d);
	else
		check_model(p);

	/* The sniffer's legacy inputs take the same path through pprof. */
	k = gunzip_is_gzip(data, len) ? INPUT_PROTOBUF :
	    input_sniff(data, len);
	if (k == INPUT_LEGACY_TEXT || k == INPUT_LEGACY_CPU) {
		diag_init(&pd, "fuzz");
		pp = pprof_decode(data, len, "fuzz", &lim, &pd);
		SAME(pp == NULL, p == NULL);
		if (pp == NULL) {
			SAME(pd.code, d.code);
			SAME(strcmp(pd.msg, d.msg) == 0, 1);
		} else
			same_profile(p, pp);
		profile_free(pp);
	}
	if (p == NULL)
		return 0;
	for (vi = 0; vi < p->nsample_types; vi++)
		fold_every_granularity(p, (int)vi);
	profile_free(p);
	return 0;
}

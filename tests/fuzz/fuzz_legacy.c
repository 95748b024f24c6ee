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
#include "fuzzdecode.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A refusal: one line, a code the legacy parsers use. */
static void
check_refusal(const struct diag *d)
{
	if (d->code != DIAG_LEGACY && d->code != DIAG_CORRUPT &&
	    d->code != DIAG_LIMIT)
		abort();
	fuzz_one_line(d, NULL);
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
	struct diag		 d;
	struct profile		*p;
	enum input_kind		 k;

	fuzz_limits(&lim);
	diag_init(&d, "fuzz");
	p = legacy_decode(data, len, "fuzz", &lim, &d);
	if (p == NULL)
		check_refusal(&d);
	else
		check_model(p);

	/* The sniffer's legacy inputs take the same path through pprof. */
	k = gunzip_is_gzip(data, len) ? INPUT_PROTOBUF :
	    input_sniff(data, len);
	if (k == INPUT_LEGACY_TEXT || k == INPUT_LEGACY_CPU)
		fuzz_same_as_pprof(data, len, &lim, p, &d, 1);
	fuzz_fold_free(p);
	return 0;
}

/*
 * Fuzz target: bytes -> perfscript_decode() -> facts and aggregation
 * of every sample type at every granularity, as fuzz_folded.c does for
 * folded stacks.  Whatever the text, the decoder must either refuse it
 * with a one-line diagnostic that names a line, a limit or the absence
 * of samples, or give a model that the core can fold without crashing,
 * overflowing or leaking.  perfscript_sniff() runs on every input too,
 * and on text input_sniff() gives to perf script, pprof_decode() must
 * take that path and agree.  Built with libFuzzer by `make fuzz`;
 * tests/fuzz/replay.c runs it on the seeds in `make check`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "support/diag.h"
#include "core/facts.h"
#include "input/gunzip.h"
#include "input/input.h"
#include "input/perfscript.h"
#include "profdiff.h"
#include "model/profile.h"
#include "fuzzdecode.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_refusal(const struct diag *d)
{
	if (d->code != DIAG_PERFSCRIPT && d->code != DIAG_LIMIT)
		abort();
	fuzz_one_line(d, "no samples");
}

/*
 * The model's invariants: a count and a value per event, each sample
 * one of one event, its stack and its mapping and function pointers in
 * the profile's arrays, every name non-empty.
 */
static void
check_model(const struct profile *p)
{
	const struct pf_location *l;
	size_t	 i, j, k, nev;

	SAME(p->format, PF_PPROF);
	if (p->nsamples == 0 || p->nsample_types == 0 ||
	    p->nsample_types % 2 != 0 ||
	    p->nsample_types > PD_MAX_SAMPLE_TYPES)
		abort();
	for (i = 0; i < p->nsamples; i++) {
		for (j = 0, nev = 0; j < p->nsample_types; j += 2) {
			if (p->samples[i].values[j] == 0) {
				SAME(p->samples[i].values[j + 1], 0);
				continue;
			}
			SAME(p->samples[i].values[j], 1);
			if (p->samples[i].values[j + 1] < 0)
				abort();
			nev++;
		}
		SAME(nev, 1);
		if (p->samples[i].nlabels > 3)
			abort();
		for (j = 0; j < p->samples[i].nlocs; j++) {
			l = p->samples[i].locs[j];
			if (l < p->locations || l >= p->locations + p->nlocations)
				abort();
			if (l->mapping != NULL && (l->mapping < p->mappings ||
			    l->mapping >= p->mappings + p->nmappings ||
			    l->mapping->filename[0] == '\0'))
				abort();
			for (k = 0; k < l->nlines; k++)
				if (l->lines[k].function < p->functions ||
				    l->lines[k].function >= p->functions +
				    p->nfunctions ||
				    l->lines[k].function->name[0] == '\0')
					abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_limits	 lim;
	struct diag		 d;
	struct profile		*p;

	fuzz_limits(&lim);
	diag_init(&d, "fuzz");
	p = perfscript_decode(data, len, "fuzz", &lim, &d);
	if (p == NULL)
		check_refusal(&d);
	else
		check_model(p);

	/* Through the pprof entry point, sniffed text takes the same path. */
	if (!gunzip_is_gzip(data, len) && perfscript_sniff(data, len) &&
	    input_sniff(data, len) == INPUT_PERFSCRIPT)
		fuzz_same_as_pprof(data, len, &lim, p, &d, 0);
	fuzz_fold_free(p);
	return 0;
}

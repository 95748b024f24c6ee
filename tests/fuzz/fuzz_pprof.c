/*
 * Fuzz target: bytes -> pprof_decode() -> facts and aggregation of every
 * sample type at every granularity.  Whatever the input, the decoder must
 * either refuse it with a diagnostic or give a model that the core can
 * fold without crashing, overflowing or leaking.  Built with libFuzzer by
 * `make fuzz`; tests/fuzz/replay.c runs the same function on the files of
 * a corpus without libFuzzer, in `make check`.
 */
#include <stddef.h>
#include <stdint.h>

#include "agg.h"
#include "diag.h"
#include "facts.h"
#include "profdiff.h"
#include "profile.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_limits	 lim;
	struct diag		 d;
	struct profile		*p;
	struct agg_opts		 o = { 0 };
	struct agg_src		 src;
	struct facts		 f;
	struct agg		*a;
	const char		*why;
	size_t			 vi;
	int			 g;

	pd_limits_default(&lim);
	lim.max_inflated = 64u << 20;	/* keep the fuzzer's memory small */
	diag_init(&d, "fuzz");
	if ((p = pprof_decode(data, len, "fuzz", &lim, &d)) == NULL)
		return 0;
	for (vi = 0; vi < p->nsample_types; vi++) {
		facts_compute(p, (int)vi, &f);
		facts_count_source(p, (int)vi, &src, &why);
		for (g = AGG_FUNCTIONS; g <= AGG_ADDRESSES; g++) {
			o.gran = (enum agg_gran)g;
			o.noinlines = g == AGG_LINES;
			a = agg_new(&o);
			diag_init(&d, "fuzz");
			if (agg_add(a, p, &src, &d) == 0) {
				size_t i;

				for (i = 0; i < agg_nnodes(a); i++)
					(void)agg_node(a, i)->name[0];
			}
			agg_free(a);
		}
	}
	profile_free(p);
	return 0;
}

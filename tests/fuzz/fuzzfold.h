/*
 * What the fuzz targets that decode a profile do with it: facts and
 * aggregation of one sample type at every granularity, reading every
 * node's name, so that a bad model shows as a crash or a sanitizer
 * report.  Included by fuzz_pprof.c and fuzzdecode.h.
 */
#ifndef FUZZFOLD_H
#define FUZZFOLD_H

#include <string.h>

#include "core/agg.h"
#include "support/diag.h"
#include "core/facts.h"
#include "model/profile.h"

static void
fold_every_granularity(const struct profile *p, int vi)
{
	struct agg_opts	 o;
	struct agg_src	 src;
	struct facts	 f;
	struct diag	 d;
	struct agg	*a;
	const char	*why;
	size_t		 i;
	int		 g;

	facts_compute(p, vi, &f);
	memset(&src, 0, sizeof(src));
	facts_count_source(p, vi, &src, &why);
	memset(&o, 0, sizeof(o));
	for (g = AGG_FUNCTIONS; g <= AGG_ADDRESSES; g++) {
		o.gran = (enum agg_gran)g;
		o.noinlines = g == AGG_LINES;
		a = agg_new(&o);
		diag_init(&d, "fuzz");
		if (agg_add(a, p, &src, &d) == 0)
			for (i = 0; i < agg_nnodes(a); i++)
				(void)agg_node(a, i)->name[0];
		agg_free(a);
	}
}

#endif

/*
 * What the tests of delta.c and flame.c share: a profile aggregated on
 * its cpu sample type with the counts facts.c finds, and the option
 * defaults of profdiff diff.  Include after tap.h and tprofile.h.
 */
#ifndef TDELTA_H
#define TDELTA_H

#include <string.h>

#include "agg.h"
#include "delta.h"
#include "diag.h"
#include "facts.h"

/* Aggregate sample type 1 (cpu), with the call tree when tree is set. */
static inline struct agg *
t_aggregate(const struct profile *p, int tree)
{
	struct agg_opts	 o;
	struct agg_src	 src;
	struct agg	*a;
	struct diag	 d;
	const char	*why;

	memset(&o, 0, sizeof(o));
	o.tree = tree;
	a = agg_new(&o);
	facts_count_source(p, 1, &src, &why);
	diag_init(&d, "t");
	CHECK(agg_add(a, p, &src, &d) == 0);
	return a;
}

/* The defaults of profdiff diff. */
static inline void
t_delta_opts(struct delta_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->min_effect_pp = 1;
	o->min_effect_rel = 10;
	o->has_counts = 1;
	o->max_callers = 3;
}

#endif

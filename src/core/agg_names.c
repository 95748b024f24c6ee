/*
 * What an aggregate is read as, apart from its folding (agg.c): the
 * names of the granularities, as the options and reports spell them,
 * and the share of a profile that the filters kept.  No I/O.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/agg.h"

static const char *const gran_names[] = {
	[AGG_FUNCTIONS] = "functions",
	[AGG_FILEFUNCTIONS] = "filefunctions",
	[AGG_FILES] = "files",
	[AGG_LINES] = "lines",
	[AGG_ADDRESSES] = "addresses",
};

int
agg_gran_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(gran_names) / sizeof(gran_names[0]); i++)
		if (strcmp(s, gran_names[i]) == 0)
			return (int)i;
	return -1;
}

const char *
agg_gran_name(enum agg_gran g)
{
	if ((size_t)g >= sizeof(gran_names) / sizeof(gran_names[0]))
		return NULL;
	return gran_names[g];
}

/*
 * The share of a profile's value that the filters kept: the magnitudes
 * of the flat values folded into nodes over the magnitude of the whole
 * profile's total (the facts are computed before filtering).
 */
double
agg_kept_share(const struct agg *a, int64_t whole)
{
	double	 kept = 0;
	size_t	 i;

	if (whole == 0)
		return 0;
	for (i = 0; i < agg_nnodes(a); i++) {
		int64_t f = agg_node(a, i)->flat[AGG_VALUE];

		kept += (double)(f < 0 ? -f : f);
	}
	return kept / (whole < 0 ? -(double)whole : (double)whole);
}

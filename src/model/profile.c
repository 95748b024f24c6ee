/*
 * The profile model's own functions: a new empty profile and its
 * arena, freeing one, the default input limits, and choosing a sample
 * type by name or index.  Every decoder builds on these, and none of
 * them is here: no reading, no wire format, no folded text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "profdiff.h"
#include "model/profile.h"

void
pd_limits_default(struct pd_limits *l)
{
	l->max_input = PD_MAX_INPUT;
	l->max_inflated = PD_MAX_INFLATED;
	l->max_ratio = PD_MAX_RATIO;
	l->max_strings = PD_MAX_STRINGS;
	l->max_locations = PD_MAX_LOCATIONS;
	l->max_functions = PD_MAX_FUNCTIONS;
	l->max_depth = PD_MAX_DEPTH;
	l->read_twice = PD_READ_TWICE;
	l->perf_seconds = PD_PERF_SECONDS;
	l->fetch = NULL;
}

struct profile *
profile_new(void)
{
	struct profile	*p;
	struct arena	*a;

	a = arena_new();
	p = arena_calloc(a, 1, sizeof(*p));
	p->arena = a;
	p->path = "";
	p->default_sample_type = "";
	p->period_type.type = "";
	p->period_type.unit = "";
	p->drop_frames = "";
	p->keep_frames = "";
	return p;
}

void
profile_free(struct profile *p)
{
	if (p != NULL)
		arena_free(p->arena);
}

/*
 * A delta of Go's heap or allocs profile, as net/http/pprof serves
 * /debug/pprof/heap?seconds=N and allocs?seconds=N: Go's four heap
 * types, a duration (a snapshot of runtime/pprof has none) and no
 * default type (the delta drops allocs' alloc_space).  Its in-use
 * values are the change of the heap, negative where more was freed;
 * its allocations are the window's.
 */
static int
go_delta_heap(const struct profile *p)
{
	static const char *const types[4][2] = {
		{ "alloc_objects", "count" }, { "alloc_space", "bytes" },
		{ "inuse_objects", "count" }, { "inuse_space", "bytes" } };
	size_t	 i;

	if (p->nsample_types != 4 || p->duration_nanos <= 0 ||
	    p->default_sample_type[0] != '\0')
		return 0;
	for (i = 0; i < 4; i++)
		if (strcmp(p->sample_types[i].type, types[i][0]) != 0 ||
		    strcmp(p->sample_types[i].unit, types[i][1]) != 0)
			return 0;
	return 1;
}

int
profile_sample_index(const struct profile *p, const char *name,
    struct diag *d)
{
	const char	*errstr;
	long long	 n;
	size_t		 i;

	if (p->nsample_types == 0)
		return diag_set(d, DIAG_USAGE, -1, "profile has no sample types");
	if (name == NULL) {
		if (p->default_sample_type[0] != '\0')
			for (i = 0; i < p->nsample_types; i++)
				if (strcmp(p->sample_types[i].type,
				    p->default_sample_type) == 0)
					return (int)i;
		if (go_delta_heap(p))
			return 1;
		return (int)p->nsample_types - 1;
	}
	for (i = 0; i < p->nsample_types; i++)
		if (strcmp(p->sample_types[i].type, name) == 0)
			return (int)i;
	n = strtonum(name, 0, (long long)p->nsample_types - 1, &errstr);
	if (errstr == NULL)
		return (int)n;
	{
		char	 list[160];
		size_t	 off = 0;

		list[0] = '\0';
		for (i = 0; i < p->nsample_types && off < sizeof(list); i++)
			off += (size_t)snprintf(list + off, sizeof(list) - off,
			    "%s%s", i ? ", " : "", p->sample_types[i].type);
		return diag_set(d, DIAG_USAGE, -1, "no sample type '%s' "
		    "(it has: %s)", name, list);
	}
}

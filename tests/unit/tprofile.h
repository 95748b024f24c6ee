/*
 * Hand-built profiles for the unit tests: a struct profile is plain C, so
 * a test writes the one it needs, with no protobuf: piece by piece
 * (t_new, t_fn, t_loc, t_sample, t_labels) or from folded stacks
 * (t_build).  Include after profile.h and arena.h.
 */
#ifndef TPROFILE_H
#define TPROFILE_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

/* Capacities of a hand-built profile; generous for every test. */
#define T_MAX	64

/*
 * Start a profile with room for T_MAX of everything and the given
 * sample types ("type/unit" strings).
 */
static inline struct profile *
t_new(int ntypes, ...)
{
	struct profile	*p;
	va_list		 ap;
	int		 i;

	p = profile_new();
	p->sample_types = arena_calloc(p->arena, ntypes,
	    sizeof(*p->sample_types));
	p->nsample_types = ntypes;
	va_start(ap, ntypes);
	for (i = 0; i < ntypes; i++) {
		p->sample_types[i].type = va_arg(ap, const char *);
		p->sample_types[i].unit = va_arg(ap, const char *);
	}
	va_end(ap);
	p->functions = arena_calloc(p->arena, T_MAX, sizeof(*p->functions));
	p->locations = arena_calloc(p->arena, T_MAX, sizeof(*p->locations));
	p->mappings = arena_calloc(p->arena, T_MAX, sizeof(*p->mappings));
	p->samples = arena_calloc(p->arena, T_MAX, sizeof(*p->samples));
	return p;
}

static inline struct pf_mapping *
t_map(struct profile *p, uint64_t start, uint64_t limit, const char *file,
    const char *build_id)
{
	struct pf_mapping *m = &p->mappings[p->nmappings++];

	m->id = p->nmappings;
	m->memory_start = start;
	m->memory_limit = limit;
	m->filename = file;
	m->build_id = build_id;
	return m;
}

static inline struct pf_function *
t_fn(struct profile *p, const char *name, const char *file)
{
	struct pf_function *f = &p->functions[p->nfunctions++];

	f->id = p->nfunctions;
	f->name = name;
	f->system_name = name;
	f->filename = file;
	return f;
}

/*
 * A location with nlines (function, line) pairs, innermost first, as in
 * profile.proto.
 */
static inline struct pf_location *
t_loc(struct profile *p, const struct pf_mapping *m, uint64_t addr,
    int nlines, ...)
{
	struct pf_location	*l = &p->locations[p->nlocations++];
	va_list			 ap;
	int			 i;

	l->id = p->nlocations;
	l->mapping = m;
	l->address = addr;
	l->nlines = nlines;
	l->lines = arena_calloc(p->arena, nlines, sizeof(*l->lines));
	va_start(ap, nlines);
	for (i = 0; i < nlines; i++) {
		l->lines[i].function = va_arg(ap, const struct pf_function *);
		l->lines[i].line = va_arg(ap, int);
	}
	va_end(ap);
	return l;
}

/* A sample: the values (one per sample type), then the stack, leaf first. */
static inline void
t_sample(struct profile *p, const int64_t *values, int nlocs, ...)
{
	struct pf_sample	*s = &p->samples[p->nsamples++];
	va_list			 ap;
	int			 i;

	s->values = arena_calloc(p->arena, p->nsample_types,
	    sizeof(*s->values));
	memcpy(s->values, values, p->nsample_types * sizeof(*s->values));
	s->nlocs = nlocs;
	s->locs = arena_calloc(p->arena, nlocs, sizeof(*s->locs));
	va_start(ap, nlocs);
	for (i = 0; i < nlocs; i++)
		s->locs[i] = va_arg(ap, const struct pf_location *);
	va_end(ap);
}

/* Give sample s the labels (key, string value or NULL, number, unit). */
static inline void
t_labels(struct profile *p, struct pf_sample *s, int n, ...)
{
	va_list	 ap;
	int	 i;

	s->labels = arena_calloc(p->arena, n, sizeof(*s->labels));
	s->nlabels = n;
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		s->labels[i].key = va_arg(ap, const char *);
		s->labels[i].str = va_arg(ap, const char *);
		s->labels[i].num = va_arg(ap, int64_t);
		s->labels[i].num_unit = va_arg(ap, const char *);
	}
	va_end(ap);
}

#define T_MAXF	32

/*
 * A profile from "root;mid;leaf" stacks (root first, as folded stacks
 * are written, at most T_MAXF frames each) with a count each; sample
 * types samples/count and cpu/nanoseconds at 10ms a sample.  As many
 * functions as the stacks name.
 */
static inline struct profile *
t_build(const char *const *stacks, const int64_t *counts, size_t n)
{
	struct profile		*p = profile_new();
	struct arena		*a = p->arena;
	const char		**names, *c;
	size_t			 nf = 0, i, j, k, most = 0;

	for (i = 0; i < n; i++)
		for (most++, c = stacks[i]; *c != '\0'; c++)
			most += *c == ';';
	names = arena_calloc(a, most + 1, sizeof(*names));

	p->nsample_types = 2;
	p->sample_types = arena_calloc(a, 2, sizeof(*p->sample_types));
	p->sample_types[0].type = "samples";
	p->sample_types[0].unit = "count";
	p->sample_types[1].type = "cpu";
	p->sample_types[1].unit = "nanoseconds";
	p->period_type.type = "cpu";
	p->period_type.unit = "nanoseconds";
	p->period = 10000000;
	p->functions = arena_calloc(a, most + 1, sizeof(*p->functions));
	p->locations = arena_calloc(a, most + 1, sizeof(*p->locations));
	p->samples = arena_calloc(a, n, sizeof(*p->samples));
	p->nsamples = n;
	for (i = 0; i < n; i++) {
		char	*copy = arena_strndup(a, stacks[i], strlen(stacks[i]));
		char	*frames[T_MAXF], *tok, *save = NULL;
		size_t	 depth = 0;

		for (tok = strtok_r(copy, ";", &save); tok != NULL &&
		    depth < T_MAXF; tok = strtok_r(NULL, ";", &save))
			frames[depth++] = tok;
		p->samples[i].nlocs = depth;
		p->samples[i].locs = arena_calloc(a, depth,
		    sizeof(*p->samples[i].locs));
		for (j = 0; j < depth; j++) {
			const char *fn = frames[depth - 1 - j];	/* leaf first */

			for (k = 0; k < nf; k++)
				if (strcmp(names[k], fn) == 0)
					break;
			if (k == nf) {
				names[nf] = fn;
				p->functions[nf].id = nf + 1;
				p->functions[nf].name = fn;
				p->functions[nf].system_name = fn;
				p->functions[nf].filename = "";
				p->locations[nf].id = nf + 1;
				p->locations[nf].nlines = 1;
				p->locations[nf].lines = arena_calloc(a, 1,
				    sizeof(struct pf_line));
				p->locations[nf].lines[0].function =
				    &p->functions[nf];
				nf++;
			}
			p->samples[i].locs[j] = &p->locations[k];
		}
		p->samples[i].values = arena_calloc(a, 2, sizeof(int64_t));
		p->samples[i].values[0] = counts[i];
		p->samples[i].values[1] = counts[i] * 10000000;
	}
	p->nfunctions = p->nlocations = nf;
	return p;
}

#endif

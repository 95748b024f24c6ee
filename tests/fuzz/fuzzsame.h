/*
 * Whether two decoded profiles are the same model, field by field, for
 * the fuzz targets that decode one input two ways: abort() if not.
 * Included by fuzz_pprof.c, fuzz_twice.c and fuzzdecode.h.
 */
#ifndef FUZZSAME_H
#define FUZZSAME_H

#include <stdlib.h>
#include <string.h>

#include "model/profile.h"

#define SAME(a, b)	do { if ((a) != (b)) abort(); } while (0)
#define SAME_STR(a, b)	do {						\
	if (((a) == NULL) != ((b) == NULL) ||				\
	    ((a) != NULL && strcmp((a), (b)) != 0))			\
		abort();						\
} while (0)

/* Abort unless the two decoded profiles are the same model. */
static void
same_profile(const struct profile *a, const struct profile *b)
{
	size_t i, j;

	SAME(a->nsample_types, b->nsample_types);
	for (i = 0; i < a->nsample_types; i++) {
		SAME_STR(a->sample_types[i].type, b->sample_types[i].type);
		SAME_STR(a->sample_types[i].unit, b->sample_types[i].unit);
	}
	SAME_STR(a->period_type.type, b->period_type.type);
	SAME_STR(a->period_type.unit, b->period_type.unit);
	SAME(a->period, b->period);
	SAME(a->time_nanos, b->time_nanos);
	SAME(a->duration_nanos, b->duration_nanos);
	SAME_STR(a->default_sample_type, b->default_sample_type);
	SAME_STR(a->drop_frames, b->drop_frames);
	SAME_STR(a->keep_frames, b->keep_frames);
	SAME(a->ncomments, b->ncomments);
	for (i = 0; i < a->ncomments; i++)
		SAME_STR(a->comments[i], b->comments[i]);
	SAME(a->nmappings, b->nmappings);
	SAME(a->nfunctions, b->nfunctions);
	for (i = 0; i < a->nfunctions; i++) {
		SAME(a->functions[i].id, b->functions[i].id);
		SAME_STR(a->functions[i].name, b->functions[i].name);
		SAME_STR(a->functions[i].filename, b->functions[i].filename);
	}
	SAME(a->nlocations, b->nlocations);
	for (i = 0; i < a->nlocations; i++) {
		const struct pf_location *la = &a->locations[i];
		const struct pf_location *lb = &b->locations[i];

		SAME(la->id, lb->id);
		SAME(la->address, lb->address);
		SAME(la->nlines, lb->nlines);
		SAME(la->mapping == NULL, lb->mapping == NULL);
		for (j = 0; j < la->nlines; j++) {
			SAME(la->lines[j].line, lb->lines[j].line);
			SAME(la->lines[j].function == NULL,
			    lb->lines[j].function == NULL);
			if (la->lines[j].function != NULL)
				SAME(la->lines[j].function->id,
				    lb->lines[j].function->id);
		}
	}
	SAME(a->nsamples, b->nsamples);
	for (i = 0; i < a->nsamples; i++) {
		const struct pf_sample *sa = &a->samples[i];
		const struct pf_sample *sb = &b->samples[i];

		SAME(sa->nlocs, sb->nlocs);
		for (j = 0; j < sa->nlocs; j++)
			SAME(sa->locs[j]->id, sb->locs[j]->id);
		for (j = 0; j < a->nsample_types; j++)
			SAME(sa->values[j], sb->values[j]);
		SAME(sa->nlabels, sb->nlabels);
		for (j = 0; j < sa->nlabels; j++) {
			SAME_STR(sa->labels[j].key, sb->labels[j].key);
			SAME_STR(sa->labels[j].str, sb->labels[j].str);
			SAME(sa->labels[j].num, sb->labels[j].num);
			SAME_STR(sa->labels[j].num_unit,
			    sb->labels[j].num_unit);
		}
	}
}

#endif

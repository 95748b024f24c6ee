/*
 * Which samples of a profile are one side's (--base-tag, --new-tag), so
 * that two label groups of one profile (endpoints, tenants, the spans
 * of a trace) are compared as two profiles would be.  Every term of a
 * selection must match a label of the sample, as every --tag must: a
 * KEY=VALUE as --tag takes it (filter.h: expressions, or a numeric
 * range), or a key and a list of values, each matched whole, a value
 * of hex digits without regard to case (a span id is written in either
 * case by the tools that export it).  A sample a side does not select
 * is not in that side at all: not in its total, its counts or its facts,
 * as if the profile had been split first (pprof -tagfocus -proto).  No
 * I/O: the CLI reads the lists of values.
 */
#ifndef SELECTION_H
#define SELECTION_H

#include <stddef.h>
#include <stdint.h>

struct diag;
struct pf_sample;
struct profile;
struct selection;
struct selection_run;

/* What one side's selection did over its profiles. */
struct selection_stats {
	size_t		 seen;		/* Sample records read */
	size_t		 kept;		/* of them selected */
	size_t		 both;		/* selected by the other side's too */
	uint64_t	 keyed;		/* bit i: a sample carried term i's
					   key (terms from 64 on: bit 63) */
	/*
	 * With a term of parts, the weights of the samples not selected:
	 * those without its key, and those with it and another value.
	 */
	int64_t		 nokey_w, other_w;
};

/* An empty selection; opt names it in messages ("--base-tag"). */
struct selection *selection_new(const char *opt);
void		 selection_free(struct selection *);	/* NULL is a no-op */
/*
 * Add the term KEY=VALUE, VALUE as --tag takes it.  Returns 0, or -1
 * with the diag (DIAG_USAGE) on a bad one; the caller checks the
 * expressions first to have them named by opt (filter_regcomp()).
 */
int		 selection_tag(struct selection *, const char *keyval,
		    struct diag *);
/*
 * Add the term "label key has one of the n values", spelled as given
 * (text, "span_id=@slow.txt"); the values are copied.
 */
void		 selection_values(struct selection *, const char *key,
		    char *const *values, size_t n, const char *text);
/*
 * The same term of n values, each in a part (part[i] below nparts): the
 * replicates of a side whose samples are those of many units (the
 * spans of a trace).  The samples of each part are folded into an
 * aggregate of their own (load.c), and the weights of the samples of
 * each value summed (selection_sums()).  The values must be distinct;
 * one term of parts a selection.
 */
void		 selection_parts(struct selection *, const char *key,
		    char *const *values, const unsigned *part, size_t n,
		    size_t nparts, const char *text);
/* Its number of parts, 0 without a term of parts (or a NULL sel). */
size_t		 selection_nparts(const struct selection *);
/*
 * Per value of the term of parts, in the order given, the sum of the
 * weights selection_sample_w() was given for the samples it selected.
 */
const int64_t	*selection_sums(const struct selection *);
/* The terms, as the header says them: "--base-tag K=V --base-tag ...". */
const char	*selection_text(const struct selection *);
/*
 * The term whose key no sample carried, as given, by st; or NULL.  A
 * misspelt key selects nothing, and says why.
 */
const char	*selection_unkeyed(const struct selection *,
		    const struct selection_stats *st);

/*
 * The selection over one profile, a sample at a time: 1 if sel selects
 * it, else 0; a NULL sel selects every sample.  With other (the other
 * side's, when both sides are one profile), the samples both select
 * are counted too.  Adds to *st; selection_begin() returns NULL for a
 * NULL sel.
 */
struct selection_run *selection_begin(const struct selection *sel,
		    const struct selection *other, struct profile *,
		    struct selection_stats *st);
int		 selection_sample(struct selection_run *,
		    const struct pf_sample *);
/*
 * The same, for a selection of parts: *part gets the part of the value
 * that selected the sample (0 without parts), whose sum w is added to.
 */
int		 selection_sample_w(struct selection_run *,
		    const struct pf_sample *, int64_t w, size_t *part);
void		 selection_end(struct selection_run *);	/* NULL is a no-op */

#endif

/*
 * Sample filters: --focus keeps the samples with a frame that matches a
 * regular expression, --ignore drops them.  A frame matches when the
 * expression matches its function name or its file name (every inlined
 * frame of a location counts).  No I/O here.
 */
#ifndef FILTER_H
#define FILTER_H

struct diag;
struct pf_sample;
struct filter;

/* Compile the expressions (either may be NULL); NULL and a diag on error. */
struct filter	*filter_new(const char *focus, const char *ignore,
		    struct diag *);
void		 filter_free(struct filter *);	/* NULL is a no-op */

/* 1 to keep the sample, 0 to drop it; arg is a struct filter *. */
int		 filter_keep(void *arg, const struct pf_sample *);

#endif

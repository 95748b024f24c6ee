/*
 * Limits and constants shared by every module.  Each PD_MAX_* is an
 * input limit: it is checked before anything is allocated from a count
 * read out of a file, and it is listed in man/profdiff.1.
 */
#ifndef PROFDIFF_H
#define PROFDIFF_H

#define PD_VERSION		"0.1.0"

#define PD_MAX_INPUT		(1ULL << 30)	/* bytes read from one file */
#define PD_MAX_INFLATED		(2ULL << 30)	/* bytes after gunzip */
#define PD_MAX_RATIO		256ULL		/* inflated / compressed */
#define PD_MAX_STRINGS		(16UL << 20)
#define PD_MAX_LOCATIONS	(16UL << 20)
#define PD_MAX_FUNCTIONS	(16UL << 20)
#define PD_MAX_DEPTH		65536		/* frames in one sample */
#define PD_MAX_SAMPLE_TYPES	64
#define PD_PERF_SECONDS		300		/* perf script on one perf.data;
						   its output is bounded by
						   max_inflated */

/*
 * Not a limit: a gzipped file that inflates to this many bytes or more
 * is inflated twice, once for its header and once as its samples are
 * read, so that its samples are never all in memory (input.c).
 */
#define PD_READ_TWICE		(8ULL << 20)

#include <stddef.h>
#include <stdint.h>

struct fetch_opts;

/* The limits in force for one run; pd_limits_default() fills in the above. */
struct pd_limits {
	uint64_t	 max_input;
	uint64_t	 max_inflated;
	uint64_t	 max_ratio;
	size_t		 max_strings;
	size_t		 max_locations;
	size_t		 max_functions;
	size_t		 max_depth;
	uint64_t	 read_twice;	/* PD_READ_TWICE; tests lower it */
	unsigned	 perf_seconds;	/* PD_PERF_SECONDS; tests lower it */
	const struct fetch_opts *fetch;	/* URLs (fetch.h); NULL: defaults */
};

void	pd_limits_default(struct pd_limits *);

#endif

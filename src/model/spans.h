/*
 * The spans of a trace: what a span is to profdiff (its id, its name,
 * its duration), read from any of the trace formats the input room
 * knows (input/trace.h).  Ids are kept as lower-case hex, as a label
 * carries them in either case.  No format and no I/O here.
 */
#ifndef SPANS_H
#define SPANS_H

#include <stddef.h>
#include <stdint.h>

struct span {
	char		*id;		/* hex digits, lower case */
	char		*name;		/* its operation */
	int64_t		 dur_ns;	/* 0 or more */
};

struct spans {
	struct span	*v;
	size_t		 n;
	size_t		 cap;
	const char	*format;	/* "OTLP/JSON" or "Jaeger JSON" */
};

void	spans_init(struct spans *);
void	spans_release(struct spans *);
/* Add a span; id and name are copied, id in lower case. */
void	spans_add(struct spans *, const char *id, size_t idlen,
	    const char *name, int64_t dur_ns);
/*
 * Sort by id and keep the first of each id (an exporter that wrote a
 * span twice): returns how many were dropped.
 */
size_t	spans_dedup(struct spans *);
/*
 * The q-quantile (0 to 1) of the n durations d[], sorted ascending:
 * the nearest rank, the value of rank ceil(q n) (p90 of ten durations
 * is the ninth), 0 for none.
 */
int64_t	spans_quantile(const int64_t *d, size_t n, double q);

#endif

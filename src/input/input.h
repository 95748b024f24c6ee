/*
 * The input room's public face: the readers that turn a file, a URL or
 * bytes into the model (model/profile.h), whole or a sample at a time,
 * and what kind of input bytes are, decided once, by one function, on
 * the inflated bytes.
 */
#ifndef INPUT_H
#define INPUT_H

#include <stddef.h>

#include "model/profile.h"

struct diag;
struct pd_limits;

/*
 * Read a profile from path ("-" is standard input), gzipped or not, and
 * validate it.  limits may be NULL for the defaults in profdiff.h.
 * Returns NULL and fills the diag on any error.  The result is freed with
 * profile_free().
 */
struct profile	*pprof_load(const char *path, const struct pd_limits *,
		    struct diag *);

/* Decode bytes already in memory (gzipped or not); path names the input
 * in messages and in the profile. */
struct profile	*pprof_decode(const void *buf, size_t len, const char *path,
		    const struct pd_limits *, struct diag *);

/*
 * The same, for raw (not gzipped) bytes, without the fast path that
 * reads samples straight off the wire: the reference the fast path must
 * agree with, for differential tests.
 */
struct profile	*pprof_decode_reference(const void *buf, size_t len,
		    const char *path, const struct pd_limits *, struct diag *);

/*
 * Reading a profile's samples one at a time, so that they never all sit
 * in memory (for a profile of a large service, they are most of it):
 * pprof_open() decodes and validates everything but the samples, which
 * pprof_next() reads in their order in the file.  The header's samples
 * is NULL and its nsamples is how many pprof_next() will return; the
 * header is the reader's, but its user may rewrite its locations (as
 * filters do).  pprof_next() returns 1 with *s valid until the next
 * call, 0 after the last sample, or -1 with the diag filled (the
 * message decoding the whole file at once would give).  Every sample's
 * locs point into the header's locations.  pprof_open_mem() reads bytes
 * that must outlive the reader.
 */
struct pf_reader;

struct pf_reader *pprof_open(const char *path, const struct pd_limits *,
		    struct diag *);
struct pf_reader *pprof_open_mem(const void *buf, size_t len,
		    const char *path, const struct pd_limits *, struct diag *);
struct profile	*pprof_header(const struct pf_reader *);
int		 pprof_next(struct pf_reader *, const struct pf_sample **s,
		    struct diag *);
void		 pprof_close(struct pf_reader *);	/* NULL is a no-op */

/*
 * Whether the reader's samples are still to be inflated a second time
 * as pprof_next() reads them: a gzipped file of at least
 * limits.read_twice bytes, read twice so that its samples are never all
 * in memory.
 */
int		 pprof_reads_twice(const struct pf_reader *);


enum input_kind {
	INPUT_EMPTY,		/* no bytes at all */
	INPUT_LEGACY_TEXT,	/* a legacy text profile (heap, threads...) */
	INPUT_LEGACY_CPU,	/* the gperftools binary CPU profile */
	INPUT_PERFDATA,		/* perf.data (its magic, PERFILE2) */
	INPUT_PERFSCRIPT,	/* perf script output, as perfscript_sniff()
				   says */
	INPUT_FOLDED,		/* folded stacks, as folded_sniff() says */
	INPUT_PROTOBUF,		/* anything else, read as a Profile */
};

/*
 * Classify inflated bytes, in this order: empty, perf.data, a legacy
 * pprof format (text first, after any leading white space), perf script
 * output, folded stacks, and otherwise protobuf.  The pprof decoder is
 * the judge of whether protobuf bytes really are a profile.
 */
enum input_kind	 input_sniff(const void *buf, size_t len);

/*
 * Refuse bytes of a kind profdiff does not read: empty ones, the only
 * kind left.  Returns -1 with the diag filled.
 */
int		 input_refuse(enum input_kind, struct diag *);

/*
 * The bytes of an input that is no profile (a trace): read whole under
 * the limits, inflated if gzip.  0 with *out malloc'd, or -1 with the
 * diag filled.
 */
int		 input_bytes(const char *path, const struct pd_limits *,
		    unsigned char **out, size_t *outlen, struct diag *);

#endif

/*
 * The reading room's view of the bytes: what kind of input they are,
 * decided once, by one function, on the inflated bytes.  Nothing here
 * decodes anything.
 */
#ifndef INPUT_H
#define INPUT_H

#include <stddef.h>

struct diag;

enum input_kind {
	INPUT_EMPTY,		/* no bytes at all */
	INPUT_LEGACY_TEXT,	/* a legacy text profile (heap, threads...) */
	INPUT_LEGACY_CPU,	/* the gperftools binary CPU profile */
	INPUT_FOLDED,		/* folded stacks, as folded_sniff() says */
	INPUT_PROTOBUF,		/* anything else, read as a Profile */
};

/*
 * Classify inflated bytes, in this order: empty, a legacy pprof format
 * (text first, after any leading white space), folded stacks, and
 * otherwise protobuf.  The pprof decoder is the judge of whether
 * protobuf bytes really are a profile.
 */
enum input_kind	 input_sniff(const void *buf, size_t len);

/*
 * Refuse bytes of a kind profdiff does not read: empty ones, the only
 * kind left.  Returns -1 with the diag filled.
 */
int		 input_refuse(enum input_kind, struct diag *);

#endif

/*
 * The folded-stack decoder: text with one stack per line, root first,
 * "frame;frame;frame COUNT", as stackcollapse-perf.pl, async-profiler's
 * collapsed output and py-spy's raw format write it -> struct profile.
 * It builds the same model as the pprof decoder (one sample type
 * "samples"/"count", one function and one location per distinct frame
 * name, no mappings, stacks leaf first), so that everything downstream
 * works unchanged.  No I/O here; input.c hands it the inflated bytes.
 */
#ifndef FOLDED_H
#define FOLDED_H

#include <stddef.h>

struct diag;
struct pd_limits;
struct profile;

/*
 * Should these (inflated, non-legacy) bytes be read as folded stacks?
 * Yes when they are non-empty text: no NUL or other control byte but
 * tab, CR and LF.  Also yes when the first stack line is a well-formed
 * folded line ending in LF before the first control byte, so that a
 * folded file with a stray control byte is reported as such, with its
 * line number.  A pprof protobuf never passes either test in practice:
 * its string table starts with the empty string, a NUL.
 */
int		 folded_sniff(const void *buf, size_t len);

/*
 * Decode folded stacks.  path names the input in the profile; limits may
 * be NULL for the defaults.  Returns NULL and fills the diag (the line
 * number first) on the first malformed line or exceeded limit.  The
 * result is freed with profile_free().
 */
struct profile	*folded_decode(const void *buf, size_t len, const char *path,
		    const struct pd_limits *, struct diag *);

#endif

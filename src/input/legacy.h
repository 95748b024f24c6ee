/*
 * The legacy pprof formats -> struct profile: the gperftools binary CPU
 * profile (C++ and Java), the text heap, growth and fragmentation
 * profiles (gperftools' heapz and Go's debug=1 heap), contention (C++
 * contentionz and Go's mutex and block dumps), threadz, Go's goroutine
 * and threadcreate counts, and Java's heapz and contentionz.  It builds
 * the model pprof's own parsers build from them (profile/legacy_*.go in
 * google/pprof): the same sample types and values, heap samples
 * unsampled as pprof does, addresses adjusted as pprof adjusts them, the
 * mappings of the memory map with pprof's heuristics, and pprof's
 * drop_frames.  No I/O here; input.c hands it the inflated bytes.
 */
#ifndef LEGACY_H
#define LEGACY_H

#include <stddef.h>

struct diag;
struct pd_limits;
struct profile;

/*
 * Decode a legacy profile, trying pprof's parsers in pprof's order.
 * path names the input in the profile; limits may be NULL for the
 * defaults.  Returns NULL and fills the diag (DIAG_LEGACY when no parser
 * recognizes the bytes, DIAG_CORRUPT when one does and they are
 * malformed or truncated, DIAG_LIMIT) on error.  The result is freed
 * with profile_free().
 */
struct profile	*legacy_decode(const void *buf, size_t len, const char *path,
		    const struct pd_limits *, struct diag *);

#endif

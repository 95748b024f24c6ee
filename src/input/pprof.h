/*
 * The reference pprof decoder (pprof.c), as the reading room calls it:
 * protobuf bytes, already inflated and sniffed, to a whole struct
 * profile.  No protobuf-c type appears here; the public readers
 * (pprof_open(), pprof_load() and the rest) are in profile.h.
 */
#ifndef PPROF_H
#define PPROF_H

#include <stddef.h>

struct diag;
struct pd_limits;
struct profile;

/*
 * Check that the top-level fields of a Profile fit in the bytes and
 * have the wire types profile.proto gives them, so that a truncated
 * file gets a byte offset and a non-profile a reason.  0, or -1 with
 * the diag filled.  The fast wire path (wire.c) counts on it too.
 */
int		 pprof_scan(const void *buf, size_t len, struct diag *);

/*
 * Unpack bytes that pprof_scan() has passed, with protobuf-c, and
 * convert and validate all of them into a new profile named path.
 * Returns NULL with the diag filled, naming the element at fault.
 */
struct profile	*pprof_unpack(const void *buf, size_t len,
		    const char *path, const struct pd_limits *, struct diag *);

#endif

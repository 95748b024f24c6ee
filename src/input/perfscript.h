/*
 * The perf script decoder: the text Linux perf's `perf script` prints,
 * in its default format or with the common -F fields (comm, pid, tid,
 * cpu, time, period, event, ip, sym, symoff, dso), with call chains
 * (perf record -g) or without -> struct profile.  Each sample is one
 * sample of the model; each event (cpu-clock, cycles, ...) is a sample
 * type of its own, beside a count of its samples; comm, pid and tid are
 * labels; every frame is a location with its address, in a mapping per
 * dso, named by its symbol or left nameless where perf says [unknown].
 * No I/O here; input.c hands it the inflated bytes.
 */
#ifndef PERFSCRIPT_H
#define PERFSCRIPT_H

#include <stddef.h>

struct diag;
struct pd_limits;
struct profile;

/*
 * Are these (inflated, non-legacy) bytes perf script output?  Yes when
 * the first line that is neither blank nor a '#' comment (perf script
 * --header) is a sample header with a time, or with a thread id and an
 * event, or one with a call chain line under it (a tab, then an
 * address right-aligned in 16 columns, as perf prints it).  Folded
 * stacks, the other text profdiff reads, have none of these.
 */
int		 perfscript_sniff(const void *buf, size_t len);

/*
 * Decode perf script output.  path names the input in the profile;
 * limits may be NULL for the defaults.  Returns NULL and fills the diag
 * (DIAG_PERFSCRIPT with the line number first, or DIAG_LIMIT) on the
 * first malformed line or exceeded limit.  The result is freed with
 * profile_free().
 */
struct profile	*perfscript_decode(const void *buf, size_t len,
		    const char *path, const struct pd_limits *, struct diag *);

#endif

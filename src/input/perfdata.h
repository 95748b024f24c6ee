/*
 * perf.data, Linux perf's own recording, read by running perf script on
 * it (a child process, bounded in time and in output) and decoding what
 * it prints with the perf script decoder (perfscript.h).
 */
#ifndef PERFDATA_H
#define PERFDATA_H

#include <stddef.h>

struct diag;
struct pd_limits;
struct profile;

/*
 * The fields perfdata_decode() asks perf script for: each one the perf
 * script decoder makes something of (perfscript.h), and none it would
 * have to skip.
 */
#define PERFDATA_FIELDS	"comm,pid,tid,time,event,ip,sym,symoff,dso,period"

/*
 * Are these (inflated) bytes perf.data?  Yes when they start with its
 * magic, "PERFILE2", in a file or in perf's pipe format.
 */
int		 perfdata_sniff(const void *buf, size_t len);

/*
 * Decode perf.data: the bytes are put in a file with no name on disk
 * (compat_anon_file()), which `perf --no-pager script -F
 * PERFDATA_FIELDS` reads as its standard input, found on the PATH; its
 * output, at most limits->max_inflated bytes in at most
 * limits->perf_seconds seconds (else it is killed and the input
 * refused), goes to perfscript_decode().  The child is always reaped
 * before this returns.  NULL with the diag filled (DIAG_PERFDATA: perf
 * missing, perf's own last line of error, a timeout; DIAG_LIMIT) on
 * failure.  path names the input; limits may be NULL for the defaults.
 */
struct profile	*perfdata_decode(const void *buf, size_t len,
		    const char *path, const struct pd_limits *, struct diag *);

#endif

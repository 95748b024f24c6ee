/*
 * A feed of profiles for one side: each profile's header, then its
 * samples, in the order of the paths.  Threaded, a thread of its own
 * inflates and decodes ahead (the next profile's bytes while this one's
 * samples are folded, and this one's samples in batches), so that
 * decoding and folding share the two cores; otherwise the feed is the
 * reader itself (pprof_open() and pprof_next()).  Either way the caller
 * sees the same headers, samples and messages, in the same order.
 */
#ifndef FEED_H
#define FEED_H

#include <stddef.h>

struct diag;
struct feed;
struct pd_limits;
struct pf_sample;
struct profile;

struct feed	*feed_new(char *const *paths, size_t n,
		    const struct pd_limits *, int threaded);
/*
 * Open the next profile: its header (see pprof_header()), or NULL with
 * the diag filled.  The header stays valid until feed_close().
 */
struct profile	*feed_open(struct feed *, struct diag *);
/* As pprof_next(), on the profile last opened. */
int		 feed_next(struct feed *, const struct pf_sample **,
		    struct diag *);
/* Done with the profile last opened: its samples not read are skipped. */
void		 feed_close(struct feed *);
void		 feed_free(struct feed *);	/* NULL is a no-op */

#endif

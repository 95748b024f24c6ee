/*
 * The fast wire path: a pprof Profile read off the wire by hand, its
 * header in two passes over the bytes and then its samples one at a
 * time, as the reading room (input.c) asks for them.  It reads only
 * bytes it is given: it never opens, reads or inflates anything, and
 * when a field runs past the bytes it has, it says so and the reading
 * room fetches more.  On anything but a well-formed header it gives up
 * without a word, so that the reference decoder (pprof.c) words the
 * error; a sample it cannot read goes through protobuf-c as the
 * reference decoder would take it.  No protobuf-c type appears here.
 */
#ifndef WIRE_H
#define WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct diag;
struct pd_limits;
struct pf_sample;
struct profile;

struct wire;

/*
 * Passes 1 and 2: the header of the wire [buf, buf + len), whose top
 * level the reference decoder has scanned.  Returns the wire's reader
 * of samples, with *header (everything but the samples, nsamples
 * counted, and the caller's to free) and *send, where the last sample
 * ends: the bytes after it are decoded, and pass 3 never reads them.
 * Returns NULL with nothing in the diag on anything but a well-formed
 * header, errors of the reference decoder included.
 */
struct wire	*wire_open(const void *buf, size_t len, const char *path,
		    const struct pd_limits *, struct profile **header,
		    size_t *send, struct diag *);
void		 wire_free(struct wire *);	/* NULL is a no-op */

/* What wire_next() found. */
enum wire_next {
	WIRE_ERROR = -1,	/* the diag says why */
	WIRE_SHORT = 0,		/* no whole field: more bytes may help */
	WIRE_SAMPLE = 1,	/* *s holds the next sample */
	WIRE_REFUSED = 2,	/* a bad sample: wire_refusal() words it */
};

/*
 * Pass 3: the next sample of the wire, in the bytes [*at, end), with
 * *at moved past every whole field read.  *s is valid until the next
 * call; its locs point into the header's locations.
 */
enum wire_next	 wire_next(struct wire *, const unsigned char **at,
		    const unsigned char *end, const struct pf_sample **s,
		    struct diag *);

/*
 * After WIRE_REFUSED, given the rest of the wire [rest, end) whole:
 * the error the reference decoder gives for the whole file, which is
 * the sample's own (in the diag already) unless a later sample does
 * not unpack at all.  Returns -1.
 */
int		 wire_refusal(const unsigned char *rest,
		    const unsigned char *end, struct diag *);

/*
 * Pass 0, for a file read twice: the top level walked as its inflated
 * bytes come, every field but the samples copied into hb, the samples
 * counted and skipped.  Zero it to start.
 */
struct wire_skim {
	unsigned char	*hb;		/* all fields but samples; free() */
	size_t		 hblen, hbcap;
	size_t		 nsamples;
	uint64_t	 send;		/* where the last sample ends */
	uint64_t	 off;		/* bytes taken so far */
	uint64_t	 skip, copy;	/* what is left of the current field */
	int		 ended;		/* the last call ended a sample */
};

/*
 * Walk [buf, buf + have); eof says no bytes follow them.  Returns how
 * many bytes it took, leaving the start of a field it cannot yet read
 * whole for the next call, or -1 if the bytes are not a top level it
 * takes (the file is then to be read whole).  At the end of the input,
 * the walk is complete if it took every byte and wire_skim_done().
 */
ssize_t		 wire_skim(struct wire_skim *, const unsigned char *buf,
		    size_t have, int eof);
int		 wire_skim_done(const struct wire_skim *);

#endif

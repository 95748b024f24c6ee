/*
 * Sample filters, as go tool pprof applies them, on POSIX extended
 * regular expressions.  A frame matches an expression when its function
 * name or its file name does (for a location without symbols, its
 * binary's file name).
 *
 *	--focus RE	keep the samples with a frame that matches
 *	--ignore RE	drop the samples with a frame that matches
 *	--hide RE	remove the matching frames from the stacks
 *	--show RE	remove every frame that does not match
 *	--tag K=V	keep the samples whose label K matches V
 *	--tag-ignore K=V  drop the samples whose label K matches V
 *
 * V is a numeric range ("128kb:512kb", "1ms:", ":4096", "64kb") for a
 * numeric label, or else a comma-separated list of expressions, any of
 * which may match a string label's value.  Every --tag must match; any
 * --tag-ignore drops.  focus and ignore see the frames before hide and
 * show remove any, as in pprof.  A sample whose every frame is removed
 * is dropped.  No I/O here.
 */
#ifndef FILTER_H
#define FILTER_H

#include <regex.h>
#include <stddef.h>

struct diag;
struct profile;
struct filter;

struct filter_spec {
	const char	*focus;		/* each may be NULL */
	const char	*ignore;
	const char	*hide;
	const char	*show;
	char *const	*tags;		/* "KEY=VALUE" */
	size_t		 ntags;
	char *const	*tag_ignores;
	size_t		 ntag_ignores;
	/*
	 * Shares of what the filters keep: dropped samples are removed
	 * from the profile.  Otherwise they stay in the totals (pprof's
	 * default) and filter_apply() returns a mask instead.
	 */
	int		 relative;
};

/* What one or more filter_apply() calls did, for warnings and headers. */
struct filter_stats {
	const char	*focus;		/* the options applied, NULL if not */
	const char	*ignore;
	const char	*hide;
	const char	*show;
	size_t		 ntags, ntag_ignores;
	size_t		 samples;	/* samples seen */
	size_t		 kept;
	size_t		 focus_hits;	/* locations matched by --focus ... */
	size_t		 ignore_hits;
	size_t		 hide_hits;
	size_t		 show_hits;
	size_t		 tag_hits;	/* samples every --tag matched */
	size_t		 tag_ignore_hits;	/* samples some --tag-ignore matched */
};

/*
 * Compile the spec into *out, which stays NULL when the spec asks for
 * no filtering at all.  Returns 0, or -1 with a diag (DIAG_USAGE,
 * naming the option) on a bad expression or a bad KEY=VALUE.
 */
int		 filter_new(const struct filter_spec *, struct filter **out,
		    struct diag *);
void		 filter_free(struct filter *);	/* NULL is a no-op */

/*
 * Apply the filter to a profile just loaded: --hide and --show rewrite
 * its locations and stacks in place.  With relative, the dropped
 * samples are removed and *keep is set to NULL; otherwise *keep is a
 * mask of one byte per sample, 1 to keep (free() it), for agg_src.keep,
 * or NULL when every sample is kept.  Adds to *st.  The filter is only
 * read, so two threads may apply it at once.
 */
void		 filter_apply(const struct filter *, struct profile *,
		    unsigned char **keep, struct filter_stats *st);

/*
 * The same, a sample at a time (pprof_next()): filter_begin() flags the
 * locations of the profile's header, and rewrites them for --hide and
 * --show.  filter_sample() returns 1 to keep the sample, with *out the
 * sample to fold (s itself, or its stack without the hidden frames,
 * valid until the next call), or 0 to drop it: with the spec's relative
 * the dropped sample leaves the profile, otherwise it stays in the
 * totals.  A NULL filter keeps everything.  Adds to *st.
 */
struct filter_run;
struct pf_sample;

struct filter_run *filter_begin(const struct filter *, struct profile *,
		    struct filter_stats *st);
int		 filter_sample(struct filter_run *, const struct pf_sample *s,
		    const struct pf_sample **out);
void		 filter_end(struct filter_run *);	/* NULL is a no-op */
/* Are dropped samples removed from the profile (the spec's relative)? */
int		 filter_relative(const struct filter *);

/*
 * Compile pat (REG_EXTENDED | REG_NOSUB) as the filters compile theirs,
 * refusing what they refuse; opt names the option in the message.
 * Returns 0, or -1 with the diag (DIAG_USAGE); regfree() it.
 */
int		 filter_regcomp(regex_t *, const char *pat, const char *opt,
		    struct diag *);

#endif

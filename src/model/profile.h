/*
 * The decoded profile: the contract between the pprof decoder and the
 * core.  Every field is plain C (no protobuf-c type appears here), ids
 * are already resolved to pointers, and all strings are NUL-terminated
 * and owned by the profile's arena.  Unit tests build one of these by
 * hand; the input room's readers (input/input.h) build one from bytes.
 * The model's own functions (profile_*) are profile.c's, which knows
 * no format.
 *
 * Stacks are leaf first.  A location's lines are innermost first: lines[0]
 * is the function that was inlined deepest, lines[nlines - 1] the
 * out-of-line caller that contains it, as in profile.proto.
 */
#ifndef PROFILE_H
#define PROFILE_H

#include <stddef.h>
#include <stdint.h>

struct arena;
struct diag;
struct pd_limits;

struct pf_valuetype {
	const char	*type;		/* "" when the profile left it unset */
	const char	*unit;
};

struct pf_mapping {
	uint64_t	 id;
	uint64_t	 memory_start;
	uint64_t	 memory_limit;
	uint64_t	 file_offset;
	const char	*filename;
	const char	*build_id;
	int		 has_functions;
	int		 has_filenames;
	int		 has_line_numbers;
	int		 has_inline_frames;
};

struct pf_function {
	uint64_t	 id;
	const char	*name;
	const char	*system_name;
	const char	*filename;
	int64_t		 start_line;
};

struct pf_line {
	const struct pf_function *function;	/* NULL when function_id was 0 */
	int64_t		 line;
	int64_t		 column;
};

struct pf_location {
	uint64_t	 id;
	const struct pf_mapping *mapping;	/* NULL when mapping_id was 0 */
	uint64_t	 address;
	struct pf_line	*lines;
	size_t		 nlines;
	int		 is_folded;
};

struct pf_label {
	const char	*key;
	const char	*str;		/* NULL for a numeric label */
	int64_t		 num;
	const char	*num_unit;	/* "" when unset */
};

struct pf_sample {
	const struct pf_location **locs;	/* leaf first */
	size_t		 nlocs;
	int64_t		*values;		/* one per sample type */
	struct pf_label	*labels;
	size_t		 nlabels;
};

struct profile {
	struct arena	*arena;			/* owns everything below */
	const char	*path;			/* as given by the user */

	struct pf_valuetype *sample_types;
	size_t		 nsample_types;
	struct pf_sample *samples;
	size_t		 nsamples;
	struct pf_mapping *mappings;
	size_t		 nmappings;
	struct pf_location *locations;
	size_t		 nlocations;
	struct pf_function *functions;
	size_t		 nfunctions;
	const char	**comments;
	size_t		 ncomments;

	const char	*drop_frames;
	const char	*keep_frames;
	int64_t		 time_nanos;
	int64_t		 duration_nanos;
	struct pf_valuetype period_type;
	int64_t		 period;
	const char	*default_sample_type;	/* "" when unset */
	enum pf_format { PF_PPROF = 0, PF_FOLDED } format;	/* the decoder */
};

/* A new empty profile owning a new arena, for hand-built tests. */
struct profile	*profile_new(void);
void		 profile_free(struct profile *);	/* NULL is a no-op */

/*
 * Resolve a user's -i argument (a sample type name or a 0-based index)
 * against the profile, or choose pprof's default when name is NULL:
 * default_sample_type if set and present; alloc_space of a Go delta
 * heap profile (/debug/pprof/heap?seconds=N or allocs?seconds=N: Go's
 * four heap types, a duration and no default), whose in-use values are
 * the heap's change, not a heap; else the last sample type.
 * Returns the index or -1 with the diag filled.
 */
int		 profile_sample_index(const struct profile *, const char *name,
		    struct diag *);

#endif

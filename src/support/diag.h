/*
 * A diagnostic filled in by the core and printed by the CLI layer.
 * Nothing below main.c and cmd_*.c prints or exits: functions that can
 * fail take a struct diag *, fill it with diag_set() and return -1.
 * Warnings are data too: a list of messages of the table (msg.h), each
 * with what it is about (struct diags), which loading fills and the
 * commands print and hand to the reports.
 */
#ifndef DIAG_H
#define DIAG_H

#include <stdarg.h>
#include <stddef.h>

#include "support/msg.h"

enum diag_code {
	DIAG_OK = 0,
	DIAG_IO,		/* open/read failed */
	DIAG_GZIP,		/* bad or truncated gzip stream */
	DIAG_FORMAT,		/* not a pprof profile at all */
	DIAG_LEGACY,		/* a legacy text or binary pprof format */
	DIAG_CORRUPT,		/* protobuf decodes but violates profile.proto */
	DIAG_LIMIT,		/* an input limit from profdiff.h was hit */
	DIAG_EMPTY,		/* a valid profile with nothing to show */
	DIAG_USAGE,		/* a request the input cannot satisfy */
	DIAG_FOLDED,		/* text that is not well-formed folded stacks */
	DIAG_NOTPROFILE,	/* text that is not folded stacks at all */
	DIAG_PERFSCRIPT,	/* perf script output that is malformed */
	DIAG_PERFDATA,		/* perf.data that perf script could not read */
	DIAG_PAIR,		/* two profiles that cannot be compared; no
				   kind is printed: the message says why */
};

struct diag {
	enum diag_code	 code;
	const char	*path;		/* borrowed; NULL if none */
	long long	 off;		/* byte offset, or -1 */
	char		 msg[256];
};

void		 diag_init(struct diag *, const char *path);
int		 diag_set(struct diag *, enum diag_code, long long off,
		    const char *fmt, ...)
		    __attribute__((__format__(__printf__, 4, 5)));
const char	*diag_kind(enum diag_code);
/* diag_set() with a message of the table (msg.h) and its arguments. */
int		 diag_set_msg(struct diag *, enum diag_code, enum msg, ...);
/* Format "path: kind: msg" (plus " at byte N") into buf. */
void		 diag_format(const struct diag *, char *buf, size_t len);
/*
 * Bytes of the input quoted in a message: the n at s into buf, at most
 * len - 1 of them and a NUL, each that is not printable ASCII as '?',
 * so that the message stays one line of text.  Returns how many.
 */
size_t		 diag_printable(char *buf, size_t len, const char *s,
		    size_t n);

/*
 * One message of a list: its code, its level (the table's) and what it
 * is about, and the line that says it, as stderr prints it after
 * "profdiff: ": the side, what it is about, then the table's wording,
 * "new: idle.pb.gz: only 131 samples: ...".
 */
struct diag_msg {
	enum msg	 code;
	enum msg_level	 level;
	const char	*side;		/* "base", "new", or NULL; borrowed */
	char		*file;		/* the file it is about, or NULL */
	char		*line;		/* the whole line */
	const char	*text;		/* in line: the wording alone */
};

/* A list of messages, in the order they were added. */
struct diags {
	struct diag_msg	*v;
	size_t		 n, cap;
};

void	diags_init(struct diags *);
/*
 * Add message code with the arguments its wording asks for.  side is a
 * string that outlives the list ("base", "new") or NULL; file, the file
 * it is about (copied), or NULL; about, what the line names before the
 * wording when that is not file alone ("merged profiles", "a.pb (and 2
 * more)", a command's name; copied), or NULL for file.
 */
void	diags_add(struct diags *, enum msg code, const char *side,
	    const char *file, const char *about, ...);
void	diags_vadd(struct diags *, enum msg code, const char *side,
	    const char *file, const char *about, va_list);
void	diags_release(struct diags *);

#endif

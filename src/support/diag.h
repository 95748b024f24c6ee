/*
 * A diagnostic filled in by the core and printed by the CLI layer.
 * Nothing below main.c and cmd_*.c prints or exits: functions that can
 * fail take a struct diag *, fill it with diag_set() and return -1.
 */
#ifndef DIAG_H
#define DIAG_H

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
/* Format "path: kind: msg" (plus " at byte N") into buf. */
void		 diag_format(const struct diag *, char *buf, size_t len);

#endif

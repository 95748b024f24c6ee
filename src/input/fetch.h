/*
 * Profiles over HTTP: the body of a GET of an http:// or https:// URL,
 * in memory, bounded as a file's bytes are (--max-input), for input.c
 * to decode as it would a file's.  libcurl does the HTTP; only fetch.c
 * includes its header.  Nothing here prints: what is saved is told to
 * the caller's function, and errors go into the diag.
 */
#ifndef FETCH_H
#define FETCH_H

#include <stddef.h>

struct diag;
struct pd_limits;

/*
 * How URLs are fetched in one run (--seconds, --save), lent to every
 * open through struct pd_limits.  saved, if not NULL, is told each
 * body that was kept: the URL fetched, the file and its size.  It may
 * be called from any loading thread, and at once from two.
 */
struct fetch_opts {
	int		 seconds;	/* 0: leave the URL's seconds= */
	const char	*save_dir;	/* NULL: keep nothing */
	void		(*saved)(const char *url, const char *path,
			    size_t len);
};

/*
 * The timeouts, in seconds, as pprof sizes them: to connect, and in
 * all, one and a half times the URL's seconds= (after --seconds) plus
 * a margin, or, without seconds=, FETCH_NO_SECONDS plus the margin
 * (65 s: pprof's 60 s and its client's 5).
 * Documented in profdiff.1.
 */
#define FETCH_CONNECT		10
#define FETCH_MARGIN		5
#define FETCH_NO_SECONDS	60

/*
 * Clean libcurl up at the end, if a fetch loaded it, and forget the
 * passwords fetch_redact() kept: the first fetch_url() loads and sets
 * libcurl up, once for all threads, and a fetch says in its diag when
 * it cannot be loaded.
 */
void	fetch_global_cleanup(void);

/* Does path name a URL (http:// or https://, in any case)? */
int	fetch_is_url(const char *path);

/*
 * A password in a URL is sent, never shown.  *out is arg (an operand:
 * a URL, a file, or replicates joined by commas) with the password of
 * each http:// or https:// URL in it written as *** (user:***@host),
 * and the password is kept for fetch_url(), which is then given *out;
 * *out is arg itself when it has none, else a string freed by
 * fetch_global_cleanup().  Call it before any fetch, from one thread.
 * Returns 0, or -1 with the diag filled when a URL of the same user and
 * host was given before with another password (*out is still set).
 */
int	fetch_redact(const char *arg, const char **out, struct diag *d);

/*
 * GET url, with lim->fetch's seconds and save folder, and the password
 * fetch_redact() kept for it: 0 with the body, exactly as received, in
 * *out (malloc'd; the caller frees it), or -1 with the diag filled: the
 * URL cannot be parsed or reached, the answer is not 2xx (its status
 * and the first line of its body are said), the body is over
 * lim->max_input (the transfer stops there), the time is up, or what
 * was fetched cannot be saved.  After a redirect, the message starts
 * with the URL it led to ("redirected to URL: why"); a redirect that
 * is not followed says why (a protocol other than http and https, more
 * than 10, or one with no Location).  Every URL said has its password
 * as ***.
 */
int	fetch_url(const char *url, const struct pd_limits *lim,
	    unsigned char **out, size_t *outlen, struct diag *d);

#endif

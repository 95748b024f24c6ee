/*
 * Profiles over HTTP (fetch.h): a GET with libcurl, as pprof fetches
 * "http://host:6060/debug/pprof/profile?seconds=30".  --seconds goes
 * into the query of a net/http/pprof URL (a path with /debug/pprof/ in
 * it), in place of any seconds= there; the timeouts are sized to the
 * seconds= the URL ends up with, as pprof sizes them.  The body is
 * held in memory within --max-input, the transfer stopped as soon as
 * it is over, and handed back exactly as received: input.c inflates
 * and decodes it as a file's bytes.  With --save, those bytes are also
 * written to a new file.  Each fetch has its own curl handle, so that
 * the two sides of a diff fetch at once on their own threads.
 *
 * libcurl is loaded (dlopen) and set up by the first fetch, once, and
 * not linked: linked, Debian's libcurl and its thirty libraries made
 * every run start 5 ms later and 8 MB larger, URLs or not (make bench:
 * profdiff top on the small pair, 1.32 times the time of a build
 * without it).  The headers still type every call (curl_fn, below).
 * A password in a URL (http://user:secret@host/...) is sent, never
 * shown: fetch_redact() gives the command line's URLs with it written
 * as ***, keeps it, and fetch_url() puts it back; every URL said here
 * (--save's, a redirect's) is written the same way.
 * Nothing here prints.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Plain prototypes, whose types the pointers below take. */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include "support/compat.h"
#include "support/diag.h"
#include "input/fetch.h"
#include "input/gunzip.h"
#include "input/input.h"
#include "profdiff.h"
#include "support/xmalloc.h"

/* libcurl's functions that fetch.c calls, loaded by curl_load(). */
static struct curl_fn {
	__typeof__(curl_global_init)	*global_init;
	__typeof__(curl_global_cleanup)	*global_cleanup;
	__typeof__(curl_easy_init)	*easy_init;
	__typeof__(curl_easy_setopt)	*easy_setopt;
	__typeof__(curl_easy_perform)	*easy_perform;
	__typeof__(curl_easy_getinfo)	*easy_getinfo;
	__typeof__(curl_easy_cleanup)	*easy_cleanup;
	__typeof__(curl_easy_strerror)	*easy_strerror;
	__typeof__(curl_free)		*free;
	__typeof__(curl_url)		*url;
	__typeof__(curl_url_cleanup)	*url_cleanup;
	__typeof__(curl_url_get)	*url_get;
	__typeof__(curl_url_set)	*url_set;
	__typeof__(curl_url_strerror)	*url_strerror;
} C;

#define FETCH_LIBCURL	"libcurl.so.4"	/* Debian's libcurl4 */
#define FETCH_URL_SHOWN	160		/* the most of a URL a message says */

static pthread_once_t	 curl_once = PTHREAD_ONCE_INIT;
static void		*curl_lib;
static char		 curl_error[256];	/* why it cannot be used */

static int
curl_sym(void **fn, const char *name)
{
	if ((*fn = dlsym(curl_lib, name)) != NULL)
		return 0;
	snprintf(curl_error, sizeof(curl_error), "%s has no %s",
	    FETCH_LIBCURL, name);
	return -1;
}

/* Once, on the first URL: load libcurl, find its functions, set it up. */
static void
curl_load(void)
{
	const char *e;

	if ((curl_lib = dlopen(FETCH_LIBCURL, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		e = dlerror();
		snprintf(curl_error, sizeof(curl_error), "libcurl is needed "
		    "for URLs and cannot be loaded: %s (Debian: apt-get "
		    "install libcurl4)", e != NULL ? e : FETCH_LIBCURL);
		return;
	}
	if (curl_sym((void **)&C.global_init, "curl_global_init") == -1 ||
	    curl_sym((void **)&C.global_cleanup, "curl_global_cleanup") == -1 ||
	    curl_sym((void **)&C.easy_init, "curl_easy_init") == -1 ||
	    curl_sym((void **)&C.easy_setopt, "curl_easy_setopt") == -1 ||
	    curl_sym((void **)&C.easy_perform, "curl_easy_perform") == -1 ||
	    curl_sym((void **)&C.easy_getinfo, "curl_easy_getinfo") == -1 ||
	    curl_sym((void **)&C.easy_cleanup, "curl_easy_cleanup") == -1 ||
	    curl_sym((void **)&C.easy_strerror, "curl_easy_strerror") == -1 ||
	    curl_sym((void **)&C.free, "curl_free") == -1 ||
	    curl_sym((void **)&C.url, "curl_url") == -1 ||
	    curl_sym((void **)&C.url_cleanup, "curl_url_cleanup") == -1 ||
	    curl_sym((void **)&C.url_get, "curl_url_get") == -1 ||
	    curl_sym((void **)&C.url_set, "curl_url_set") == -1 ||
	    curl_sym((void **)&C.url_strerror, "curl_url_strerror") == -1)
		return;
	if (C.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(curl_error, sizeof(curl_error), "libcurl cannot be "
		    "set up");
		C.global_cleanup = NULL;
		return;
	}
}

/* libcurl ready for use, from any thread; -1 with the diag filled. */
static int
curl_ready(struct diag *d)
{
	pthread_once(&curl_once, curl_load);
	if (curl_error[0] != '\0')
		return diag_set(d, DIAG_IO, -1, "%s", curl_error);
	return 0;
}

/* Passwords in URLs (fetch_redact()). */

/* A URL's scheme and authority, with its password and with ***. */
struct cred {
	char	*shown;		/* "http://user:***@host:6060" */
	char	*real;		/* "http://user:secret@host:6060" */
};

static struct cred	*creds;
static size_t		 ncreds;
static char		**redacted;	/* fetch_redact()'s strings */
static size_t		 nredacted;

void
fetch_global_cleanup(void)
{
	size_t i;

	if (curl_lib != NULL && curl_error[0] == '\0')
		C.global_cleanup();
	for (i = 0; i < ncreds; i++) {
		free(creds[i].shown);
		free(creds[i].real);
	}
	for (i = 0; i < nredacted; i++)
		free(redacted[i]);
	free(creds);
	free(redacted);
	creds = NULL;
	redacted = NULL;
	ncreds = nredacted = 0;
}

/* The length of s's scheme with its "://" (http, https), or 0. */
static size_t
scheme_len(const char *s, size_t n)
{
	if (n >= 7 && strncasecmp(s, "http://", 7) == 0)
		return 7;
	if (n >= 8 && strncasecmp(s, "https://", 8) == 0)
		return 8;
	return 0;
}

/*
 * The URL of n bytes at s: 1 with [*pw, *pwend) its password and *end
 * where its authority ends, or 0 when it has none (no URL, no
 * user:password@, or an empty password).
 */
static int
find_password(const char *s, size_t n, size_t *pw, size_t *pwend,
    size_t *end)
{
	size_t	 k = scheme_len(s, n), i, at = SIZE_MAX;

	if (k == 0)
		return 0;
	for (i = k; i < n && s[i] != '/' && s[i] != '?' && s[i] != '#'; i++)
		if (s[i] == '@')
			at = i;		/* the last: the host has none */
	*end = i;
	if (at == SIZE_MAX)
		return 0;
	for (i = k; i < at && s[i] != ':'; i++)
		continue;
	*pw = i + 1;
	*pwend = at;
	return i < at && *pwend > *pw;
}

/*
 * The end of the URL that starts at s: the next ",http://" or
 * ",https://" (series joins replicates with commas), or the end.
 */
static size_t
url_end(const char *s)
{
	const char *c;

	for (c = strchr(s, ','); c != NULL; c = strchr(c + 1, ','))
		if (scheme_len(c + 1, strlen(c + 1)) > 0)
			return (size_t)(c - s);
	return strlen(s);
}

static char *
dup_n(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* Keep a URL's password, told by its authority with ***: 0, or -1. */
static int
cred_add(const char *shown, size_t slen, const char *real, size_t rlen)
{
	size_t i;

	for (i = 0; i < ncreds; i++)
		if (strlen(creds[i].shown) == slen &&
		    strncmp(creds[i].shown, shown, slen) == 0)
			return strlen(creds[i].real) == rlen &&
			    strncmp(creds[i].real, real, rlen) == 0 ? 0 : -1;
	creds = xreallocarray(creds, ncreds + 1, sizeof(*creds));
	creds[ncreds].shown = dup_n(shown, slen);
	creds[ncreds++].real = dup_n(real, rlen);
	return 0;
}

/*
 * s with the password of each URL in it written as ***: a new string,
 * or NULL when s has none.  With keep, each password is kept for
 * fetch_url(); -1 in *bad if one was kept before with another password.
 */
static char *
redact(const char *s, int keep, int *bad)
{
	char	*out, *o;
	size_t	 n, pw, pwend, end, nout;
	int	 any = 0;

	o = out = xmalloc(2 * strlen(s) + 4);
	for (; *s != '\0'; s += n) {
		n = url_end(s);
		if (!find_password(s, n, &pw, &pwend, &end)) {
			memcpy(o, s, n);
			o += n;
			/* The comma that ends it goes with it. */
			if (s[n] == ',')
				*o++ = s[n++];
			continue;
		}
		any = 1;
		memcpy(o, s, pw);
		memcpy(o + pw, "***", 3);
		nout = pw + 3 + (end - pwend);
		memcpy(o + pw + 3, s + pwend, end - pwend);
		if (keep && cred_add(o, nout, s, end) == -1)
			*bad = -1;
		memcpy(o + nout, s + end, n - end);
		o += nout + (n - end);
		if (s[n] == ',')
			*o++ = s[n++];
	}
	*o = '\0';
	if (!any) {
		free(out);
		return NULL;
	}
	return out;
}

int
fetch_redact(const char *arg, const char **out, struct diag *d)
{
	char	*r;
	int	 bad = 0;

	*out = arg;
	if ((r = redact(arg, 1, &bad)) == NULL)
		return 0;
	redacted = xreallocarray(redacted, nredacted + 1, sizeof(*redacted));
	redacted[nredacted++] = r;
	*out = r;
	if (bad)
		return diag_set(d, DIAG_USAGE, -1, "%s: a URL of the same user "
		    "and host came with another password: give one", r);
	return 0;
}

/*
 * url as messages write it, in buf: its password as ***, anything not
 * printable as '?', cut with "..." to fit.
 */
static void
url_shown(char *buf, size_t len, const char *url)
{
	char	*r = redact(url, 0, NULL);
	const char *s = r != NULL ? r : url;
	size_t	 k;

	k = diag_printable(buf, len, s, strlen(s));
	if (s[k] != '\0' && len > 4)
		memcpy(buf + len - 4, "...", 4);
	free(r);
}

/*
 * The URL to fetch for url: with the password fetch_redact() kept for
 * its authority, in a new string; NULL when it has none.
 */
static char *
with_password(const char *url)
{
	size_t	 n = strlen(url), pw, pwend, end, i;
	char	*real;

	if (!find_password(url, n, &pw, &pwend, &end) || pwend - pw != 3 ||
	    strncmp(url + pw, "***", 3) != 0)
		return NULL;
	for (i = 0; i < ncreds; i++)
		if (strlen(creds[i].shown) == end &&
		    strncmp(creds[i].shown, url, end) == 0) {
			xasprintf(&real, "%s%s", creds[i].real, url + end);
			return real;
		}
	return NULL;
}

int
fetch_is_url(const char *path)
{
	return strncasecmp(path, "http://", 7) == 0 ||
	    strncasecmp(path, "https://", 8) == 0;
}

/* The URL: what is fetched, and how long it may take. */

/* Is this item of a query "seconds" or "seconds=..."? */
static int
is_seconds(const char *item, size_t len)
{
	return len >= 7 && strncmp(item, "seconds", 7) == 0 &&
	    (len == 7 || item[7] == '=');
}

/* The query q (NULL: none) with seconds=N in place of any seconds=. */
static char *
with_seconds(const char *q, int seconds)
{
	const char	*p, *amp;
	char		*out, *o;
	size_t		 len, n = q != NULL ? strlen(q) : 0;

	o = out = xmalloc(n + 32);
	for (p = q; p != NULL && *p != '\0'; p = amp != NULL ? amp + 1 : NULL) {
		amp = strchr(p, '&');
		len = amp != NULL ? (size_t)(amp - p) : strlen(p);
		if (len == 0 || is_seconds(p, len))
			continue;
		memcpy(o, p, len);
		o += len;
		*o++ = '&';
	}
	snprintf(o, 32, "seconds=%d", seconds);
	return out;
}

/* The first seconds= of the query q as a positive number, or 0. */
static long long
query_seconds(const char *q)
{
	const char	*p, *amp, *errstr;
	char		 num[24];
	size_t		 len;
	long long	 n;

	for (p = q; p != NULL && *p != '\0'; p = amp != NULL ? amp + 1 : NULL) {
		amp = strchr(p, '&');
		len = amp != NULL ? (size_t)(amp - p) : strlen(p);
		if (!is_seconds(p, len) || len <= 8 || len - 8 >= sizeof(num))
			continue;
		memcpy(num, p + 8, len - 8);
		num[len - 8] = '\0';
		n = strtonum(num, 1, INT_MAX, &errstr);
		return errstr == NULL ? n : 0;
	}
	return 0;
}

/*
 * Parse url into u, with --seconds put into the query of a
 * net/http/pprof URL: 0 with *full (curl's, C.free() it) the URL to
 * fetch, *secs its seconds= (0: none) and *total its timeout in
 * seconds, or -1 with the diag filled.
 */
static int
adjust_url(CURLU *u, const char *url, const struct fetch_opts *fo,
    char **full, long long *secs, long *total, struct diag *d)
{
	CURLUcode	 rc;
	char		*path = NULL, *q = NULL, *nq;
	long long	 t;

	*full = NULL;
	if ((rc = C.url_set(u, CURLUPART_URL, url, 0)) != CURLUE_OK)
		return diag_set(d, DIAG_IO, -1, "not a valid URL: %s",
		    C.url_strerror(rc));
	if (C.url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK)
		path = NULL;
	if (C.url_get(u, CURLUPART_QUERY, &q, 0) != CURLUE_OK)
		q = NULL;
	if (fo != NULL && fo->seconds > 0 && path != NULL &&
	    strstr(path, "/debug/pprof/") != NULL) {
		nq = with_seconds(q, fo->seconds);
		rc = C.url_set(u, CURLUPART_QUERY, nq, 0);
		free(nq);
		C.free(q);
		q = NULL;
		if (rc != CURLUE_OK || C.url_get(u, CURLUPART_QUERY, &q,
		    0) != CURLUE_OK) {
			C.free(path);
			return diag_set(d, DIAG_IO, -1, "cannot add seconds= "
			    "to the URL: %s", C.url_strerror(rc));
		}
	}
	/* 1.5 times, rounded up; secs <= INT_MAX, so this fits a long long. */
	if ((*secs = query_seconds(q)) > 0)
		t = *secs + (*secs + 1) / 2 + FETCH_MARGIN;
	else
		t = FETCH_NO_SECONDS + FETCH_MARGIN;
	*total = t > LONG_MAX ? LONG_MAX : (long)t;
	C.free(path);
	C.free(q);
	if ((rc = C.url_get(u, CURLUPART_URL, full, 0)) != CURLUE_OK)
		return diag_set(d, DIAG_IO, -1, "not a valid URL: %s",
		    C.url_strerror(rc));
	return 0;
}

/* The answer. */

#define ERROR_KEEP	512	/* bytes of a non-2xx body kept for its line */

struct body {
	unsigned char	*buf;
	size_t		 len, cap;
	uint64_t	 max;		/* --max-input */
	CURL		*h;
	long		 status;	/* of the last status line, or 0 */
	char		 reason[64];
	unsigned char	 err[ERROR_KEEP];	/* a non-2xx body's start */
	size_t		 errlen;
	int		 too_big;	/* stopped: the body is over max */
};

static int
ok_status(long status)
{
	return status >= 200 && status <= 299;
}

/*
 * A line of the header.  Each status line starts an answer (after a
 * redirect, the next): its code and reason are kept for the message.
 */
static size_t
head_line(char *p, size_t size, size_t n, void *ctx)
{
	struct body	*b = ctx;
	size_t		 len = size * n, i = 5, k = 0;

	if (len < 5 || memcmp(p, "HTTP/", 5) != 0)
		return len;
	b->status = 0;
	b->reason[0] = '\0';
	while (i < len && p[i] != ' ')
		i++;
	while (i < len && p[i] == ' ')
		i++;
	for (; i < len && p[i] >= '0' && p[i] <= '9' && b->status < 1000; i++)
		b->status = b->status * 10 + (p[i] - '0');
	while (i < len && p[i] == ' ')
		i++;
	for (; i < len && p[i] != '\r' && p[i] != '\n' &&
	    k < sizeof(b->reason) - 1; i++)
		b->reason[k++] = p[i] < ' ' ? '?' : p[i];
	b->reason[k] = '\0';
	return len;
}

/* Room for n more bytes in b, within its limit: 0, or -1 if over it. */
static int
body_room(struct body *b, size_t n)
{
	curl_off_t	 hint = -1;
	size_t		 cap;

	if (n > b->max - b->len)
		return -1;
	if (b->cap - b->len >= n)
		return 0;
	/* A Content-Length within the limit is the size to expect. */
	if (b->cap == 0 && C.easy_getinfo(b->h,
	    CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &hint) == CURLE_OK &&
	    hint > 0 && (uint64_t)hint <= b->max && (uint64_t)hint < SIZE_MAX)
		cap = (size_t)hint + 1;
	else
		cap = b->cap > 0 ? b->cap : 65536;
	while (cap - b->len < n)
		cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
	/* Never more than the limit: len + n <= max. */
	if (cap > b->max)
		cap = (size_t)b->max;
	b->buf = xreallocarray(b->buf, cap, 1);
	b->cap = cap;
	return 0;
}

/*
 * The body as it comes: all of a 2xx answer, within the limit; of any
 * other, only the start, for its first line.  Returning less than was
 * given stops the transfer.
 */
static size_t
body_write(char *p, size_t size, size_t n, void *ctx)
{
	struct body	*b = ctx;
	size_t		 len = size * n, k;

	if (!ok_status(b->status)) {
		k = len < ERROR_KEEP - b->errlen ? len : ERROR_KEEP - b->errlen;
		memcpy(b->err + b->errlen, p, k);
		b->errlen += k;
		/* The first line is in: no need for the rest. */
		if (b->errlen == ERROR_KEEP || memchr(b->err, '\n', b->errlen))
			return 0;
		return len;
	}
	if (body_room(b, len) == -1) {
		b->too_big = 1;
		return 0;
	}
	memcpy(b->buf + b->len, p, len);
	b->len += len;
	return len;
}

/*
 * "HTTP 404 Not Found: the body's first line", printable, in buf; a
 * redirect that was not followed says it had no Location.
 */
static void
status_text(CURL *h, const struct body *b, char *buf, size_t len)
{
	char	 line[160], *next = NULL;
	size_t	 i, k = 0;

	for (i = 0; i < b->errlen && b->err[i] != '\n' &&
	    k < sizeof(line) - 1; i++)
		line[k++] = b->err[i] == '\r' ? ' ' : b->err[i] < ' ' ||
		    b->err[i] >= 0x7f ? '?' : (char)b->err[i];
	while (k > 0 && line[k - 1] == ' ')
		k--;
	line[k] = '\0';
	if (b->status >= 300 && b->status <= 399 && (C.easy_getinfo(h,
	    CURLINFO_REDIRECT_URL, &next) != CURLE_OK || next == NULL))
		snprintf(buf, len, "HTTP %ld%s%s, a redirect with no Location"
		    "%s%s", b->status, b->reason[0] != '\0' ? " " : "",
		    b->reason, k > 0 ? ": " : "", line);
	else
		snprintf(buf, len, "HTTP %ld%s%s%s%s", b->status,
		    b->reason[0] != '\0' ? " " : "", b->reason, k > 0 ? ": " :
		    "", line);
}

/* The host of url, in buf ("" if it has none). */
static void
host_of(const char *url, char *buf, size_t len)
{
	CURLU	*u;
	char	*host = NULL;

	buf[0] = '\0';
	if ((u = C.url()) == NULL)
		return;
	if (C.url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    C.url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK)
		snprintf(buf, len, "%s", host);
	C.free(host);
	C.url_cleanup(u);
}

/*
 * Why curl stopped, in buf, in words that do not change from run to run
 * where that can be had (curl's own say how many milliseconds it took).
 * eff is the URL it stopped at, and nredir the redirects it followed.
 */
static void
curl_text(CURL *h, CURLcode rc, const char *eff, long nredir,
    long long secs, long total, const char *errbuf, char *buf, size_t len)
{
	curl_off_t	 connected = 0;
	long		 oserr = 0;
	char		*next = NULL, from[FETCH_URL_SHOWN], to[FETCH_URL_SHOWN];
	char		 host[256];

	switch (rc) {
	case CURLE_TOO_MANY_REDIRECTS:
		if (C.easy_getinfo(h, CURLINFO_REDIRECT_URL, &next) !=
		    CURLE_OK || next == NULL)
			next = "";
		url_shown(from, sizeof(from), eff);
		url_shown(to, sizeof(to), next);
		if (strcmp(eff, next) == 0)
			snprintf(buf, len, "a redirect loop: %s redirects to "
			    "itself", from);
		else
			snprintf(buf, len, "more than %ld redirects (a loop?), "
			    "the last from %s to %s", nredir, from, to);
		return;
	case CURLE_UNSUPPORTED_PROTOCOL:
		if (nredir > 0) {
			snprintf(buf, len, "a protocol not followed (only "
			    "http and https are)");
			return;
		}
		break;
	case CURLE_COULDNT_CONNECT:
		if (C.easy_getinfo(h, CURLINFO_OS_ERRNO, &oserr) ==
		    CURLE_OK && oserr != 0) {
			snprintf(buf, len, "cannot connect: %s",
			    strerror((int)oserr));
			return;
		}
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
		host_of(eff, host, sizeof(host));
		if (host[0] == '\0')
			break;
		snprintf(buf, len, "cannot resolve host %s", host);
		return;
	case CURLE_OPERATION_TIMEDOUT:
		(void)C.easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &connected);
		if (connected == 0)
			snprintf(buf, len, "cannot connect within %d s",
			    FETCH_CONNECT);
		else if (secs > 0)
			snprintf(buf, len, "timed out after %ld s (1.5 times "
			    "seconds=%lld, plus %d s)", total, secs,
			    FETCH_MARGIN);
		else
			snprintf(buf, len, "timed out after %ld s (the URL has "
			    "no seconds=)", total);
		return;
	default:
		break;
	}
	snprintf(buf, len, "%s", errbuf[0] != '\0' ? errbuf :
	    C.easy_strerror(rc));
}

/*
 * Why a transfer failed: the status of an answer that was not 2xx,
 * the limit, or why curl stopped; after a redirect, preceded by the URL
 * it led to, where the transfer stopped.
 */
static int
transfer_error(CURL *h, CURLcode rc, const struct body *b, long long secs,
    long total, const char *errbuf, struct diag *d)
{
	char	 why[512], where[FETCH_URL_SHOWN];
	char	*eff = NULL;
	long	 nredir = 0;

	if (b->too_big || rc == CURLE_FILESIZE_EXCEEDED)
		return diag_set(d, DIAG_LIMIT, -1, "the body is more than the "
		    "limit of %llu bytes (raise with --max-input)",
		    (unsigned long long)b->max);
	if (C.easy_getinfo(h, CURLINFO_REDIRECT_COUNT, &nredir) != CURLE_OK)
		nredir = 0;
	if (C.easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &eff) != CURLE_OK ||
	    eff == NULL)
		eff = "";
	/* body_write() stops an answer that is not 2xx: CURLE_WRITE_ERROR. */
	if ((rc == CURLE_OK || rc == CURLE_WRITE_ERROR) && b->status != 0 &&
	    !ok_status(b->status))
		status_text(h, b, why, sizeof(why));
	else
		curl_text(h, rc, eff, nredir, secs, total, errbuf, why,
		    sizeof(why));
	if (nredir == 0 || rc == CURLE_TOO_MANY_REDIRECTS)
		return diag_set(d, DIAG_IO, -1, "%s", why);
	url_shown(where, sizeof(where), eff);
	return diag_set(d, DIAG_IO, -1, "redirected to %s: %s", where, why);
}

/* --save: the bytes as received, in a new file. */

/* s, of at most max bytes, in characters safe in a file name. */
static void
name_part(char *out, size_t outlen, const char *s, size_t max)
{
	size_t	 k = 0;

	for (; *s != '\0' && k < max && k < outlen - 1; s++)
		out[k++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' &&
		    *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' ||
		    *s == '-' ? *s : '_';
	out[k] = '\0';
}

/*
 * "127.0.0.1_6060-profile-20261201T134722Z": the host and port, the
 * last element of the path (less a profile's extension), and when the
 * fetch began (UTC).
 */
static void
save_base(char *out, size_t outlen, CURLU *u, time_t when)
{
	static const char *const exts[] = { ".pb.gz", ".gz", ".pb",
	    ".folded" };
	char		*host = NULL, *port = NULL, *path = NULL, *last;
	char		 h[80], pt[16], l[80], t[32];
	struct tm	 tm;
	size_t		 n;

	if (C.url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		host = NULL;
	if (C.url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) !=
	    CURLUE_OK)
		port = NULL;
	if (C.url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK)
		path = NULL;
	name_part(h, sizeof(h), host != NULL ? host : "host", 64);
	name_part(pt, sizeof(pt), port != NULL ? port : "", 8);
	l[0] = '\0';
	if (path != NULL) {
		/* The last element that is not empty. */
		for (n = strlen(path); n > 0 && path[n - 1] == '/'; n--)
			path[n - 1] = '\0';
		last = strrchr(path, '/');
		last = last != NULL ? last + 1 : path;
		/* The file's own extension is added after the time. */
		for (n = 0; n < sizeof(exts) / sizeof(exts[0]); n++)
			if (strlen(last) > strlen(exts[n]) &&
			    strcmp(last + strlen(last) - strlen(exts[n]),
			    exts[n]) == 0) {
				last[strlen(last) - strlen(exts[n])] = '\0';
				break;
			}
		name_part(l, sizeof(l), last, 64);
	}
	if (gmtime_r(&when, &tm) == NULL ||
	    strftime(t, sizeof(t), "%Y%m%dT%H%M%SZ", &tm) == 0)
		strlcpy(t, "time", sizeof(t));
	snprintf(out, outlen, "%s%s%s-%s-%s", h, pt[0] != '\0' ? "_" : "", pt,
	    l[0] != '\0' ? l : "index", t);
	C.free(host);
	C.free(port);
	C.free(path);
}

/* The folder of --save, made if it is not there: 0, or -1. */
static int
save_dir(const char *dir, struct diag *d)
{
	struct stat st;

	if (mkdir(dir, 0777) == -1 && errno != EEXIST)
		return diag_set(d, DIAG_IO, -1, "cannot make the --save folder "
		    "%s: %s", dir, strerror(errno));
	if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode))
		return diag_set(d, DIAG_IO, -1, "the --save folder %s is not a "
		    "folder", dir);
	return 0;
}

#define SAVE_TRIES	1000	/* name-2 ... name-1000, then give up */

/*
 * Keep the body in a file of its own in fo->save_dir, never over one
 * that is there (a second fetch of the same URL in the same second is
 * "-2"), and tell fo->saved: 0, or -1 with the diag filled.
 */
static int
save_body(const struct fetch_opts *fo, const char *full, CURLU *u,
    time_t when, const struct body *b, struct diag *d)
{
	const char	*ext;
	char		 base[256], *path = NULL, shown[FETCH_URL_SHOWN];
	int		 fd = -1, i, err;

	ext = gunzip_is_gzip(b->buf, b->len) ? ".pb.gz" :
	    b->len > 0 && input_sniff(b->buf, b->len) == INPUT_FOLDED ?
	    ".folded" : ".pb";
	save_base(base, sizeof(base), u, when);
	for (i = 1; i <= SAVE_TRIES && fd == -1; i++) {
		free(path);
		if (i == 1)
			xasprintf(&path, "%s/%s%s", fo->save_dir, base, ext);
		else
			xasprintf(&path, "%s/%s-%d%s", fo->save_dir, base, i,
			    ext);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd == -1 && errno != EEXIST)
			break;
	}
	if (fd == -1) {
		err = errno;
		diag_set(d, DIAG_IO, -1, "cannot save it as %s: %s", path,
		    err == EEXIST ? "too many files of that name" :
		    strerror(err));
		free(path);
		return -1;
	}
	if (compat_write_all(fd, b->buf, b->len) == -1 || close(fd) == -1) {
		err = errno;
		close(fd);
		unlink(path);
		diag_set(d, DIAG_IO, -1, "cannot save it as %s: %s", path,
		    strerror(err));
		free(path);
		return -1;
	}
	if (fo->saved != NULL) {
		url_shown(shown, sizeof(shown), full);
		fo->saved(shown, path, b->len);
	}
	free(path);
	return 0;
}

/* The fetch. */

/* The handle's options for one GET of full: 0, or -1 if one is refused. */
static int
setup(CURL *h, const char *full, long total, struct body *b, char *errbuf)
{
	return C.easy_setopt(h, CURLOPT_URL, full) != CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf) != CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https") !=
	    CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") !=
	    CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L) != CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_MAXREDIRS, 10L) != CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_CONNECTTIMEOUT, (long)FETCH_CONNECT) !=
	    CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_TIMEOUT, total) != CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
	    (curl_off_t)(b->max > INT64_MAX ? INT64_MAX : b->max)) !=
	    CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_USERAGENT, "profdiff/" PD_VERSION) !=
	    CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_HEADERFUNCTION, head_line) !=
	    CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_HEADERDATA, b) != CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_WRITEFUNCTION, body_write) !=
	    CURLE_OK ||
	    C.easy_setopt(h, CURLOPT_WRITEDATA, b) != CURLE_OK ? -1 : 0;
}

int
fetch_url(const char *url, const struct pd_limits *lim, unsigned char **out,
    size_t *outlen, struct diag *d)
{
	const struct fetch_opts *fo = lim->fetch;
	char		 errbuf[CURL_ERROR_SIZE];
	struct body	 b;
	CURLU		*u;
	CURL		*h = NULL;
	CURLcode	 rc;
	char		*full = NULL, *ctype = NULL, *real;
	long		 total = 0;
	long long	 secs = 0;
	time_t		 when;
	int		 ret = -1, adjusted;

	memset(&b, 0, sizeof(b));
	b.max = lim->max_input;
	errbuf[0] = '\0';
	if (curl_ready(d) == -1)
		return -1;
	if ((u = C.url()) == NULL || (h = b.h = C.easy_init()) == NULL) {
		diag_set(d, DIAG_IO, -1, "libcurl cannot be set up");
		goto out;
	}
	/* The password the command line's URL had, if it had one. */
	real = with_password(url);
	adjusted = adjust_url(u, real != NULL ? real : url, fo, &full, &secs,
	    &total, d);
	free(real);
	if (adjusted == -1)
		goto out;
	/* A folder that cannot be had fails now, not after the profile. */
	if (fo != NULL && fo->save_dir != NULL &&
	    save_dir(fo->save_dir, d) == -1)
		goto out;
	if (setup(h, full, total, &b, errbuf) == -1) {
		diag_set(d, DIAG_IO, -1, "libcurl refuses an option");
		goto out;
	}
	when = time(NULL);
	rc = C.easy_perform(h);
	if (b.status == 0)
		(void)C.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &b.status);
	if (rc != CURLE_OK || !ok_status(b.status)) {
		transfer_error(h, rc, &b, secs, total, errbuf, d);
		goto out;
	}
	if (fo != NULL && fo->save_dir != NULL &&
	    save_body(fo, full, u, when, &b, d) == -1)
		goto out;
	/* A web page (a /debug/pprof/ index, a login form) says so. */
	if (C.easy_getinfo(h, CURLINFO_CONTENT_TYPE, &ctype) == CURLE_OK &&
	    ctype != NULL && strncasecmp(ctype, "text/html", 9) == 0) {
		diag_set(d, DIAG_FORMAT, -1, "the answer is a web page "
		    "(text/html)");
		goto out;
	}
	*out = b.buf;
	*outlen = b.len;
	b.buf = NULL;
	ret = 0;
out:
	free(b.buf);
	C.free(full);
	C.easy_cleanup(h);
	C.url_cleanup(u);
	return ret;
}

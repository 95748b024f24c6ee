/*
 * fetch_redact() (fetch.c): a password in a URL is sent, never shown.
 * Each http:// and https:// URL of an operand has its password written
 * as ***, whatever is around it (a port, a path, a query, replicates
 * joined by commas, an '@' or a ',' in the password), and nothing else
 * is touched: files, URLs without a password, a user alone, an empty
 * password, a URL in a query.  A second password for the same user
 * and host is refused.  No network: nothing is fetched.
 */
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"
#include "input/fetch.h"
#include "tap.h"

/* arg as fetch_redact() gives it; "=" when it is arg itself. */
static const char *
shown(const char *arg)
{
	const char	*out;
	struct diag	 d;

	diag_init(&d, NULL);
	if (fetch_redact(arg, &out, &d) == -1)
		return "refused";
	return out == arg ? "=" : out;
}

int
main(void)
{
	struct diag	 d;
	const char	*out;

	CHECK_STR(shown("good.pb.gz"), "=");
	CHECK_STR(shown("http://h/x"), "=");
	CHECK_STR(shown("http://user@h:6060/x"), "=");
	CHECK_STR(shown("http://user:@h/x"), "=");
	CHECK_STR(shown("http://h/x?to=http://u:p@g/y"), "=");
	CHECK_STR(shown("http://user:s3cret@h:6060/debug/pprof/profile?"
	    "seconds=5"), "http://user:***@h:6060/debug/pprof/profile?"
	    "seconds=5");
	CHECK_STR(shown("HTTPS://user:p@ss@h2"), "HTTPS://user:***@h2");
	CHECK_STR(shown("http://user:a,b@h3/x"), "http://user:***@h3/x");
	CHECK_STR(shown("http://user:pw@h4?q=@x"), "http://user:***@h4?q=@x");
	/* series' replicates: each URL of the list, and a file among them */
	CHECK_STR(shown("http://u:pw@h5/a,b.pb.gz,https://v:pw2@h6/c"),
	    "http://u:***@h5/a,b.pb.gz,https://v:***@h6/c");
	/* The same password again is the same URL; another is refused. */
	CHECK_STR(shown("http://user:s3cret@h:6060/other"),
	    "http://user:***@h:6060/other");
	diag_init(&d, NULL);
	CHECK_INT(fetch_redact("http://user:other@h:6060/x", &out, &d), -1);
	CHECK_STR(out, "http://user:***@h:6060/x");
	CHECK(strstr(d.msg, "another password") != NULL);
	CHECK(strstr(d.msg, "other@") == NULL);
	fetch_global_cleanup();
	return tap_done();
}

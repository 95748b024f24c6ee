/*
 * Sample filters on POSIX extended regular expressions.  A sample is kept
 * when (no --focus, or some frame matches it) and (no --ignore, or no
 * frame matches it).  No I/O here.
 */
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "filter.h"
#include "profile.h"
#include "xmalloc.h"

struct filter {
	regex_t		 focus;
	regex_t		 ignore;
	int		 has_focus;
	int		 has_ignore;
};

static int
compile(regex_t *re, const char *pat, const char *opt, struct diag *d)
{
	char	 err[128];
	int	 rc;

	if ((rc = regcomp(re, pat, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(rc, re, err, sizeof(err));
		regfree(re);
		return diag_set(d, DIAG_USAGE, -1, "bad regular expression "
		    "for %s '%s': %s", opt, pat, err);
	}
	return 0;
}

struct filter *
filter_new(const char *focus, const char *ignore, struct diag *d)
{
	struct filter *f;

	f = xcalloc(1, sizeof(*f));
	if (focus != NULL) {
		if (compile(&f->focus, focus, "--focus", d) == -1) {
			free(f);
			return NULL;
		}
		f->has_focus = 1;
	}
	if (ignore != NULL) {
		if (compile(&f->ignore, ignore, "--ignore", d) == -1) {
			filter_free(f);
			return NULL;
		}
		f->has_ignore = 1;
	}
	return f;
}

void
filter_free(struct filter *f)
{
	if (f == NULL)
		return;
	if (f->has_focus)
		regfree(&f->focus);
	if (f->has_ignore)
		regfree(&f->ignore);
	free(f);
}

static int
loc_matches(const regex_t *re, const struct pf_location *l)
{
	size_t i;

	for (i = 0; i < l->nlines; i++) {
		const struct pf_function *fn = l->lines[i].function;

		if (fn == NULL)
			continue;
		if (regexec(re, fn->name, 0, NULL, 0) == 0 ||
		    (fn->filename[0] != '\0' &&
		    regexec(re, fn->filename, 0, NULL, 0) == 0))
			return 1;
	}
	if (l->nlines == 0 && l->mapping != NULL &&
	    l->mapping->filename[0] != '\0')
		return regexec(re, l->mapping->filename, 0, NULL, 0) == 0;
	return 0;
}

static int
any_frame(const regex_t *re, const struct pf_sample *s)
{
	size_t i;

	for (i = 0; i < s->nlocs; i++)
		if (loc_matches(re, s->locs[i]))
			return 1;
	return 0;
}

int
filter_keep(void *arg, const struct pf_sample *s)
{
	const struct filter *f = arg;

	if (f->has_focus && !any_frame(&f->focus, s))
		return 0;
	if (f->has_ignore && any_frame(&f->ignore, s))
		return 0;
	return 1;
}

/*
 * The spans of a trace, as the model: adding, sorting by id, and the
 * quantiles of their durations.  No format and no I/O here.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/spans.h"
#include "support/xmalloc.h"

void
spans_init(struct spans *s)
{
	memset(s, 0, sizeof(*s));
}

void
spans_release(struct spans *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].id);
		free(s->v[i].name);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void
spans_add(struct spans *s, const char *id, size_t idlen, const char *name,
    int64_t dur_ns)
{
	struct span	*sp;
	size_t		 i;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	sp = &s->v[s->n++];
	sp->id = xmalloc(idlen + 1);
	for (i = 0; i < idlen; i++)
		sp->id[i] = (char)tolower((unsigned char)id[i]);
	sp->id[idlen] = '\0';
	sp->name = xstrdup(name);
	sp->dur_ns = dur_ns < 0 ? 0 : dur_ns;
}

static int
by_id(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c != 0)
		return c;
	return x < y ? -1 : x > y;
}

size_t
spans_dedup(struct spans *s)
{
	size_t i, k = 0, dropped = 0;

	qsort(s->v, s->n, sizeof(*s->v), by_id);
	for (i = 0; i < s->n; i++) {
		if (k > 0 && strcmp(s->v[k - 1].id, s->v[i].id) == 0) {
			free(s->v[i].id);
			free(s->v[i].name);
			dropped++;
			continue;
		}
		s->v[k++] = s->v[i];
	}
	s->n = k;
	return dropped;
}

int64_t
spans_quantile(const int64_t *d, size_t n, double q)
{
	double	 r;
	size_t	 k;

	if (n == 0)
		return 0;
	r = ceil(q * (double)n);
	k = r < 1 ? 0 : (size_t)r - 1;
	if (k >= n)
		k = n - 1;
	return d[k];
}

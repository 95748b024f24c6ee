/*
 * Where a change entered: findings that came in through one caller's
 * calls of shared functions, joined into one (delta.h, struct
 * delta_finding: entry, joined).  No I/O here.
 *
 * A function that calls malloc and free eight times more per item makes
 * two findings, one in each: each is significant, and the caller's own
 * cum, a third of the profile and wide between processes, may not be.
 * Both paths pass the caller, and what sets it apart from the callers
 * of any two findings is the calls: malloc and free are called from
 * many places, and nearly all of their change came through this one's
 * calls.  That is the call where the change entered the subtree, and
 * findings that entered through one caller are one change.  A shared
 * helper made slower is not such a call: its change comes through its
 * callers as their calls of it did before.  Nor is a function called
 * from one place only: its one caller carries all of every change of
 * it, whatever the change is, so two changes under one caller stay
 * two.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/delta.h"
#include "core/entry.h"
#include "core/runtime.h"
#include "support/xmalloc.h"

/*
 * A call x -> y carries y's change when at least this much of y's
 * change (the sum of its callers' calls') came through it...
 */
#define ENTRY_CARRIES	0.8
/* ...and y is shared: x made at most this much of y's calls before. */
#define ENTRY_SHARED	0.7

/*
 * Did finding f's change, in direction dir, enter y through x's calls
 * (above)?
 */
static int
entered(struct delta *d, size_t x, size_t y, int dir)
{
	const struct delta_edge *e;
	double	 all = 0, mine = 0, ch;
	int64_t	 base = 0, xbase = 0;
	size_t	 n, i;

	n = delta_edges(d, y, 0, &e);
	for (i = 0; i < n; i++) {
		if (e[i].from == y)
			continue;
		ch = dir * delta_edge_change(d, &e[i]);
		all += ch;
		base += e[i].base;
		if (e[i].from == x) {
			mine = ch;
			xbase = e[i].base;
		}
	}
	return mine > 0 && all > 0 && mine >= ENTRY_CARRIES * all &&
	    base > 0 && (double)xbase <= ENTRY_SHARED * (double)base;
}

/*
 * The outermost frame of f's path whose call into the next entered
 * (entered()), a frame of code; SIZE_MAX if none did.
 */
static size_t
entry_of(struct delta *d, const struct delta_finding *f)
{
	int	 dir = f->verdict == VERDICT_REGRESSED ? 1 : -1;
	size_t	 i;

	for (i = 0; i + 1 < f->npath; i++)
		if (d->rows[f->path[i]].frame == RT_CODE &&
		    entered(d, f->path[i], f->path[i + 1], dir))
			return f->path[i];
	return SIZE_MAX;
}

/* Append the rows of b[0..nb) that a[0..*na) lacks (seen: a's, marked). */
static void
add_rows(size_t **a, size_t *na, const size_t *b, size_t nb,
    unsigned char *seen)
{
	size_t	 i;

	*a = xreallocarray(*a, *na + nb + 1, sizeof(**a));
	for (i = 0; i < *na; i++)
		seen[(*a)[i]] = 1;
	for (i = 0; i < nb; i++)
		if (!seen[b[i]]) {
			seen[b[i]] = 1;
			(*a)[(*na)++] = b[i];
		}
	for (i = 0; i < *na; i++)
		seen[(*a)[i]] = 0;
}

/* Finding k joins finding i: its rows, what it crowded, and itself. */
static void
join(struct delta *d, size_t i, size_t k, unsigned char *seen)
{
	struct delta_finding *f = &d->findings[i], *g = &d->findings[k];
	size_t	 r;

	add_rows(&f->rows, &f->nrows, g->rows, g->nrows, seen);
	add_rows(&f->crowded, &f->ncrowded, g->crowded, g->ncrowded, seen);
	add_rows(&f->background, &f->nbackground, g->background,
	    g->nbackground, seen);
	f->joined = xreallocarray(f->joined, f->njoined + 1,
	    sizeof(*f->joined));
	f->joined[f->njoined].row = g->row;
	f->joined[f->njoined++].change = g->delta;
	for (r = 0; r < d->nrows; r++)
		if (d->rows[r].finding == (long)k)
			d->rows[r].finding = (long)i;
}

static int
kept(void *arg, const struct delta *d, const struct delta_finding *f)
{
	const unsigned char *gone = arg;

	return !gone[f - d->findings];
}

void
delta_join_findings(struct delta *d)
{
	unsigned char	*gone, *seen;
	size_t		 i, k;

	if (d->nfindings < 1)
		return;
	for (i = 0; i < d->nfindings; i++)
		d->findings[i].entry = entry_of(d, &d->findings[i]);
	gone = xcalloc(d->nfindings + 1, 1);
	seen = xcalloc(d->nrows + 1, 1);
	/* The findings are largest first: each joins the first it can. */
	for (k = 1; k < d->nfindings; k++) {
		const struct delta_finding *g = &d->findings[k];

		for (i = 0; i < k; i++) {
			const struct delta_finding *f = &d->findings[i];

			if (gone[i] || f->verdict != g->verdict ||
			    f->runtime != g->runtime)
				continue;
			if (g->entry != SIZE_MAX && (g->entry == f->entry ||
			    g->entry == f->row)) {
				join(d, i, k, seen);
				gone[k] = 1;
				break;
			}
			if (f->entry != SIZE_MAX && f->entry == g->row) {
				join(d, i, k, seen);
				gone[k] = 1;
				break;
			}
		}
	}
	delta_keep_findings(d, kept, gone);
	free(gone);
	free(seen);
}

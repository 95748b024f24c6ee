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
 * two, unless the calls are new: a function called from nowhere before
 * entered through the caller that now calls it, since a new call is a
 * change of the caller's code (a C search now calling malloc and free,
 * neither called in the base profile's samples).
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
 * (above)?  Calls of y that are all new (none before) entered through
 * the caller that makes them, shared or not: a new call is a change of
 * the caller's code.
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
	if (mine <= 0 || all <= 0 || mine < ENTRY_CARRIES * all)
		return 0;
	/* No calls before: new calls, a change of the caller's code. */
	return base == 0 ||
	    (double)xbase <= ENTRY_SHARED * (double)base;
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

/*
 * Finding k joins finding i: its rows, what it crowded, and itself (the
 * rows' findings are renumbered after).
 */
static void
join(struct delta *d, size_t i, size_t k, unsigned char *seen)
{
	struct delta_finding *f = &d->findings[i], *g = &d->findings[k];

	add_rows(&f->rows, &f->nrows, g->rows, g->nrows, seen);
	add_rows(&f->crowded, &f->ncrowded, g->crowded, g->ncrowded, seen);
	add_rows(&f->background, &f->nbackground, g->background,
	    g->nbackground, seen);
	f->joined = xreallocarray(f->joined, f->njoined + 1,
	    sizeof(*f->joined));
	f->joined[f->njoined].row = g->row;
	f->joined[f->njoined++].change = g->delta;
}

static int
kept(void *arg, const struct delta *d, const struct delta_finding *f)
{
	const unsigned char *gone = arg;

	return !gone[f - d->findings];
}

/* Did findings f and g enter through the same calls, or one into the other? */
static int
related(const struct delta_finding *f, const struct delta_finding *g)
{
	if (f->verdict != g->verdict || f->runtime != g->runtime)
		return 0;
	return (f->entry != SIZE_MAX && (f->entry == g->entry ||
	    f->entry == g->row)) || (g->entry != SIZE_MAX && g->entry == f->row);
}

/* The first finding of i's set (up[]: a finding's earlier one in it). */
static size_t
first(size_t *up, size_t i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

static void
unite(struct delta *d, size_t *up, size_t i, size_t k)
{
	size_t	 a, b;

	if (i == SIZE_MAX || i == k ||
	    !related(&d->findings[i], &d->findings[k]))
		return;
	a = first(up, i);
	b = first(up, k);
	if (a < b)
		up[b] = a;
	else
		up[a] = b;
}

/* Is row r on finding f's path? */
static int
on_path(const struct delta_finding *f, size_t r)
{
	size_t	 i;

	for (i = 0; i < f->npath; i++)
		if (f->path[i] == r)
			return 1;
	return 0;
}

/*
 * A set of findings (m[0..n), largest first) is told as one: the
 * largest whose path passes the entry that the most of them entered
 * through (of equals, the first's), with that entry; the others join
 * it.  cnt: a count per row, all 0, left so.  Returns its index.
 */
static size_t
leader(struct delta *d, const size_t *m, size_t n, size_t *cnt)
{
	size_t	 i, e = d->findings[m[0]].entry, best = 0;

	for (i = 0; i < n; i++) {
		size_t x = d->findings[m[i]].entry;

		if (x != SIZE_MAX && ++cnt[x] > best) {
			best = cnt[x];
			e = x;
		}
	}
	for (i = 0; i < n; i++)
		if (d->findings[m[i]].entry != SIZE_MAX)
			cnt[d->findings[m[i]].entry] = 0;
	for (i = 0; i < n; i++)
		if (on_path(&d->findings[m[i]], e)) {
			d->findings[m[i]].entry = e;
			return m[i];
		}
	return m[0];
}

void
delta_join_findings(struct delta *d)
{
	unsigned char	*gone, *seen;
	size_t		*up, *at[3], *cnt, *m, *off, i, k, nf = d->nfindings;
	int		 v;

	for (i = 0; i < nf; i++)
		d->findings[i].entry = entry_of(d, &d->findings[i]);
	if (nf < 2)
		return;
	/*
	 * Sets of related findings: by row, the first finding with that
	 * entry, a side (at[0], at[1]), and the finding spent there (at[2]).
	 */
	up = xreallocarray(NULL, nf, sizeof(*up));
	for (v = 0; v < 3; v++) {
		at[v] = xreallocarray(NULL, d->nrows + 1, sizeof(*at[v]));
		for (i = 0; i <= d->nrows; i++)
			at[v][i] = SIZE_MAX;
	}
	for (i = 0; i < nf; i++) {
		const struct delta_finding *f = &d->findings[i];

		up[i] = i;
		v = f->verdict == VERDICT_REGRESSED;
		if (f->entry != SIZE_MAX && at[v][f->entry] == SIZE_MAX)
			at[v][f->entry] = i;
		at[2][f->row] = i;
	}
	for (k = 0; k < nf; k++) {
		const struct delta_finding *g = &d->findings[k];

		v = g->verdict == VERDICT_REGRESSED;
		if (g->entry != SIZE_MAX) {
			unite(d, up, at[v][g->entry], k);
			unite(d, up, at[2][g->entry], k);
		}
		unite(d, up, at[v][g->row], k);
	}
	/* Each set's members, largest first, then each set's leader. */
	off = xcalloc(nf + 1, sizeof(*off));
	m = xreallocarray(NULL, nf, sizeof(*m));
	for (k = 0; k < nf; k++)
		off[first(up, k) + 1]++;
	for (k = 0; k < nf; k++)
		off[k + 1] += off[k];
	cnt = at[2];		/* reused: a count per row, all 0 */
	for (i = 0; i <= d->nrows; i++)
		cnt[i] = 0;
	for (k = 0; k < nf; k++)
		m[off[first(up, k)]++] = k;
	for (k = nf; k > 0; k--)
		off[k] = off[k - 1];
	off[0] = 0;
	gone = xcalloc(nf + 1, 1);
	seen = xcalloc(d->nrows + 1, 1);
	for (k = 0; k < nf; k++) {
		size_t n = off[k + 1] - off[k], l;

		if (n < 2)
			continue;
		l = leader(d, m + off[k], n, cnt);
		for (i = off[k]; i < off[k + 1]; i++)
			if (m[i] != l) {
				join(d, l, m[i], seen);
				gone[m[i]] = 1;
				up[m[i]] = l;	/* now: where it went */
			}
	}
	for (i = 0; i < d->nrows; i++)
		if (d->rows[i].finding >= 0 && gone[d->rows[i].finding])
			d->rows[i].finding = (long)up[d->rows[i].finding];
	delta_keep_findings(d, kept, gone);
	free(gone);
	free(seen);
	free(up);
	free(off);
	free(m);
	for (v = 0; v < 3; v++)
		free(at[v]);
}

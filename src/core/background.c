/*
 * The runtime's work that follows the load rather than any code of its
 * own (findings_int.h): the collector's and the scheduler's rows, set
 * aside as the background of the findings next to them, and the samples
 * of other rows that are that work, which the tests of the rest of the
 * profile leave out.  Core: no I/O.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/delta.h"
#include "core/findings_int.h"
#include "core/flow.h"
#include "core/runtime.h"
#include "support/xmalloc.h"

/*
 * Did the runtime's work set aside that lies under row r
 * (calls_above()) move the way r's cum did, so that part of r's change
 * is that work's?  runtime.mallocgc's fall, as the collection assists
 * it makes allocating code do moved to the background workers of a
 * saturated process, is; so is runtime.growslice's above it.  The
 * collector's rows are set aside together, and only their sum is the
 * collector's change, held by the finding it is the background of:
 * a row is tested on what it did besides, as a function that allocates
 * less is tested on its own fall, without the assists it no longer
 * makes.  (Half of r's change at least, as the walk asks of a callee,
 * left growslice's fall an improvement in 18 of 60 saturated Go pairs
 * three a side, where the assists were a third of it; mallocgc's too,
 * once calls_above() took the recursion under it in order.)
 */
static int
bg_carries(struct fctx *c, size_t r)
{
	const struct delta_row *row = &c->d->rows[r];
	int64_t		 a[2];
	double		 dr, da;
	int		 s;

	for (s = 0; s < 2; s++)
		a[s] = as_count(row, (int64_t)llround(c->bgabove[s][r]), s);
	dr = share(count(row, 0, 1), c->d->new_cden) -
	    share(count(row, 0, 0), c->d->base_cden);
	da = share(a[1], c->d->new_cden) - share(a[0], c->d->base_cden);
	return da * dr > 0;
}

/*
 * The samples of row r's hypothesis that are the runtime's work set
 * aside (find_background()) on one side: a shared callee of the collector
 * (Go's runtime.systemstack) has its part of it under it; a caller of
 * the collector's frames whose change their work carries (bg_carries())
 * has it in its cum, and so has a caller of the profiler's own work.
 * The larger of the two, since a row between the
 * collector's frames has the same samples in both.  Not the scheduler's
 * frames above: runtime.asyncPreempt lands on whatever code ran, as
 * often as the code ran long enough to be preempted, and a function
 * that runs longer has more of it.
 */
int64_t
find_bg_joint(struct fctx *c, size_t r, int flat, int side)
{
	const struct delta_row *row = &c->d->rows[r];
	int64_t		 k = count(row, flat, side), j;
	double		 w;

	if (c->bgset[r])
		return k;
	w = c->bgflow[side][r];
	if (!flat && c->bgabove[side] != NULL && c->bgabove[side][r] > w &&
	    bg_carries(c, r))
		w = c->bgabove[side][r];
	j = as_count(row, (int64_t)llround(w), side);
	if (flat && count(row, 0, side) > 0)
		j = (int64_t)llround((double)j * (double)k /
		    (double)count(row, 0, side));
	return j < k ? j : k;
}

/*
 * Mark in set the rows of runtime frames of class what, and all that
 * each dominates; n[] gets their samples a side, each counted once.
 */
static void
mark_class(struct fctx *c, enum rt_frame what, unsigned char *set,
    int64_t n[2])
{
	unsigned char	*reg;
	size_t		 i, k;

	n[0] = n[1] = 0;
	for (i = 0; i < c->n; i++) {
		if (set[i] || (enum rt_frame)c->d->rows[i].frame != what)
			continue;
		reg = region(c, i);
		for (k = 0; k < c->n; k++)
			if (reg[k] && k != i && set[k]) {
				n[0] -= c->d->rows[k].base_count;
				n[1] -= c->d->rows[k].new_count;
			}
		for (k = 0; k < c->n; k++)
			set[k] |= reg[k];
		n[0] += c->d->rows[i].base_count;
		n[1] += c->d->rows[i].new_count;
		free(reg);
	}
}

/*
 * The scheduler's rows, the threads that run no code of the program,
 * the profiler's own work and (waits) the C library's waits, as
 * mark_class() marks one: the load's.
 */
static void
mark_sched(struct fctx *c, unsigned char *set, int64_t n[2], int waits)
{
	static const enum rt_frame load[] = { RT_SCHED, RT_THREADS,
		RT_PROFILER, RT_WAIT };
	int64_t	 w[2];
	size_t	 i;

	for (i = 0, n[0] = n[1] = 0; i < 4 - !waits; i++) {
		mark_class(c, load[i], set, w);
		n[0] += w[0];
		n[1] += w[1];
	}
}

/*
 * Is row i of set work that its callers carry without it being theirs,
 * so that a caller whose change it mostly is is tested without it: the
 * collector's (assists moved to its workers), the profiler's own (its
 * encoder, called from the event loop's timers)?
 */
static int
bg_beneath(const struct fctx *c, const unsigned char *set, size_t i)
{
	return set[i] && ((c->gc != NULL && c->gc[i]) ||
	    c->d->rows[i].frame == RT_PROFILER);
}

/*
 * The rows of set (NULL: none) and what lies under them, as find_still()
 * takes them out of a row's samples.
 */
void
find_bg_under(struct fctx *c, const unsigned char *set)
{
	unsigned char	*above;
	size_t		 i;

	free(c->bgset);
	free(c->bgflow[0]);
	free(c->bgflow[1]);
	free(c->bgabove[0]);
	free(c->bgabove[1]);
	c->bgset = NULL;
	c->bgflow[0] = c->bgflow[1] = NULL;
	c->bgabove[0] = c->bgabove[1] = NULL;
	/* An empty set is none: no flows, and no call graph read for them. */
	for (i = 0; set != NULL && i < c->n && !set[i]; i++)
		continue;
	if (set == NULL || i == c->n)
		return;
	c->bgset = xcalloc(c->n + 1, 1);
	memcpy(c->bgset, set, c->n);
	flows(c, set, c->bgflow);
	/* The collector's and the profiler's only: see bg_joint(). */
	for (i = 0; i < c->n && !bg_beneath(c, set, i); i++)
		continue;
	if (i == c->n)
		return;
	above = xcalloc(c->n + 1, 1);
	for (i = 0; i < c->n; i++)
		above[i] = bg_beneath(c, set, i);
	c->bgabove[0] = xreallocarray(NULL, c->n + 1, sizeof(*c->bgabove[0]));
	c->bgabove[1] = xreallocarray(NULL, c->n + 1, sizeof(*c->bgabove[1]));
	calls_above(c->d, calls_of(c->d), above, c->bgabove);
	free(above);
}

/* Set aside the rows of set that moved. */
static void
set_aside(struct fctx *c, const unsigned char *set, enum rt_frame what,
    const int64_t n[2])
{
	size_t	 i;
	int	 s;

	for (i = 0; i < c->n; i++)
		if (set[i] && c->dir[i] != 0) {
			push(&c->bg, &c->nbg, &c->cap_bg, i);
			c->dir[i] = 0;
			/* Its own class, or (a callee) the set's. */
			c->d->rows[i].runtime = c->d->rows[i].frame ?
			    c->d->rows[i].frame : (int)what;
		}
	for (s = 0; s < 2 && as_shares(c); s++)
		c->excl[s] += n[s] > 0 ? n[s] : 0;
}

/*
 * The runtime's work that follows the load rather than any code of its
 * own: the rows that runtime.h calls collection or scheduling, and all
 * that each dominates.
 *
 * The collector (Go's background mark workers and sweeper, V8's
 * collector frame) runs apart from the code that allocates: a change of
 * it is a change of how much some code allocates, and it lands outside
 * that code's stacks.  Where it grew as a regression of the code did,
 * it is that regression's background cost, not a finding of its own.
 *
 * The scheduler (Go's runtime.mcall, runtime.mstart and what they run:
 * parking, finding work, stealing it) costs more when goroutines park
 * and wake more often and less when they are busy, and so do a VM's
 * threads that run no code of the program: a change of code moves them
 * either way.  Next to one, they are its background; alone, the load.
 *
 * Such rows leave the pool, and their samples leave the rest of the
 * profile that later groups are tested on, so that the share they took
 * or gave back does not make unchanged functions look changed.
 */
void
find_background(struct fctx *c)
{
	unsigned char	*sched, *all;
	size_t		 i;
	int		 reg = 0, any = 0, gc = 0, s;
	int64_t		 gcn[2], scn[2];

	c->gc = xcalloc(c->n + 1, 1);
	sched = xcalloc(c->n + 1, 1);
	all = xcalloc(c->n + 1, 1);
	mark_class(c, RT_GC, c->gc, gcn);
	mark_sched(c, sched, scn, 1);
	/*
	 * Is a change of code left when the runtime's samples leave the
	 * rest?  Code that only gained the share the scheduler gave up (or
	 * lost what the collector took) is no change: then the runtime's
	 * is the finding.
	 */
	for (s = 0; s < 2 && as_shares(c); s++)
		c->excl[s] += (gcn[s] > 0 ? gcn[s] : 0) +
		    (scn[s] > 0 ? scn[s] : 0);
	for (i = 0; i < c->n; i++)
		all[i] = sched[i] | c->gc[i];
	find_bg_under(c, all);
	for (i = 0; i < c->n; i++)
		if (!all[i] && c->dir[i] != 0 &&
		    (c->dir[i] > 0 ? !reg : !any) && find_still(c, i) == 1) {
			any = 1;
			if (c->dir[i] > 0)
				reg = 1;
		}
	find_bg_under(c, NULL);
	for (s = 0; s < 2 && as_shares(c); s++)
		c->excl[s] -= (gcn[s] > 0 ? gcn[s] : 0) +
		    (scn[s] > 0 ? scn[s] : 0);
	/*
	 * Did the collector's share grow, as a regression's would make it?
	 * Or fall next to any change of code: work displaced in a saturated
	 * process allocates less, and its collection falls with it (with
	 * rates, only where their level is bound, as_shares()).  Then all
	 * its rows that moved are set aside, either way: its work moves
	 * between the assists that allocating code is made to do and its
	 * background workers as the load changes (Go's assists fell as a
	 * saturated process's workers took the marking on), and only their
	 * sum is the collector's change.
	 */
	if (reg && c->d->base_cden > 0 && c->d->new_cden > 0 &&
	    share(gcn[1], c->d->new_cden) > share(gcn[0], c->d->base_cden)) {
		set_aside(c, c->gc, RT_GC, gcn);
		gc = 1;
	} else if (any && as_shares(c) && c->d->base_cden > 0 &&
	    c->d->new_cden > 0 &&
	    share(gcn[1], c->d->new_cden) < share(gcn[0], c->d->base_cden)) {
		set_aside(c, c->gc, RT_GC, gcn);
		gc = 1;
	}
	if (!any) {
		memset(sched, 0, c->n + 1);
		mark_sched(c, sched, scn, 0);
	}
	set_aside(c, sched, RT_SCHED, scn);
	/* What was set aside, and all it dominates, for find_still(). */
	for (i = 0; i < c->n; i++)
		all[i] = sched[i] || (gc && c->gc[i]);
	find_bg_under(c, all);
	free(sched);
	free(all);
}

/*
 * The rows set aside as background go with the largest regression (or,
 * with none, the largest finding), as its parts: where its allocations
 * were collected, how its work changed the scheduling.
 */
void
find_attach_background(struct fctx *c)
{
	size_t	 i, to = SIZE_MAX;

	for (i = 0; i < c->nacc; i++)
		if (c->acc[i].dir > 0 && (to == SIZE_MAX ||
		    find_size_of(c, i) > find_size_of(c, to)))
			to = i;
	/* With no regression, the scheduler's moves go with the largest. */
	if (to == SIZE_MAX)
		for (i = 0; i < c->nacc; i++)
			if (to == SIZE_MAX || find_size_of(c, i) > find_size_of(c, to))
				to = i;
	for (i = 0; i < c->nbg; i++) {
		struct delta_row *row = &c->d->rows[c->bg[i]];

		if (to == SIZE_MAX) {
			row->verdict = VERDICT_UNCHANGED;
			continue;
		}
		find_join(c, to, c->bg[i], DELTA_ROLE_BACKGROUND);
		if (row->verdict == VERDICT_IMPROVED && as_shares(c))
			row->verdict = VERDICT_CROWDED_OUT;
	}
}

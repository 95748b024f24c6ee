/*
 * Findings: the rows of a diff grouped into changes of the call tree
 * (delta.h, struct delta_finding).  A change shows as many rows: the
 * function where it is spent, every ancestor that contains it (its
 * carriers), the functions below it that came or went with it, and,
 * since shares sum to one, other functions whose share fell only
 * because it grew (crowded out) or rose only because it shrank (crowded
 * in).  This file tells them apart, from the rows' verdicts, the union
 * call graph of the two sides (delta_edges()), and tests of shares of
 * the rest of the profile (judge_retest()).  No I/O here.
 *
 * The steps, each a function below:
 *
 * 1. descend(): from each significant row, delta_walk() follows the
 *    callee edge that carries most of the change while that callee
 *    changed the same way significantly, carries at least half of the
 *    current function's change, and more than the function's own flat
 *    change; it stops at a function that is new (or gone) on the side
 *    of the change.  Where the walk stops is where the change is spent.
 * 2. groups(): the rows grouped by where their walks stop, the
 *    strongest evidence first.
 * 3. accept(): the first group is a finding.  Each later one is tested
 *    again on the rest of the profile, without the samples of the
 *    findings accepted before it: if it is still a significant and
 *    relevant change there, it is a finding; if not, each of its rows
 *    that is not significant on the rest either is settled (settle())
 *    once the rounds are over: in a finding of its direction that
 *    holds it, else crowded (or, failing before any finding was
 *    accepted, unchanged).  A finding takes with it every row of its
 *    direction that it dominates.
 * 4. ascend(): a finding's path runs from its outermost carrier down
 *    through the callers that carry the most of the change.
 * 5. below(): where a change of a function's cum is, below it: its
 *    calls into the finding's rows that changed with it.
 *
 * What the aggregates do not say is how many samples two functions
 * share.  It is exact where one dominates the other in the union graph
 * (every path from a root to it passes the other); otherwise it is
 * estimated from the values of the edges that enter one from the region
 * the other dominates (joint()), and none when there are no such edges.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/delta.h"
#include "core/entry.h"
#include "core/findings_int.h"
#include "core/flow.h"
#include "core/judge.h"
#include "core/region.h"
#include "core/runtime.h"
#include "support/xmalloc.h"

#define FIND_MAX_PATH	64
/*
 * The regions of up to this many rows are delta_region()'s own, walked
 * one at a time; past them, every row's is found at once (region.c):
 * most diffs ask for few, and a deep stack for as many as its frames.
 */
#define FIND_WALKED	32

/* Step 1: where the walk from row r stops (delta_walk()). */
static size_t
descend(struct fctx *c, size_t r)
{
	size_t path[FIND_MAX_PATH];

	return path[delta_walk(c->d, r, c->dir, path, FIND_MAX_PATH) - 1];
}

/*
 * The samples row r's hypothesis shares with finding a on one side.
 * A finding of cum samples: all of r's if a dominates r, all of a's if
 * r dominates a, else what the edges from the region of the one into
 * the other carry (none when neither calls into the other's region: a
 * walk over all that each reaches costs a pass over the whole graph on
 * a large profile, for what the edges bound already).  A finding of
 * flat samples (a's own code): only a itself and its ancestors share
 * them.
 */
static int64_t
joint(struct fctx *c, struct accepted *a, size_t r, int flat, int side)
{
	const struct delta_row *row = &c->d->rows[r], *x;
	int64_t		 k = count(row, flat, side), j;

	x = &c->d->rows[a->spend];
	if (a->flat) {
		j = count(x, 1, side);
		if (r != a->spend && flat)
			return 0;
		if (r != a->spend)
			j = (int64_t)llround((double)j * under(c, r, a->spend,
			    side));
		return j < k ? j : k;
	}
	if (a->region[r])
		return k;
	/* Below a: what lies under its region; 0 if r is not below. */
	if ((j = as_count(row, (int64_t)llround(a->flow[side][r]),
	    side)) > 0) {
		if (flat && count(row, 0, side) > 0)
			j = (int64_t)llround((double)j * (double)k /
			    (double)count(row, 0, side));
		return j < k ? j : k;
	}
	/* Above a: what r's region calls a with; 0 if r is not above. */
	if (flat)
		return 0;
	j = (int64_t)llround((double)count(x, 0, side) * under(c, r,
	    a->spend, side));
	return j < k ? j : k;
}

/* A part of rest_total() as the engine's share of side s. */
static double
rest_scale(const struct fctx *c, int s)
{
	double vden = s ? c->d->new_vden : c->d->base_vden;

	if (c->d->exposure && c->d->bounded)
		return vden > 0 ? (double)(s ? c->d->new_total :
		    c->d->base_total) / vden : 0;
	return c->d->cscale;
}

/*
 * Is row r still a significant and relevant change in its direction
 * on the rest of the profile, without the samples of the findings
 * accepted so far?  1, 0, or -1 if the test failed.
 */
int
find_still(struct fctx *c, size_t r)
{
	const struct delta_row *row = &c->d->rows[r];
	const struct judge_hyp *h;
	int64_t		 k[2], n[2];
	size_t		 i;
	int		 s, flat = row->hyp == DELTA_HYP_FLAT, t, in;

	if (c->nacc == 0 && c->excl[0] == 0 && c->excl[1] == 0 &&
	    c->bgset == NULL)
		return 1;
	/*
	 * Inside a finding of the other direction, every sample of r is
	 * one of the finding's, and left the rest with it.  r changed on
	 * its own if its share of the rest with its samples put back
	 * moved: a callee that only kept its work while a sibling grew
	 * (allocation added next to it) lost share to the finding, and is
	 * crowded out by it; one that did less is an improvement.
	 */
	for (i = 0, in = 0; i < c->nacc; i++)
		if (c->acc[i].dir != c->dir[r] && !c->acc[i].flat &&
		    c->acc[i].region[r])
			in = 1;
	h = flat ? &row->flat : &row->cum;
	for (s = 0; s < 2; s++) {
		k[s] = count(row, flat, s);
		for (i = 0; i < c->nacc; i++)
			if (!(c->acc[i].dir != c->dir[r] && !c->acc[i].flat &&
			    c->acc[i].region[r]))
				k[s] -= joint(c, &c->acc[i], r, flat, s);
		if (c->bgset != NULL)
			k[s] -= find_bg_joint(c, r, flat, s);
		n[s] = rest_total(c, s) - c->excl[s];
		/*
		 * With nothing of the profile left outside the finding,
		 * the rest says nothing: r changed against the change
		 * around it, on its own.
		 */
		if (in && n[s] <= 0)
			return 1;
		if (in)
			n[s] += count(row, 0, s);
		if (k[s] < 0)
			k[s] = 0;
		if (n[s] <= 0)
			return 0;
		if (k[s] > n[s])
			k[s] = n[s];
	}
	/*
	 * A rate that no finding shares a sample with is tested by its own
	 * counts alone, as the family tested it: its verdict stands.
	 */
	if (!as_shares(c) && k[0] == count(row, flat, 0) &&
	    k[1] == count(row, flat, 1))
		return 1;
	if ((t = judge_retest(c->j, k[0], n[0], k[1], n[1], h->phi,
	    h->df, judge_step(c->j, 1))) <= 0)
		return t;
	if (c->dir[r] * (share(k[1], n[1]) - share(k[0], n[0])) <= 0)
		return 0;
	return judge_relevant(c->j, rest_scale(c, 0) * share(k[0], n[0]),
	    rest_scale(c, 1) * share(k[1], n[1]));
}

/* Step 2: a group of rows whose walks stop at the same row. */
struct group {
	size_t		 spend;
	int		 dir;
	double		 strength;	/* |z| of the spend's test */
	double		 size;		/* |change| where it is spent */
	const char	*name;		/* spend's, to break ties */
	long		 into;		/* merged into this group, or -1 */
	int		 done;
};

/*
 * The strongest evidence first: the change whose test is furthest from
 * chance is the likeliest cause of the others, whatever its unit (a
 * leaf's flat share, a caller's cum) and size.  A function that only
 * lost share to a regression moves by a fraction of its own share, and
 * its z is smaller than the regression's.  Then the larger change.  Two
 * changes alike (a function that took exactly what another gave up) say
 * nothing about which one moved: the regression goes first, so that a
 * tie never hides one.
 */
static int
cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (fabs(x->strength - y->strength) > 1e-9 * fmax(x->strength,
	    y->strength))
		return x->strength > y->strength ? -1 : 1;
	if (fabs(x->size - y->size) > 1e-9 * fmax(x->size, y->size))
		return x->size > y->size ? -1 : 1;
	if (x->dir != y->dir)
		return x->dir > y->dir ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * In a thread that saturated (delta.h), the changes of the way that
 * took its time go first, each way in its order, when the largest of
 * all is of that way: it is what took the time, and what it displaced
 * is not a finding before it (displaced()), however strong its test
 * (V8's renderResponse, fallen to a third, tested stronger than the
 * search that took 40 points).  When the largest went the other way (a
 * function made cheaper while more requests came), nothing is moved.
 * Returns 1 if the largest is of that way (fctx.sat_rise).
 */
static int
first_way(struct group *g, size_t ng, int dir)
{
	struct group	*t;
	size_t		 i, k = 0, big = 0;
	int		 pass;

	for (i = 1; i < ng; i++)
		if (g[i].size > g[big].size)
			big = i;
	if (ng == 0 || g[big].dir != dir)
		return 0;
	t = xreallocarray(NULL, ng, sizeof(*t));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < ng; i++)
			if ((g[i].dir == dir) == (pass == 0))
				t[k++] = g[i];
	memcpy(g, t, ng * sizeof(*g));
	free(t);
	return 1;
}

/* Did y's share of x's samples, in y's flat (flat) or cum, move? */
static int
moved_in(struct fctx *c, size_t x, size_t y, int flat)
{
	const struct delta_row *rx = &c->d->rows[x], *ry = &c->d->rows[y];
	int64_t k1 = count(ry, flat, 0), k2 = count(ry, flat, 1);
	const struct judge_hyp *h = flat ? &ry->flat : &ry->cum;
	int t;

	k1 = k1 < rx->base_count ? k1 : rx->base_count;
	k2 = k2 < rx->new_count ? k2 : rx->new_count;
	if ((t = judge_retest(c->j, k1, rx->base_count, k2, rx->new_count,
	    h->phi, h->df, c->j->o.alpha)) != 1)
		return t;
	return judge_relevant(c->j, share(k1, rx->base_count),
	    share(k2, rx->new_count));
}

/*
 * Does row y's change lie inside x's, which dominates it: is x new (so
 * that all below it is new with it), or did y's share of x's samples
 * not move at alpha and relevantly, in any hypothesis that flagged y?
 * A share of x's samples: a subtree that grew alike is one change.
 */
static int
inside(struct fctx *c, size_t x, size_t y)
{
	const struct delta_row *rx = &c->d->rows[x], *ry = &c->d->rows[y];
	int t;

	if ((c->dir[x] > 0 && rx->status == STATUS_NEW) ||
	    (c->dir[x] < 0 && rx->status == STATUS_GONE))
		return 1;
	if (rx->base_count <= 0 || rx->new_count <= 0)
		return 1;
	if ((ry->hyp & DELTA_HYP_FLAT) && !ry->same &&
	    (t = moved_in(c, x, y, 1)) != 0)
		return t == -1 ? -1 : 0;
	if (ry->hyp != DELTA_HYP_FLAT && (t = moved_in(c, x, y, 0)) != 0)
		return t == -1 ? -1 : 0;
	return 1;
}

/*
 * Did row y's change come, at least half of it, through calls from the
 * rows of x's region (any row, with x SIZE_MAX) that are new on the
 * side of the change (delta_edge_new())?
 * A caller that now calls what it did not is where the change entered,
 * whether y is new or already ran for others: one change.
 */
static int
by_new_calls(struct fctx *c, size_t x, size_t y, int dir)
{
	const struct delta_edge	*e;
	size_t			 i, n;
	double			 v = 0, size;

	size = dir * c->d->rows[y].delta_share;
	if (size <= 0)
		return 0;
	n = delta_edges(c->d, y, 0, &e);
	for (i = 0; i < n; i++)
		if (e[i].from != y && delta_edge_new(&e[i], dir) &&
		    (x == SIZE_MAX || region_has(c->ri, x, e[i].from)))
			v += dir * delta_edge_change(c->d, &e[i]);
	return v >= FIND_SHARE * size;
}

/* The size of accepted finding i's change, where it is spent. */
double
find_size_of(struct fctx *c, size_t i)
{
	return fabs(delta_row_change(&c->d->rows[c->acc[i].spend]));
}

/* Put row r in accepted finding i, in the role given. */
void
find_join(struct fctx *c, size_t i, size_t r, enum delta_role role)
{
	struct accepted *a = &c->acc[i];

	push(&a->members, &a->nmembers, &a->cap, r);
	c->d->rows[r].finding = (long)i;
	c->d->rows[r].role = role;
	c->dir[r] = 0;
}

/*
 * Accept the group whose walks stop at x as a finding: x and every row
 * of the pool in its direction whose walk stops at x or in its region,
 * or that lies in that region.  Its samples leave the rest of the
 * profile that later groups are tested on.
 */
static void
accept(struct fctx *c, size_t x, unsigned char *reg)
{
	struct accepted	*a;
	size_t		 i, r;
	int		 s, dir = c->dir[x];
	int64_t		 e;

	c->acc = xreallocarray(c->acc, c->nacc + 1, sizeof(*c->acc));
	a = &c->acc[c->nacc];
	memset(a, 0, sizeof(*a));
	a->spend = x;
	a->dir = dir;
	a->flat = c->d->rows[x].hyp == DELTA_HYP_FLAT;
	a->region = reg;
	flows(c, reg, a->flow);
	for (s = 0; s < 2; s++) {
		e = count(&c->d->rows[x], a->flat, s);
		for (i = 0; i < c->nacc; i++)
			e -= joint(c, &c->acc[i], x, a->flat, s);
		/* Against an exposure, the rest keeps all of it. */
		if (as_shares(c))
			a->excl[s] = e > 0 ? e : 0;
		c->excl[s] += a->excl[s];
	}
	i = c->nacc++;
	find_join(c, i, x, DELTA_ROLE_SPEND);
	for (r = 0; r < c->n; r++) {
		if (c->dir[r] != dir)
			continue;
		/* What x's own code does says nothing of its callees. */
		if (reg[r] && !a->flat)
			find_join(c, i, r, DELTA_ROLE_INSIDE);
		else if (c->spend[r] == x || reg[c->spend[r]])
			find_join(c, i, r, DELTA_ROLE_CARRIER);
	}
}

/*
 * Is a change in direction dir displaced work?  In a process that
 * became saturated (delta.h), once the largest change of all went the
 * other way, the way that took its time (first_way()): what else it
 * did fell (or, saturated in the base, rose) with the load, at another
 * pace and mix, whatever its share of the rest says.  The change that
 * took the time need not hold as a finding yet: one a side, a Node.js
 * search that took 40 points was significant but failed the stricter
 * test on the rest that a finding needs, at a spread of 28%, where
 * V8's renderResponse, fallen to a third with the load, passed it, and
 * was told as the improvement and the search as crowded in by it.
 */
static int
displaced(const struct fctx *c, int dir)
{
	return c->d->saturated != 0 && dir == -c->d->saturated &&
	    c->sat_rise;
}

/*
 * Row r in a finding of its direction that holds it: a carrier of the
 * first it contains, else inside the first it lies below.  1 if so.
 */
static int
held(struct fctx *c, size_t r)
{
	size_t	 i;

	for (i = 0; i < c->nacc; i++)
		if (c->acc[i].dir == c->dir[r] && (under(c, r, c->acc[i].spend,
		    0) > 0 || under(c, r, c->acc[i].spend, 1) > 0)) {
			find_join(c, i, r, DELTA_ROLE_CARRIER);
			return 1;
		}
	for (i = 0; i < c->nacc; i++)
		if (c->acc[i].dir == c->dir[r] && (c->acc[i].region[r] ||
		    c->acc[i].flow[0][r] > 0 || c->acc[i].flow[1][r] > 0)) {
			find_join(c, i, r, DELTA_ROLE_INSIDE);
			return 1;
		}
	return 0;
}

/*
 * Row r moved only because the findings did (find_still() said no): in
 * a finding of its direction that holds it (held()), else crowded by
 * the largest finding of the other direction (or the largest at all):
 * a function's share falls by its part of what grew, and most of what
 * grew is the largest change.
 */
static void
settle(struct fctx *c, size_t r)
{
	struct delta_row *row = &c->d->rows[r];
	struct accepted	*a;
	size_t		 i, to = 0;
	int		 other = 0;

	if (held(c, r))
		return;
	/*
	 * No finding at all: r changed only with the runtime's work set
	 * aside (find_background()), and is no change of its own.
	 */
	if (c->nacc == 0) {
		row->verdict = VERDICT_UNCHANGED;
		c->dir[r] = 0;
		return;
	}
	/*
	 * A rate moves on its own (as_shares()): what is left of its
	 * change outside the findings is its own verdict, in none of them.
	 */
	if (!as_shares(c) && !displaced(c, c->dir[r])) {
		c->dir[r] = 0;
		return;
	}
	/* Crowded by the largest change of the other direction. */
	for (i = 0; i < c->nacc; i++)
		if (c->acc[i].dir != c->dir[r] && (!other ||
		    find_size_of(c, i) > find_size_of(c, to))) {
			to = i;
			other = 1;
		}
	for (i = 1; i < c->nacc && !other; i++)
		if (find_size_of(c, i) > find_size_of(c, to))
			to = i;
	a = &c->acc[to];
	push(&a->crowded, &a->ncrowded, &a->ccap, r);
	row->verdict = c->dir[r] < 0 ? VERDICT_CROWDED_OUT : VERDICT_CROWDED_IN;
	row->role = DELTA_ROLE_CROWDED;
	row->finding = (long)to;
	c->dir[r] = 0;
}

/*
 * Row r did not change on the rest of the profile, next to the findings
 * accepted so far: it leaves the pool, and is settled once the rounds
 * are over, when every finding that may hold it is known.  A row of a
 * change whose spend failed its test on the rest, while the callers
 * that carry it held theirs, is inside the finding those callers make
 * in a later round; settled now, it was crowded by a finding of the
 * other direction.  (With no finding yet, set_aside() keeps it.)
 */
static void
postpone(struct fctx *c, size_t r)
{
	push(&c->wait, &c->nwait, &c->cap_wait, r);
	c->dir[r] = 0;
}

/*
 * Row r did not change on the rest of the profile before any finding
 * was accepted: with only the runtime's work set aside, its change
 * fell short of what a first finding needs.  Its own change it is not;
 * but the caller around it may yet be one (a search that scores more
 * items, its scoring function taken first as the inner group, the
 * weaker), and a finding takes every row of its direction it holds.
 * So it waits for the rounds to end, and is then in such a finding
 * (held()) or unchanged, never crowded by a finding it came before.
 */
static void
set_aside(struct fctx *c, size_t r)
{
	push(&c->alone, &c->nalone, &c->cap_alone, r);
	c->dir[r] = 0;
}

/*
 * Settle row r, out of the pool, in the direction its verdict gives
 * (as the pool was filled): a row that waited, or one of a finding
 * that was none.
 */
static void
settle_again(struct fctx *c, size_t r)
{
	c->dir[r] = c->d->rows[r].verdict == VERDICT_REGRESSED ? 1 : -1;
	settle(c, r);
}

/* Settle row r that set_aside() kept: held, else unchanged. */
static void
settle_alone(struct fctx *c, size_t r)
{
	c->dir[r] = c->d->rows[r].verdict == VERDICT_REGRESSED ? 1 : -1;
	if (!held(c, r))
		c->d->rows[r].verdict = VERDICT_UNCHANGED;
	c->dir[r] = 0;
}

/*
 * Does accepted finding i share samples with one accepted after it,
 * through calls (a callee both reach), not as a change inside the
 * other's function?  It was tested with them in the rest, as that one
 * was not yet known.  One that lies inside another finding was taken
 * first as the inner change, rightly: the other is what changed around
 * it.  Shares share every sample: a finding of the other direction
 * accepted after i moved i's share of the rest as it moved every
 * share (an improvement taken first, whose fall was the regressions'
 * growth, is crowded out by them), so i is tested again without it.
 */
static int
shares_later(struct fctx *c, size_t i)
{
	const struct accepted *a = &c->acc[i];
	size_t	 j;
	int	 s, later = 0;

	for (j = 0; j < c->nacc; j++) {
		if (j == i)
			continue;
		if (c->acc[j].region[a->spend])
			return 0;
		if (j > i && c->acc[j].dir != a->dir && as_shares(c))
			later = 1;
		for (s = 0; s < 2 && j > i && !later; s++)
			if (joint(c, &c->acc[j], a->spend, a->flat, s) > 0)
				later = 1;
	}
	return later;
}

/* Take accepted finding i out of the list, into *a, its samples back. */
static void
take_out(struct fctx *c, size_t i, struct accepted *a)
{
	int	 s;

	*a = c->acc[i];
	memmove(&c->acc[i], &c->acc[i + 1],
	    (c->nacc - i - 1) * sizeof(*c->acc));
	c->nacc--;
	for (s = 0; s < 2; s++)
		c->excl[s] -= a->excl[s];
}

/* Put a back as accepted finding i. */
static void
put_back(struct fctx *c, size_t i, const struct accepted *a)
{
	int	 s;

	memmove(&c->acc[i + 1], &c->acc[i],
	    (c->nacc - i) * sizeof(*c->acc));
	c->acc[i] = *a;
	c->nacc++;
	for (s = 0; s < 2; s++)
		c->excl[s] += a->excl[s];
}

/* What an accepted finding holds, freed. */
static void
release(struct accepted *a)
{
	free(a->region);
	free(a->flow[0]);
	free(a->flow[1]);
	free(a->members);
	free(a->crowded);
}

/*
 * Finding a, taken out from place i, is no finding after all: its rows,
 * and the rows it crowded, are settled again among the others (whose
 * numbers above i move down one).
 */
static void
demote(struct fctx *c, size_t i, struct accepted *a)
{
	struct delta_row *row;
	size_t		 k, r;

	for (r = 0; r < c->n; r++) {
		row = &c->d->rows[r];
		if (row->finding > (long)i)
			row->finding--;
		else if (row->finding == (long)i) {
			row->finding = -1;
			row->role = DELTA_ROLE_NONE;
		}
	}
	for (k = 0; k < a->nmembers + a->ncrowded; k++) {
		r = k < a->nmembers ? a->members[k] :
		    a->crowded[k - a->nmembers];
		row = &c->d->rows[r];
		if (k >= a->nmembers)
			row->verdict = row->verdict == VERDICT_CROWDED_OUT ?
			    VERDICT_IMPROVED : VERDICT_REGRESSED;
		settle_again(c, r);
	}
	release(a);
}

/*
 * Step 3 again, once every finding is known: a finding accepted before
 * another that shares its samples was tested on a rest that still held
 * them.  A shared callee (Go's runtime.systemstack, under an allocation
 * and the collector alike) can be taken before the change it lies
 * under, when its test is the stronger, and hold as its own change only
 * because that change was not yet out of the rest.  Tested again
 * without every other finding, one that no longer holds is no finding,
 * and its rows go where settle() puts them: inside the change that
 * holds them.  Returns -1 if a test failed.
 */
static int
recheck(struct fctx *c)
{
	struct accepted	 a;
	size_t		 i = 0;
	int		 t;

	while (i < c->nacc) {
		if (!shares_later(c, i)) {
			i++;
			continue;
		}
		take_out(c, i, &a);
		c->dir[a.spend] = a.dir;
		t = find_still(c, a.spend);
		c->dir[a.spend] = 0;
		if (t == 0) {
			demote(c, i, &a);
			continue;
		}
		put_back(c, i, &a);
		if (t == -1)
			return -1;
		i++;
	}
	return 0;
}

/* The groups still free to take (into == -1), and rows by their spend. */
struct takes {
	size_t		*live;		/* group indices, ascending */
	size_t		 nlive;
	size_t		*roff, *rows;	/* rows of the pool by spend */
};

/*
 * Step 3 for one group, after the groups its spend dominates: a finding
 * if its spend still changed on the rest of the profile; otherwise each
 * of its rows that did not is settled, and the others wait for the next
 * round.  Returns -1 if a test failed.
 */
static int
take(struct fctx *c, struct group *g, struct takes *tk, size_t gi)
{
	size_t	 i, k, x = g[gi].spend;
	int	 t;

	g[gi].done = 1;
	for (k = 0; k < tk->nlive; k++) {
		i = tk->live[k];
		if (!g[i].done && g[i].dir == g[gi].dir &&
		    region_has(c->ri, x, g[i].spend) &&
		    take(c, g, tk, i) == -1)
			return -1;
	}
	if (c->dir[x] == 0)
		return 0;	/* taken by a finding meanwhile */
	if ((t = find_still(c, x)) == -1)
		return -1;
	if (t == 1 && displaced(c, c->dir[x]))
		t = 0;
	if (t == 1) {
		accept(c, x, region(c, x));
		return 0;
	}
	for (k = tk->roff[x]; k < tk->roff[x + 1]; k++) {
		i = tk->rows[k];
		if (c->dir[i] == 0)
			continue;
		if ((t = i == x ? 0 : find_still(c, i)) == -1)
			return -1;
		/*
		 * Displaced before any finding: it waits for the rounds to
		 * end, when what displaced it may be one.
		 */
		if (displaced(c, c->dir[i])) {
			if (c->nacc == 0)
				postpone(c, i);
			else
				settle(c, i);
		} else if (t == 0) {
			if (c->nacc == 0)
				set_aside(c, i);
			else
				postpone(c, i);
		}
	}
	return 0;
}

/*
 * The first free slot at or after q of a list whose taken slots point
 * on (nx[q] == q: free; nx[n] == n ends it), the path shortened.
 */
static size_t
next_free(size_t *nx, size_t q)
{
	size_t	 r = q, t;

	while (nx[r] != r)
		r = nx[r];
	while (nx[q] != r) {
		t = nx[q];
		nx[q] = r;
		q = t;
	}
	return r;
}

/*
 * Groups whose spend lies in another's region and whose change lies
 * inside that one's join it, the strongest first.  A region's groups
 * are looked for among those not joined yet, and with more groups than
 * FIND_WALKED, where the region has a span of the dominator tree's
 * order (region_span()), among those of the span only: a stack 65,000
 * frames deep makes a group of nearly every row, and each looked at
 * every other.  Returns -1 if a test failed.
 */
static int
merge_inside(struct fctx *c, struct group *g, size_t ng)
{
	size_t	*by, *pl, *nx, i, k, q, lo, hi, a, b, m;
	int	 t, rc = 0, spans = ng > FIND_WALKED;

	by = xreallocarray(NULL, ng + 1, sizeof(*by));
	pl = xreallocarray(NULL, ng + 1, sizeof(*pl));
	nx = xreallocarray(NULL, ng + 1, sizeof(*nx));
	for (i = 0; i < ng; i++) {
		by[i] = i;
		pl[i] = spans ? region_place(c->ri, g[i].spend) : i;
	}
	sort_by_place(by, ng, pl);
	for (q = 0; q <= ng; q++)
		nx[q] = q;
	for (i = 0; i < ng && rc == 0; i++) {
		if (g[i].into != -1)
			continue;
		lo = 0;
		hi = SIZE_MAX;
		a = 0;
		if (spans && region_span(c->ri, g[i].spend, &lo, &hi))
			for (b = ng; a < b;) {	/* the first place >= lo */
				m = a + (b - a) / 2;
				if (pl[by[m]] < lo)
					a = m + 1;
				else
					b = m;
			}
		for (q = next_free(nx, a); q < ng && pl[by[q]] < hi;
		    q = next_free(nx, q + 1)) {
			k = by[q];
			if (k == i || g[k].dir != g[i].dir ||
			    !region_has(c->ri, g[i].spend, g[k].spend))
				continue;
			if ((t = inside(c, g[i].spend, g[k].spend)) == -1) {
				rc = -1;
				break;
			}
			if (t) {
				g[k].into = (long)i;
				nx[q] = q + 1;
			}
		}
	}
	free(by);
	free(pl);
	free(nx);
	return rc;
}

/*
 * A group one of whose rows changed through calls new from another's
 * region joins it: the other's spend is where the change entered (the
 * rows with such calls at all are few).  The groups not joined yet are
 * looked at, in order.
 */
static void
merge_new_calls(struct fctx *c, struct group *g, size_t ng, const long *gof)
{
	size_t	*nx, i, k, r;
	long	 h;

	nx = xreallocarray(NULL, ng + 1, sizeof(*nx));
	for (i = 0; i <= ng; i++)
		nx[i] = i < ng && g[i].into != -1 ? i + 1 : i;
	for (r = 0; r < c->n; r++) {
		if (c->dir[r] == 0 || !by_new_calls(c, SIZE_MAX, r, c->dir[r]))
			continue;
		k = (size_t)gof[c->spend[r]];
		for (i = next_free(nx, 0); i < ng; i = next_free(nx, i + 1)) {
			if (i == k || g[i].dir != g[k].dir ||
			    !by_new_calls(c, g[i].spend, r, g[i].dir))
				continue;
			/* Not into a group that already joined this one. */
			for (h = (long)i; h >= 0 && h != (long)k; h = g[h].into)
				;
			if (h == -1 && g[k].into == -1) {
				g[k].into = (long)i;
				nx[k] = k + 1;
			}
			break;
		}
	}
	free(nx);
}

/*
 * A merged group's rows walk, in effect, to its host's spend (the end
 * of its chain of hosts, each chain followed once).  Then the rows of
 * the pool by spend, and the groups left free, for take().
 */
static void
walk_to_hosts(struct fctx *c, const struct group *g, size_t ng,
    const long *gof, struct takes *tk)
{
	size_t	*host, *path, i, k, np, h, *fill;

	host = xreallocarray(NULL, ng + 1, sizeof(*host));
	path = xreallocarray(NULL, ng + 1, sizeof(*path));
	for (i = 0; i < ng; i++)
		host[i] = SIZE_MAX;
	for (i = 0; i < ng; i++) {
		for (np = 0, h = i; host[h] == SIZE_MAX && g[h].into != -1;
		    h = (size_t)g[h].into)
			path[np++] = h;
		if (host[h] == SIZE_MAX)
			host[h] = h;
		for (k = 0; k < np; k++)
			host[path[k]] = host[h];
	}
	tk->roff = xcalloc(c->n + 2, sizeof(*tk->roff));
	for (i = 0; i < c->n; i++)
		if (c->dir[i] != 0) {
			c->spend[i] = g[host[gof[c->spend[i]]]].spend;
			tk->roff[c->spend[i] + 1]++;
		}
	for (i = 0; i < c->n; i++)
		tk->roff[i + 1] += tk->roff[i];
	tk->rows = xreallocarray(NULL, tk->roff[c->n] + 1, sizeof(*tk->rows));
	fill = xreallocarray(NULL, c->n + 1, sizeof(*fill));
	memcpy(fill, tk->roff, (c->n + 1) * sizeof(*fill));
	for (i = 0; i < c->n; i++)
		if (c->dir[i] != 0)
			tk->rows[fill[c->spend[i]]++] = i;
	tk->live = path;
	tk->nlive = 0;
	for (i = 0; i < ng; i++)
		if (g[i].into == -1)
			tk->live[tk->nlive++] = i;
	free(fill);
	free(host);
}

/*
 * One round over the rows left in the pool: their walks, their groups
 * (a group whose spend lies in another's region and whose change lies
 * inside that one's joins it), and each group taken.  Returns the
 * number of rows left, or -1 if a test failed.
 */
static long
one_round(struct fctx *c)
{
	const struct delta_row *x;
	struct group	*g;
	struct takes	 tk;
	long		*gof, left = 0;
	size_t		 i, ng = 0;
	int		 rc;

	gof = xreallocarray(NULL, c->n + 1, sizeof(*gof));
	g = xcalloc(c->n + 1, sizeof(*g));
	for (i = 0; i < c->n; i++)
		gof[i] = -1;
	for (i = 0; i < c->n; i++) {
		if (c->dir[i] == 0)
			continue;
		c->spend[i] = descend(c, i);
		if (gof[c->spend[i]] == -1) {
			gof[c->spend[i]] = (long)ng;
			g[ng].spend = c->spend[i];
			g[ng].dir = c->dir[i];
			x = &c->d->rows[c->spend[i]];
			g[ng].size = fabs(delta_row_change(x));
			g[ng].strength = fabs(x->st.stat);
			g[ng].name = x->name;
			g[ng++].into = -1;
		}
	}
	qsort(g, ng, sizeof(*g), cmp_group);
	if (c->d->saturated != 0 && first_way(g, ng, c->d->saturated))
		c->sat_rise = 1;
	for (i = 0; i < ng; i++)
		gof[g[i].spend] = (long)i;
	if ((rc = merge_inside(c, g, ng)) == 0) {
		merge_new_calls(c, g, ng, gof);
		walk_to_hosts(c, g, ng, gof, &tk);
		for (i = 0; i < ng && rc == 0; i++)
			if (!g[i].done && g[i].into == -1)
				rc = take(c, g, &tk, i);
		free(tk.live);
		free(tk.roff);
		free(tk.rows);
	}
	for (i = 0; i < c->n; i++)
		if (c->dir[i] != 0)
			left++;
	free(g);
	free(gof);
	return rc == -1 ? -1 : left;
}

/*
 * The part of finding a's change that lies under row p: its spend's
 * change, each side's value weighted by the share of the spend's
 * samples that p calls it with (under(): all of them when p dominates
 * it).  It counts the finding's own samples only, so a filter that
 * keeps them all (--focus on a frame of the path) leaves it as it is,
 * where p's own cum would lose what else p does.  With most set, the
 * most it can be in a's direction instead, from p's own samples alone:
 * no walk of p's region, for the callers of a function that thousands
 * call.
 */
static double
change_under(struct fctx *c, const struct accepted *a, size_t p, int most)
{
	const struct delta_row *x = &c->d->rows[a->spend];
	double	 b = (double)(a->flat ? x->base_flat : x->base_cum);
	double	 n = (double)(a->flat ? x->new_flat : x->new_cum);

	b = c->d->base_vden > 0 ? b / c->d->base_vden : 0;
	n = c->d->new_vden > 0 ? n / c->d->new_vden : 0;
	if (most)
		return a->dir > 0 ? under_most(c, p, a->spend, 1) * n :
		    under_most(c, p, a->spend, 0) * b;
	return under(c, p, a->spend, 1) * n - under(c, p, a->spend, 0) * b;
}

/*
 * Of the callers of cur that carry enough of the change (from[] and
 * what each carries, v[], as ascend() read them; 0 for one on the
 * path), the one the path takes instead of best: a caller q that best
 * dominates, carrying enough of the change, so that the path goes on
 * from q and keeps the function where the change came in (rank, called
 * by group and by handle, which calls group: handle has all of the
 * change under it; or lookupRate, called by handleRequest and, through
 * priceBasket, by computeShipping, whose calls carried the change);
 * down to the nearest such caller.  Dominance, not reachability: a
 * recursion cannot send the path round a circle; and not a caller cur
 * dominates, which calls it back from below (encoding/json's encoders
 * call each other).
 */
static size_t
nearer(struct fctx *c, size_t cur, size_t best, const size_t *from,
    const double *v, size_t n, double size)
{
	size_t	 i, q, pick;
	double	 pv;

	for (;;) {
		pick = SIZE_MAX;
		pv = 0;
		for (i = 0; i < n; i++) {
			q = from[i];
			if (v[i] < FIND_SHARE * size || v[i] <= 0 ||
			    v[i] < pv || q == best ||
			    !region_has(c->ri, best, q) ||
			    region_has(c->ri, cur, q) || (v[i] == pv &&
			    strcmp(c->d->rows[q].name,
			    c->d->rows[pick].name) >= 0))
				continue;
			pick = q;
			pv = v[i];
		}
		if (pick == SIZE_MAX)
			return best;
		best = pick;
	}
}

/*
 * Step 4: the path of finding a, outermost first: from its spend up
 * through the caller under which the most of the change lies
 * (change_under()), as long as that is at least half of it: the
 * outermost function that the change came through.  Neither a caller's
 * own cum nor its verdict counts, which a focus filter changes (what
 * the caller does besides, out of focus, is no longer in its cum); ties
 * go by name.  Returns its length.
 */
static size_t
ascend(struct fctx *c, const struct accepted *a, size_t *path)
{
	const struct delta_edge *e;
	size_t	 up[FIND_MAX_PATH], np = 0, cur = a->spend, i, k, n, best;
	size_t	*from = NULL, cap = 0;
	double	 bestv, size, under_p, *calls = NULL;

	size = a->dir * delta_row_change(&c->d->rows[a->spend]);
	up[np++] = cur;
	while (np < FIND_MAX_PATH) {
		best = SIZE_MAX;
		bestv = 0;
		/*
		 * The calls into cur, copied: change_under() walks other
		 * rows' edges, in the buffer delta_edges() reuses.
		 */
		n = delta_edges(c->d, cur, 0, &e);
		if (n > cap) {
			cap = n;
			from = xreallocarray(from, cap, sizeof(*from));
			calls = xreallocarray(calls, cap, sizeof(*calls));
		}
		for (i = 0; i < n; i++) {
			from[i] = e[i].from;
			calls[i] = a->dir * delta_edge_change(c->d, &e[i]);
		}
		/*
		 * Each caller carries what lies under it, or what its call
		 * carries, whichever is more: a caller that reaches the
		 * spend through a callee others call too (a goroutine's
		 * function through runtime.selectgo) has none of the spend
		 * in its own region.  None for one on the path.
		 */
		for (i = 0; i < n; i++) {
			size_t p = from[i];

			for (k = 0; k < np && up[k] != p; k++)
				continue;
			if (k < np) {
				calls[i] = 0;
				continue;
			}
			/*
			 * Only a caller that could carry more than its call
			 * does, and enough, has its region read: nearer()
			 * takes those under the share as none.
			 */
			under_p = change_under(c, a, p, 1);
			if (under_p > calls[i] && under_p >= FIND_SHARE * size) {
				under_p = a->dir * change_under(c, a, p, 0);
				if (under_p > calls[i])
					calls[i] = under_p;
			}
			if (calls[i] < FIND_SHARE * size || calls[i] <= 0)
				continue;
			if (calls[i] > bestv || (calls[i] == bestv &&
			    best != SIZE_MAX && strcmp(c->d->rows[p].name,
			    c->d->rows[best].name) < 0)) {
				bestv = calls[i];
				best = p;
			}
		}
		if (best == SIZE_MAX)
			break;
		best = nearer(c, cur, best, from, calls, n, size);
		up[np++] = cur = best;
	}
	free(from);
	free(calls);
	for (i = 0; i < np; i++)
		path[i] = up[np - 1 - i];
	return np;
}

/* Sort rows[n] by the size of their change, then by name. */
static void
sort_rows(const struct delta *d, size_t *rows, size_t n)
{
	struct delta_key *k;
	size_t		 i;

	k = xreallocarray(NULL, n + 1, sizeof(*k));
	for (i = 0; i < n; i++) {
		k[i].key = fabs(delta_row_change(&d->rows[rows[i]]));
		k[i].name = d->rows[rows[i]].name;
		k[i].idx = rows[i];
	}
	qsort(k, n, sizeof(*k), delta_key_cmp);
	for (i = 0; i < n; i++)
		rows[i] = k[i].idx;
	free(k);
}

static int
cmp_part(const void *a, const void *b)
{
	const struct delta_part *x = a, *y = b;
	double ax = fabs(x->change), ay = fabs(y->change);

	if (ax != ay)
		return ax > ay ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/*
 * Step 5, for a change of the function of accepted finding i's cum: its
 * calls into the rows of the finding (its members, not what it crowded)
 * that changed its way, largest first.
 * Where the walk stopped above them (two changes it could not tell
 * apart, or a change spread over many calls), they say where it is.
 * Not for a function new on the side of its change (or gone), which is
 * the change with everything below it.
 */
static void
below(struct fctx *c, size_t i, struct delta_finding *f)
{
	const struct accepted	*a = &c->acc[i];
	const struct delta_edge	*e;
	const struct delta_row	*x = &c->d->rows[a->spend], *y;
	size_t			 k, n;
	double			 v;

	f->under = NULL;
	f->nunder = 0;
	/* A new function (or one gone) is the change, with all below it. */
	if (f->hyp != DELTA_HYP_CUM || (a->dir > 0 && x->status ==
	    STATUS_NEW) || (a->dir < 0 && x->status == STATUS_GONE))
		return;
	n = delta_edges(c->d, a->spend, 1, &e);
	f->under = xreallocarray(NULL, n + 1, sizeof(*f->under));
	for (k = 0; k < n; k++) {
		y = &c->d->rows[e[k].to];
		v = delta_edge_change(c->d, &e[k]);
		if (e[k].to == a->spend || y->finding != (long)i ||
		    y->role == DELTA_ROLE_CROWDED || a->dir * v <= 0)
			continue;
		f->under[f->nunder].row = e[k].to;
		f->under[f->nunder++].change = v;
	}
	qsort(f->under, f->nunder, sizeof(*f->under), cmp_part);
}

/*
 * The callees whose change moved into the own frames of a finding's
 * rows (moved()), once the findings that entered together are joined:
 * each under the finding of the caller that took it.
 */
static void
moved_parts(struct delta *d)
{
	struct delta_finding *f;
	size_t	 r, i;
	long	 k;

	for (r = 0; r < d->nrows; r++) {
		if (!d->rows[r].moved || d->rows[r].moved_into < 0 ||
		    (k = d->rows[d->rows[r].moved_into].finding) < 0 ||
		    (size_t)k >= d->nfindings)
			continue;
		f = &d->findings[k];
		f->moved = xreallocarray(f->moved, f->nmoved + 1,
		    sizeof(*f->moved));
		f->moved[f->nmoved].row = r;
		f->moved[f->nmoved++].change = delta_row_change(&d->rows[r]);
	}
	for (i = 0; i < d->nfindings; i++)
		if (d->findings[i].nmoved > 1)
			qsort(d->findings[i].moved, d->findings[i].nmoved,
			    sizeof(*d->findings[i].moved), cmp_part);
}

/* A finding's background rows, apart from its members (delta.h). */
static void
split_background(const struct delta *d, struct accepted *a,
    struct delta_finding *f)
{
	size_t	 i, k = 0;

	f->background = xreallocarray(NULL, a->nmembers + 1,
	    sizeof(*f->background));
	f->nbackground = 0;
	for (i = 0; i < a->nmembers; i++) {
		if (d->rows[a->members[i]].role == DELTA_ROLE_BACKGROUND)
			f->background[f->nbackground++] = a->members[i];
		else
			a->members[k++] = a->members[i];
	}
	a->nmembers = k;
}

/* The findings' own numbers, their rows and their order (delta.h). */
static void
build(struct fctx *c)
{
	struct delta	*d = c->d;
	struct delta_finding *sorted;
	struct delta_key *k;
	size_t		*at, i;

	d->findings = xcalloc(c->nacc + 1, sizeof(*d->findings));
	d->nfindings = c->nacc;
	k = xreallocarray(NULL, c->nacc + 1, sizeof(*k));
	for (i = 0; i < c->nacc; i++) {
		struct accepted		*a = &c->acc[i];
		struct delta_finding	*f = &d->findings[i];
		const struct delta_row	*x = &d->rows[a->spend];
		const struct judge_hyp	*h;

		f->verdict = a->dir > 0 ? VERDICT_REGRESSED : VERDICT_IMPROVED;
		f->row = a->spend;
		f->runtime = x->frame;
		f->hyp = x->hyp == DELTA_HYP_FLAT ? DELTA_HYP_FLAT :
		    DELTA_HYP_CUM;
		h = f->hyp == DELTA_HYP_FLAT ? &x->flat : &x->cum;
		/* The tested change, which the interval and q are of. */
		f->delta = h->st.diff;
		f->lo = h->st.lo;
		f->hi = h->st.hi;
		f->q = h->q;
		f->path = xreallocarray(NULL, FIND_MAX_PATH, sizeof(*f->path));
		f->npath = ascend(c, a, f->path);
		below(c, i, f);
		sort_rows(d, a->members, a->nmembers);
		sort_rows(d, a->crowded, a->ncrowded);
		split_background(d, a, f);
		f->rows = a->members;
		f->nrows = a->nmembers;
		f->crowded = a->crowded;
		f->ncrowded = a->ncrowded;
		a->members = a->crowded = NULL;
		k[i].key = fabs(f->delta);
		k[i].name = x->name;
		k[i].idx = i;
	}
	/* Largest first: renumber the rows' findings to match. */
	qsort(k, c->nacc, sizeof(*k), delta_key_cmp);
	at = xreallocarray(NULL, c->nacc + 1, sizeof(*at));
	for (i = 0; i < c->nacc; i++)
		at[k[i].idx] = i;
	for (i = 0; i < d->nrows; i++)
		if (d->rows[i].finding >= 0)
			d->rows[i].finding = (long)at[d->rows[i].finding];
	sorted = xcalloc(c->nacc + 1, sizeof(*sorted));
	for (i = 0; i < c->nacc; i++)
		sorted[i] = d->findings[k[i].idx];
	free(d->findings);
	d->findings = sorted;
	free(at);
	free(k);
}

/*
 * Did row c's change only move between its callers' own frames and its
 * own, as when a JIT inlines a callee into its caller in one process and
 * not in the other?  Then the callee is new (or gone) where the caller's
 * own samples fell by as much, and the caller's cum, which holds both,
 * did not change.  A caller counts when its cum is no discovery and its
 * own frame moved the other way; what moved through it is the least of
 * its own frame's change and its call's.  If that makes up at least
 * half of c's change, c is one unchanged function split differently,
 * and so are the callers whose only verdict was their own frame's.
 *
 * The inlining need not be whole, nor the caller unchanged: V8 inlines
 * a callee at some of its call sites, or in some of a function's
 * compiled versions, so the callee keeps a part of its samples, and the
 * caller may be the change itself (a leaf made slower, then inlined
 * into it, shows as the caller's own frame grown by more than the
 * whole change).  A callee that fell while a caller whose cum rose
 * significantly gained at least as much in its own frame, through
 * their call (all of its fall, not half: a caller whose own code grew
 * crowds its callees out, too), is that: a part of the caller's
 * change, not an improvement beside it; the same the other way.  The
 * caller keeps its verdict.
 */
static int
moved(struct fctx *c, size_t r)
{
	const struct delta_row	*row = &c->d->rows[r], *p;
	const struct delta_edge	*e;
	double			 size, out, call, m, top = 0;
	double			 sum[2] = { 0, 0 };
	size_t			 i, n;
	long			 into = -1;
	int			 dir = c->dir[r], whole, found;

	/*
	 * Between callers that did not change, a frame a JIT inlined is
	 * gone from one side: a callee that only grew or shrank is a change
	 * of its own, whatever those callers' own frames did (they fall,
	 * too, when another change crowds them).
	 */
	whole = (dir > 0 && row->status == STATUS_NEW) ||
	    (dir < 0 && row->status == STATUS_GONE);
	size = dir * delta_row_change(row);
	n = delta_edges(c->d, r, 0, &e);
	for (i = 0; i < n && size > 0; i++) {
		p = &c->d->rows[e[i].from];
		if (e[i].from == r)
			continue;
		found = (p->hyp & DELTA_HYP_CUM) &&
		    (p->verdict == VERDICT_REGRESSED ||
		    p->verdict == VERDICT_IMPROVED);
		if (found ? c->dir[e[i].from] != -dir : !whole)
			continue;
		out = -dir * p->delta_flat_share;
		call = dir * delta_edge_change(c->d, &e[i]);
		m = out < call ? out : call;
		if (m > 0)
			sum[found] += m;
		if (found && m > top) {
			top = m;
			into = (long)e[i].from;
		}
	}
	/* Half of it between unchanged callers, all of it into a change. */
	if (size <= 0 || (sum[0] < FIND_SHARE * size &&
	    sum[0] + sum[1] < size))
		return 0;
	for (i = 0; i < n; i++) {
		p = &c->d->rows[e[i].from];
		if (e[i].from != r && p->hyp == DELTA_HYP_FLAT &&
		    c->dir[e[i].from] == -dir) {
			c->d->rows[e[i].from].verdict = VERDICT_UNCHANGED;
			c->d->rows[e[i].from].moved = 1;
			c->dir[e[i].from] = 0;
		}
	}
	c->d->rows[r].verdict = VERDICT_UNCHANGED;
	c->d->rows[r].moved = 1;
	c->d->rows[r].moved_into = into;
	c->dir[r] = 0;
	return 1;
}

int
delta_findings(struct delta *d, const struct judge *j)
{
	struct fctx	 c;
	size_t		 i;
	long		 left = 0;
	int		 rc = 0;

	memset(&c, 0, sizeof(c));
	c.d = d;
	c.j = j;
	c.n = d->nrows;
	c.dir = xcalloc(c.n + 1, sizeof(*c.dir));
	c.spend = xcalloc(c.n + 1, sizeof(*c.spend));
	c.ri = region_new(d, FIND_WALKED);
	c.into = SIZE_MAX;
	for (i = 0; i < c.n; i++) {
		d->rows[i].finding = -1;
		d->rows[i].moved_into = -1;
		d->rows[i].role = DELTA_ROLE_NONE;
		d->rows[i].runtime = RT_CODE;
		if (d->rows[i].verdict == VERDICT_REGRESSED)
			c.dir[i] = 1;
		else if (d->rows[i].verdict == VERDICT_IMPROVED)
			c.dir[i] = -1;
	}
	for (i = 0; i < c.n; i++)
		if (c.dir[i] != 0)
			(void)moved(&c, i);
	find_background(&c);
	for (i = 0; i < c.n; i++)
		if (c.dir[i] != 0)
			left++;
	/* Each round takes a row from the pool at least. */
	while (left > 0)
		if ((left = one_round(&c)) == -1)
			rc = -1;
	if (rc == 0 && recheck(&c) == -1)
		rc = -1;
	for (i = 0; i < c.nwait; i++)
		settle_again(&c, c.wait[i]);
	for (i = 0; i < c.nalone; i++)
		settle_alone(&c, c.alone[i]);
	if (rc == 0) {
		find_attach_background(&c);
		build(&c);
		delta_join_findings(d);
		moved_parts(d);
		find_beside(&c);
	}
	for (i = 0; i < c.nacc; i++)
		release(&c.acc[i]);
	free(c.acc);
	free(c.wait);
	free(c.alone);
	free(c.gc);
	find_bg_under(&c, NULL);
	free(c.bg);
	free(c.dir);
	free(c.spend);
	free(c.in);
	free(c.inplace);
	region_free(c.ri);
	return rc;
}

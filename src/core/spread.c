/*
 * One profile a side: the spread of no change, read from the part of
 * the profile that no change reached (spread.h).  No I/O here.
 *
 * stats_null.c reads how much two processes differ beyond sampling
 * from the functions' own counts, trusting that almost all of them did
 * not change.  A change that spreads breaks that trust: a call added
 * inside a loop moves the sort it calls, the sort's swapper, memmove
 * and the allocator with it, a third of the functions at once, and
 * their moves, read as the processes' spread, make the spread so wide
 * that the change itself is no longer significant (Go's "alloc" shape:
 * 5% spread between its no-change processes, 32% read from a pair with
 * the change).  The trimming of stats_null() leaves out a tenth of the
 * functions, not a third.
 *
 * What a change cannot move is the rest of the profile: the samples
 * whose stacks do not pass through the function it entered.  So the
 * spread is read again without the samples under a candidate (each
 * row's flat count less the part of it the call graph says lies under
 * the candidate, calls_flows()), and the candidate is tested against
 * that spread.  Where the test holds even by Bonferroni's bound over
 * every candidate there could have been, the candidate is a change
 * found as surely as any finding could be, and its samples leave the
 * estimate; the next candidate is then looked for in what is left, up
 * to SPREAD_ROUNDS changes.  Where none holds, the spread stays as
 * stats_null() read it from everything.
 *
 * Two changes in one pair (a regression beside an improvement, each
 * moving its own callees) can each hide behind the other: without
 * either alone the other still widens the spread, and neither holds.
 * When no one candidate holds, each pair of the candidates is read out
 * together, and a pair leaves when both its changes hold at the spread
 * of the rest, by Bonferroni's bound over every pair of candidates.
 *
 * Only changes that hold without their own samples, at the strictest
 * threshold of the family, leave: a function that only varies widely
 * between processes (memmove's share does, threefold, between Go
 * processes) is as wide without itself as with, and its test at the
 * spread of the rest is the test the family would make anyway.
 */
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/delta.h"
#include "core/flow.h"
#include "core/judge.h"
#include "core/region.h"
#include "core/runtime.h"
#include "core/spread.h"
#include "stats/stats.h"
#include "support/xmalloc.h"

#define SPREAD_ROUNDS	4	/* changes looked for, at most */
#define SPREAD_TRIES	6	/* candidates read again per round */
#define SPREAD_MAXSHARE	0.5	/* a candidate holds at most this share */
#define SPREAD_NARROWS	0.98	/* of tau^2: 1% of the spread itself */

unsigned char *
spread_background(struct delta *d)
{
	unsigned char	*bg = NULL, *in;
	size_t		*stack, i, k;

	in = xcalloc(d->nrows + 1, 1);
	stack = xcalloc(d->nrows + 1, sizeof(*stack));
	for (i = 0; i < d->nrows; i++) {
		if (!rt_frame_load((enum rt_frame)d->rows[i].frame) ||
		    (bg != NULL && bg[i]))
			continue;
		if (bg == NULL)
			bg = xcalloc(d->nrows + 1, 1);
		delta_region(d, i, in, stack);
		for (k = 0; k < d->nrows; k++) {
			bg[k] |= in[k];
			in[k] = 0;
		}
	}
	free(stack);
	free(in);
	return bg;
}

/* What one reading of the spread works with. */
struct sctx {
	struct delta	*d;
	const unsigned char *bg;
	const struct judge *j;
	int64_t		*k;		/* the parts: k[i] and k[m + i] */
	double		*scratch;
	size_t		 m;
	size_t		 n0;		/* the parts read from all samples */
	struct calls	*g;
	double		*fl[2];		/* the flows under a candidate */
	unsigned char	*out;		/* the rows a reading leaves out */
};

/*
 * The part of row r's flat count on a side that lies outside the rows
 * fl[] measured (fl NULL: all of it).
 */
static int64_t
outside(const struct delta_row *row, const double *fl, int side)
{
	int64_t	 k = side ? row->new_flat_count : row->base_flat_count;
	double	 cum = (double)(side ? row->new_cum : row->base_cum), f;

	if (fl == NULL || k == 0)
		return k;
	f = cum > 0 ? fl[0] / cum : 1;
	if (f >= 1)
		return 0;
	return f > 0 ? (int64_t)llround((double)k * (1 - f)) : k;
}

/*
 * The spread read from the samples outside the rows of reg (NULL:
 * from all), as stats_null() reads it, each side's total less the
 * samples under reg; the background counted as one part, as judge.c
 * counts it.  Only below cap (stats_null_trim()).
 */
static int
read_spread(struct sctx *c, const unsigned char *reg, double trim,
    double cap, struct stats_null *r)
{
	double		*fl[2] = { NULL, NULL };
	int64_t		 n[2] = { c->j->n1, c->j->n2 }, o, bgk[2] = { 0, 0 };
	size_t		 i, np = 0;
	int		 s, rc, bgany = 0;

	if (reg != NULL) {
		calls_flows(c->d, c->g, reg, c->fl);
		fl[0] = c->fl[0];
		fl[1] = c->fl[1];
	}
	for (i = 0; i < c->d->nrows; i++) {
		const struct delta_row *row = &c->d->rows[i];
		int64_t	 kk[2];

		for (s = 0; s < 2; s++) {
			kk[s] = outside(row, fl[s] ? &fl[s][i] : NULL, s);
			o = (s ? row->new_flat_count : row->base_flat_count) -
			    kk[s];
			n[s] -= o;
		}
		if (c->bg != NULL && c->bg[i]) {
			bgk[0] += kk[0];
			bgk[1] += kk[1];
			bgany = 1;
		} else if (kk[0] > 0 || kk[1] > 0) {
			c->k[np] = kk[0];
			c->k[c->m + np++] = kk[1];
		}
	}
	if (bgany) {
		c->k[np] = bgk[0];
		c->k[c->m + np++] = bgk[1];
	}
	for (i = 0; i < np; i++)
		if (c->k[i] > n[0] || c->k[c->m + i] > n[1])
			n[0] = n[1] = 0;	/* a flow past its total: none */
	/*
	 * The functions the region took out were the largest of the
	 * spread, if it was a change: trimmed before, and not to be
	 * trimmed again from the rest (that would take the next widest
	 * function for a change too, and the spread with it).
	 */
	if (trim >= 0) {
		for (i = 0, o = 0; i < np; i++)
			if (c->k[i] > 0 && c->k[c->m + i] > 0 &&
			    c->k[i] + c->k[c->m + i] >= STATS_NULL_MINCOUNT)
				o++;
		trim -= (double)c->n0 - (double)o;
		if (trim < 0)
			trim = 0;
	}
	rc = stats_null_trim(c->k, n[0] > 0 ? n[0] : 0, c->k + c->m,
	    n[1] > 0 ? n[1] : 0, np, trim, cap, c->scratch, r);
	return rc;
}

/* The p-value of row r's cum at spread r. */
static double
cum_p(const struct sctx *c, size_t r, const struct stats_null *nu)
{
	const struct delta_row *row = &c->d->rows[r];
	struct stats_result st;
	double	 phi, df;

	phi = stats_null_phi(nu, row->base_count + row->new_count,
	    c->j->n1, c->j->n2, 1);
	df = stats_null_df(nu, phi);
	if (stats_disp_p(row->base_count, c->j->n1, row->new_count,
	    c->j->n2, phi, df, STATS_TWO_SIDED, &st) == -1)
		return 1;
	return st.p;
}

/* Could row r be where a change entered? */
static int
candidate(const struct sctx *c, size_t r, const unsigned char *taken)
{
	const struct delta_row *row = &c->d->rows[r];
	int64_t	 K = row->base_count + row->new_count;

	if (taken[r] || (c->bg != NULL && c->bg[r]) || row->frame != RT_CODE ||
	    K < STATS_NULL_MINCOUNT)
		return 0;
	return (double)K <= SPREAD_MAXSHARE * (double)(c->j->n1 + c->j->n2);
}

/*
 * The SPREAD_TRIES candidates whose cum is least likely at spread nu,
 * into best[]; returns how many there are, and *all how many rows are
 * candidates at all.
 */
static size_t
likeliest(const struct sctx *c, const unsigned char *taken,
    const struct stats_null *nu, size_t *best, double *bp, size_t *all)
{
	size_t	 i, k, nb = 0;
	double	 p;

	*all = 0;
	for (i = 0; i < c->d->nrows; i++) {
		if (!candidate(c, i, taken))
			continue;
		(*all)++;
		p = cum_p(c, i, nu);
		if (nb == SPREAD_TRIES && p >= bp[nb - 1])
			continue;
		k = nb < SPREAD_TRIES ? nb++ : nb - 1;
		for (; k > 0 && bp[k - 1] > p; k--) {
			bp[k] = bp[k - 1];
			best[k] = best[k - 1];
		}
		bp[k] = p;
		best[k] = i;
	}
	return nb;
}

/*
 * The spread read without the rows taken[] marks, into *r, ready to
 * test a candidate at: 1 if it is narrower than cur's and read from
 * enough, 0 if not, -1 on an invalid count.  Most of the program is the
 * program, not a change; and a change that leaves the spread as it was
 * (by 1% of it) did not widen it, and can stay.
 */
static int
read_without(struct sctx *c, const unsigned char *taken, double trim,
    const struct stats_null *cur, struct stats_null *r)
{
	if (read_spread(c, taken, trim, SPREAD_NARROWS * cur->tau2, r) == -1)
		return -1;
	if (r->n < STATS_NULL_MINUNITS || 2 * r->n < cur->n ||
	    !(r->tau2 < SPREAD_NARROWS * cur->tau2))
		return 0;
	r->conc = cur->conc;
	return 1;
}

/*
 * Readings without sets of rows, each into its own result: a set is
 * rows[2i] and rows[2i + 1] (SIZE_MAX: none) beside the rows taken[]
 * marks.  A reading is O(rows) and a round makes up to fifteen, so on a
 * delta of SPREAD_THREAD_ROWS rows or more the sets are shared with a
 * second thread, whose context has arrays of its own (struct calls'
 * walking arrays among them, calls_twin()); below it a thread costs more
 * than it saves.  The results are the same either way: each reading is
 * its own, and the caller reads them in order.
 */
#define SPREAD_THREAD_ROWS	4096

struct sets {
	struct sctx	*c;
	const unsigned char *taken;
	const size_t	*rows;
	size_t		 n, first, step;	/* sets first, first + step, ... */
	const struct stats_null *cur;
	double		 trim;
	struct stats_null *r;
	int		*k;
};

static void *
read_sets(void *arg)
{
	struct sets	*s = arg;
	unsigned char	*out = s->c->out;
	size_t		 i, x;
	int		 h;

	memcpy(out, s->taken, s->c->d->nrows + 1);
	for (i = s->first; i < s->n; i += s->step) {
		for (h = 0; h < 2; h++)
			if ((x = s->rows[2 * i + h]) != SIZE_MAX)
				out[x] = 1;
		s->k[i] = read_without(s->c, out, s->trim, s->cur, &s->r[i]);
		for (h = 0; h < 2; h++)
			if ((x = s->rows[2 * i + h]) != SIZE_MAX)
				out[x] = s->taken[x];
	}
	return NULL;
}

/* Readings' results, k[] as read_without()'s; -1 if one was -1. */
static int
read_all(struct sctx *c, struct sctx *c2, const unsigned char *taken,
    const size_t *rows, size_t n, const struct stats_null *cur, double trim,
    struct stats_null *r, int *k)
{
	struct sets	 a, b;
	pthread_t	 t;
	size_t		 i;
	int		 threaded = 0;

	a.c = c;
	a.taken = taken;
	a.rows = rows;
	a.n = n;
	a.first = 0;
	a.step = 2;
	a.cur = cur;
	a.trim = trim;
	a.r = r;
	a.k = k;
	b = a;
	b.c = c2;
	b.first = 1;
	if (c2 != NULL && n > 1)
		threaded = pthread_create(&t, NULL, read_sets, &b) == 0;
	if (!threaded)
		a.step = 1;
	read_sets(&a);
	if (threaded)
		pthread_join(t, NULL);
	for (i = 0; i < n; i++)
		if (k[i] == -1)
			return -1;
	return 0;
}

/*
 * No one candidate held: two changes can each hide behind the other's
 * spread (a regression and an improvement in one pair, each moving its
 * own callees), so that without either alone the spread is still
 * wide.  Each pair of the candidates best[] (those whose reading
 * without them alone narrowed the spread) is read out together, and
 * the pair holds if both its changes do at the spread of the rest,
 * each by Bonferroni's bound over every pair there could have been.
 * Marks the pair in taken[] and returns 1 with the spread in *top; 0
 * if none held; -1 on an invalid count.
 */
#define SPREAD_PAIRS	(SPREAD_TRIES * (SPREAD_TRIES - 1) / 2)

static int
two_changes(struct sctx *c, struct sctx *c2, unsigned char *taken,
    const struct stats_null *cur, double trim, const size_t *best, size_t nb,
    size_t all, struct stats_null *top)
{
	struct stats_null r[SPREAD_PAIRS];
	size_t		 rows[2 * SPREAD_PAIRS], a, b, i, n = 0, pick = SIZE_MAX;
	double		 p, worst = 1;
	int		 k[SPREAD_PAIRS];

	if (all < 2)
		return 0;
	for (a = 0; a < nb; a++)
		for (b = a + 1; b < nb; b++) {
			rows[2 * n] = best[a];
			rows[2 * n++ + 1] = best[b];
		}
	if (read_all(c, c2, taken, rows, n, cur, trim, r, k) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (k[i] == 0)
			continue;
		p = fmax(cum_p(c, rows[2 * i], &r[i]),
		    cum_p(c, rows[2 * i + 1], &r[i]));
		if (p < worst) {
			worst = p;
			pick = i;
		}
	}
	if (pick == SIZE_MAX ||
	    worst > c->j->o.alpha / ((double)all * (double)(all - 1) / 2))
		return 0;
	taken[rows[2 * pick]] = taken[rows[2 * pick + 1]] = 1;
	*top = r[pick];
	return 1;
}

/* A context's arrays, for a delta of m - 1 rows. */
static void
sctx_alloc(struct sctx *c)
{
	c->k = xcalloc(2 * c->m, sizeof(*c->k));
	c->scratch = xcalloc(3 * c->m, sizeof(*c->scratch));
	c->out = xcalloc(c->m, 1);
	c->fl[0] = xreallocarray(NULL, c->m, sizeof(*c->fl[0]));
	c->fl[1] = xreallocarray(NULL, c->m, sizeof(*c->fl[1]));
}

static void
sctx_free(struct sctx *c)
{
	free(c->fl[0]);
	free(c->fl[1]);
	free(c->out);
	free(c->scratch);
	free(c->k);
}

int
spread_null(struct delta *d, const unsigned char *bg, const struct judge *j,
    struct stats_null *out)
{
	struct sctx	 c, c2, *second = NULL;
	struct stats_null cur, r[SPREAD_TRIES], top;
	unsigned char	*taken;
	size_t		 best[SPREAD_TRIES], rows[2 * SPREAD_TRIES];
	size_t		 wide[SPREAD_TRIES], all, nb, nw, i, round, pick;
	double		 bp[SPREAD_TRIES], p, pbest, trim;
	int		 rc, k[SPREAD_TRIES];

	memset(&c, 0, sizeof(c));
	c.d = d;
	c.bg = bg;
	c.j = j;
	c.m = d->nrows + 1;
	sctx_alloc(&c);
	taken = xcalloc(d->nrows + 1, 1);
	rc = read_spread(&c, NULL, -1, HUGE_VAL, &cur);
	c.n0 = cur.n;
	if (rc == 0 && cur.tau2 > 0) {
		c.g = calls_of(d);
		if (d->nrows >= SPREAD_THREAD_ROWS) {
			c2 = c;
			sctx_alloc(&c2);
			c2.g = calls_twin(c.g, d->nrows);
			second = &c2;
		}
	}
	trim = 0.1 * (double)cur.n;
	for (round = 0; rc == 0 && round < SPREAD_ROUNDS && cur.tau2 > 0;
	    round++) {
		nb = likeliest(&c, taken, &cur, best, bp, &all);
		for (i = 0; i < nb; i++) {
			rows[2 * i] = best[i];
			rows[2 * i + 1] = SIZE_MAX;
		}
		if ((rc = read_all(&c, second, taken, rows, nb, &cur, trim, r,
		    k)) == -1)
			break;
		pick = SIZE_MAX;
		pbest = 1;
		nw = 0;
		for (i = 0; i < nb; i++) {
			if (k[i] == 0)
				continue;
			wide[nw++] = best[i];
			p = cum_p(&c, best[i], &r[i]);
			if (p < pbest) {
				pbest = p;
				pick = i;
			}
		}
		if (pick != SIZE_MAX && pbest <= j->o.alpha / (double)all) {
			taken[best[pick]] = 1;
			top = r[pick];
		} else {
			/* A pair counts as two of the rounds. */
			rc = round + 2 <= SPREAD_ROUNDS ? two_changes(&c,
			    second, taken, &cur, trim, wide, nw, all, &top) : 0;
			if (rc != 1)
				break;
			rc = 0;
			round++;
		}
		cur = top;
	}
	if (rc == 0)
		*out = cur;
	if (second != NULL) {
		calls_twin_free(c2.g);
		sctx_free(&c2);
	}
	sctx_free(&c);
	free(taken);
	return rc;
}

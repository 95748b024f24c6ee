/*
 * findings.c's private view, shared with background.c: an accepted
 * finding, the state of one grouping, and the small helpers both read.
 * Core: no I/O.
 */
#ifndef FINDINGS_INT_H
#define FINDINGS_INT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/delta.h"
#include "core/flow.h"
#include "core/region.h"
#include "support/xmalloc.h"

#define FIND_SHARE	0.5	/* "about the same": at least this of a change */

/* An accepted finding's view of the graph. */
struct accepted {
	size_t		 spend;
	int		 dir;
	int		 flat;		/* a change of spend's own samples */
	unsigned char	*region;	/* the rows spend dominates */
	double		*flow[2];	/* a side's value of each row that
					   lies under region (flows()) */
	size_t		*members;
	size_t		 nmembers, cap;
	size_t		*crowded;
	size_t		 ncrowded, ccap;
	int64_t		 excl[2];	/* its samples that left the rest */
};

struct fctx {
	struct delta	*d;
	const struct judge *j;
	size_t		 n;		/* rows */
	int		*dir;		/* +1, -1, or 0 out of the pool */
	size_t		*spend;		/* where each row's walk stops */
	struct region_index *ri;	/* every row's region (region.h) */
	struct accepted	*acc;
	size_t		 nacc;
	int64_t		 excl[2];	/* samples of the findings, a side */
	unsigned char	*gc;		/* rows of the collector's own work */
	unsigned char	*bgset;		/* the runtime's work set aside (or
					   NULL), and what lies under it */
	double		*bgflow[2];	/*   through shared callees (flows()) */
	double		*bgabove[2];	/* and what lies above it, of each
					   row's cum (calls_above()) */
	size_t		*bg;		/* rows set aside as background */
	size_t		 nbg, cap_bg;
	size_t		*wait;		/* rows settled once the rounds end */
	size_t		 nwait, cap_wait;
	size_t		*alone;		/* rows that failed before any
					   finding, held or unchanged then */
	size_t		 nalone, cap_alone;
	size_t		 into;		/* the row whose calls in are kept */
	struct delta_edge *in;		/*   in in[], nin of them (SIZE_MAX: */
	size_t		 nin, cap_in;	/*   none yet; findings.c, flow_in()) */
	size_t		*inplace;	/*   with in_placed, in[] in the order
					     of their callers' places (region.h),
					     and those places */
	int		 in_placed;
	int		 sat_rise;	/* the largest change went the way
					   that saturated the thread
					   (delta.h, first_way()) */
};

/*
 * under.c.  under(): the share of x's samples that row r's region calls
 * it with, on a side (side 1 the new), or 1 where r dominates x; never
 * more than under_most(), r's own samples as a share of x's, which
 * needs no region and bounds it.
 */
double	under(struct fctx *, size_t r, size_t x, int side);
double	under_most(const struct fctx *, size_t r, size_t x, int side);
/*
 * by[0..n) (indexes into pl[]) in the order of their places pl[], for
 * reading a region's rows in its span (region_span()).
 */
void	sort_by_place(size_t *by, size_t n, const size_t *pl);

static inline double
share(int64_t v, int64_t total)
{
	return total != 0 ? (double)v / (double)total : 0;
}

static inline void
push(size_t **a, size_t *n, size_t *cap, size_t x)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		*a = xreallocarray(*a, *cap, sizeof(**a));
	}
	(*a)[(*n)++] = x;
}

/* The rows that x dominates, x included (delta_region()), marked. */
static inline unsigned char *
region(struct fctx *c, size_t x)
{
	unsigned char *in = xcalloc(c->n + 1, 1);

	region_fill(c->ri, x, in);
	return in;
}

/* A row's samples on one side (0 base, 1 new), in its hypothesis h. */
static inline int64_t
count(const struct delta_row *r, int flat, int side)
{
	if (flat)
		return side ? r->new_flat_count : r->base_flat_count;
	return side ? r->new_count : r->base_count;
}

/*
 * Samples of the values w that enter row t on one side, at t's count
 * per unit of value (the edges weigh values, the tests count samples).
 */
static inline int64_t
as_count(const struct delta_row *t, int64_t w, int side)
{
	int64_t v = side ? t->new_cum : t->base_cum;
	int64_t k = side ? t->new_count : t->base_count;

	if (v <= 0 || w <= 0)
		return 0;
	return (int64_t)llround((double)w / (double)v * (double)k);
}

/* Both sides' values of each row under reg (flow.h), into fl[2]. */
static inline void
flows(struct fctx *c, const unsigned char *reg, double *fl[2])
{
	fl[0] = xreallocarray(NULL, c->n + 1, sizeof(*fl[0]));
	fl[1] = xreallocarray(NULL, c->n + 1, sizeof(*fl[1]));
	calls_flows(c->d, calls_of(c->d), reg, fl);
}

/*
 * Do the rows trade as shares do, one's growth taking from the others'?
 * Shares always do.  Rates do when their level is bound by a capacity
 * that held (delta.h, bounded: a saturated process), and the rest of
 * the profile is then tested as shares of each side's samples.  Other
 * rates move on their own: a rate that fell while another grew was not
 * crowded out by it (doc/statistics.md, "Crowded out, with rates").
 */
static inline int
as_shares(const struct fctx *c)
{
	return !c->d->exposure || c->d->bounded;
}

/* The total side s's rest is a part of: its samples, or its cden. */
static inline int64_t
rest_total(const struct fctx *c, int s)
{
	if (c->d->exposure && c->d->bounded)
		return s ? c->d->new_n : c->d->base_n;
	return s ? c->d->new_cden : c->d->base_cden;
}

/* findings.c */
int	find_still(struct fctx *, size_t r);
double	find_size_of(struct fctx *, size_t i);
void	find_join(struct fctx *, size_t i, size_t r, enum delta_role);
/* beside.c: once the findings are built, what is beside them. */
void	find_beside(struct fctx *);

/*
 * background.c: the runtime's work that follows the load, set aside as
 * the findings' background (find_background()) and attached to the
 * largest (find_attach_background()); the samples of a row that are
 * that work (find_bg_joint()); find_bg_under() marks what still()
 * takes out (NULL: nothing).
 */
void	find_background(struct fctx *);
void	find_attach_background(struct fctx *);
int64_t	find_bg_joint(struct fctx *, size_t r, int flat, int side);
void	find_bg_under(struct fctx *, const unsigned char *set);

#endif

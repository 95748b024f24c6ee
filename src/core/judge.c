/*
 * One family of hypotheses, judged together (judge.h): each tested by
 * stats.c, at a dispersion shared across them when there are
 * replicates, then the discrete false-discovery procedure over all of
 * them, and the intervals rebuilt at the false-coverage-rate level
 * that goes with the procedure's rejections.  The caller (delta.c for
 * rows, flame.c for frames) says what the hypotheses are; this file
 * knows only counts.  No I/O.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/itab.h"
#include "core/judge.h"
#include "stats/stats.h"
#include "support/xmalloc.h"

void
judge_init(struct judge *j, const struct judge_opts *o, int64_t n1,
    int64_t n2, const int64_t *n1r, size_t nb, const int64_t *n2r, size_t nn)
{
	memset(j, 0, sizeof(*j));
	j->o = *o;
	j->n1 = n1;
	j->n2 = n2;
	j->mde = j->noise = -1;
	j->ci_alpha = o->alpha;
	if (nb < 2 || nn < 2 || n1r == NULL || n2r == NULL)
		return;
	j->replicates = 1;
	j->nb = nb;
	j->nn = nn;
	j->n1r = xreallocarray(NULL, nb, sizeof(*j->n1r));
	j->n2r = xreallocarray(NULL, nn, sizeof(*j->n2r));
	memcpy(j->n1r, n1r, nb * sizeof(*n1r));
	memcpy(j->n2r, n2r, nn * sizeof(*n2r));
}

void
judge_release(struct judge *j)
{
	free(j->n1r);
	free(j->n2r);
	memset(j, 0, sizeof(*j));
}

/*
 * Between replicates, each hypothesis's dispersion: its own Pearson
 * estimate from the spread of its runs, moderated toward what all the
 * hypotheses say together (stats_disp_prior()), floored at 1.
 */
static int
dispersions(struct judge *j, struct judge_hyp *h, size_t m,
    const int64_t *runs)
{
	struct stats_disp	*f;
	size_t			 i, w = j->nb + j->nn;
	int			 rc = 0;

	f = xcalloc(m + 1, sizeof(*f));
	for (i = 0; i < m && rc == 0; i++)
		rc = stats_disp_pearson(runs + i * w, j->n1r, j->nb,
		    runs + i * w + j->nb, j->n2r, j->nn, &f[i]);
	if (rc == 0)
		rc = stats_disp_prior(f, m, &j->prior);
	for (i = 0; i < m && rc == 0; i++) {
		h[i].phi = stats_disp_posterior(&f[i], &j->prior, &h[i].df);
		if (isnan(h[i].phi))
			rc = -1;
	}
	free(f);
	return rc;
}

/*
 * The smaller of the probabilities of the two most extreme tables of K
 * samples (all of them in base, all in new), each side able to hold
 * them: a p-value of one of those tables is at least its probability,
 * so when this is above alpha no split can be a discovery, and the
 * trimming would drop the hypothesis whatever its exact smallest p.
 */
static double
extreme_pmf(int64_t K, int64_t n1, int64_t n2)
{
	double	 a = 1, b = 1, N = (double)n1 + (double)n2;
	int64_t	 i;

	for (i = 0; i < K; i++) {
		a *= ((double)n1 - i) / (N - i);
		b *= ((double)n2 - i) / (N - i);
	}
	return a < b ? a : b;
}

/*
 * The smallest p-value a hypothesis of K samples could have.  With 64
 * samples or more, each side able to hold all of them and no
 * overdispersion, the most extreme split is below 2^-63, under any
 * threshold the trimming could set for fewer than 10^17 hypotheses:
 * the bound 0 decides the same, without the sum.  With a few samples
 * whose most extreme tables are both more likely than alpha, 1 decides
 * the same as the exact value, which is above alpha too.
 */
static double
min_p(const struct judge *j, const struct judge_hyp *h)
{
	int64_t K = h->k1 + h->k2;

	if (h->phi <= 1 && h->df == HUGE_VAL && K >= 64 && K <= j->n1 &&
	    K <= j->n2)
		return 0;
	if (h->phi <= 1 && h->df == HUGE_VAL && K <= 16 && K <= j->n1 &&
	    K <= j->n2 && extreme_pmf(K, j->n1, j->n2) > j->o.alpha)
		return 1;
	return stats_disp_pmin(K, j->n1, j->n2, h->phi, h->df,
	    STATS_TWO_SIDED);
}

int
judge_null(struct judge *j, const int64_t *k1, const int64_t *k2, size_t m)
{
	double	*scratch;
	int	 rc;

	if (j->replicates || !j->o.has_counts)
		return 0;
	scratch = xcalloc(3 * m + 1, sizeof(*scratch));
	rc = stats_null(k1, j->n1, k2, j->n2, m, scratch, &j->null);
	j->null_given = 1;
	free(scratch);
	return rc;
}

void
judge_null_from(struct judge *j, const struct judge *from)
{
	if (j->replicates || from->replicates)
		return;
	j->null = from->null;
	j->null_given = 1;
}

/*
 * The spread of no change, unless given: from the flat hypotheses, the
 * runtime's work apart counted as one.
 */
static int
nulls(struct judge *j, const struct judge_hyp *h, size_t m)
{
	int64_t	*k;
	double	*scratch;
	size_t	 i, n = 0, bg;
	int	 rc;

	if (j->replicates || !j->o.has_counts || j->null_given)
		return 0;
	k = xcalloc(2 * m + 1, sizeof(*k));
	scratch = xcalloc(3 * m + 1, sizeof(*scratch));
	for (i = 0; i < m; i++)
		if (h[i].kind == JUDGE_FLAT) {
			k[n] = h[i].k1;
			k[m + n++] = h[i].k2;
		}
	/*
	 * The work that moves as one, as one unit: there is room, since
	 * its hypotheses are not among the n (k[n] is 0 from calloc).
	 */
	for (i = 0, bg = 0; i < m; i++)
		if (h[i].kind == JUDGE_FLAT_BG) {
			k[n] += h[i].k1;
			k[m + n] += h[i].k2;
			bg = 1;
		}
	n += bg;
	rc = stats_null(k, j->n1, k + m, j->n2, n, scratch, &j->null);
	free(scratch);
	free(k);
	return rc;
}

/* Test one hypothesis into itself; -1 if a count is invalid. */
static int
test_one(const struct judge *j, struct judge_hyp *x)
{
	x->q = NAN;
	x->tested = 0;
	if (!j->replicates || !j->o.has_counts) {
		x->phi = j->o.has_counts ? stats_null_phi(&j->null,
		    x->k1 + x->k2, j->n1, j->n2, x->kind == JUDGE_CUM) : 1;
		x->df = stats_null_df(&j->null, x->phi);
	}
	if (!j->o.has_counts || j->n1 <= 0 || j->n2 <= 0)
		return 0;
	if (stats_disp_p(x->k1, j->n1, x->k2, j->n2, x->phi, x->df,
	    STATS_TWO_SIDED, &x->st) == -1 || (x->pmin = min_p(j, x)) < 0)
		return -1;
	x->tested = x->st.method != STATS_UNTESTABLE;
	return 0;
}

/*
 * The tests of a large family, on two threads that take the hypotheses
 * a chunk at a time (a test costs more the larger its counts, so halves
 * fixed in advance come out unequal).  Each test is pure and writes its
 * own hypothesis only.
 */
#define JUDGE_CHUNK	64

struct testjob {
	const struct judge *j;
	struct judge_hyp *h;
	const size_t	*u;		/* the hypotheses to test */
	size_t		 m;		/* how many */
	atomic_size_t	*next;		/* the first of u[] not taken */
	int		 rc;
};

static void *
test_chunks(void *arg)
{
	struct testjob	*t = arg;
	size_t		 lo, hi;

	while (t->rc == 0 && (lo = atomic_fetch_add(t->next, JUDGE_CHUNK)) <
	    t->m)
		for (hi = lo + JUDGE_CHUNK < t->m ? lo + JUDGE_CHUNK : t->m;
		    lo < hi && t->rc == 0; lo++)
			t->rc = test_one(t->j, &t->h[t->u[lo]]);
	return NULL;
}

static int
same_test(const struct judge_hyp *a, const struct judge_hyp *b)
{
	return a->k1 == b->k1 && a->k2 == b->k2 && a->phi == b->phi &&
	    a->df == b->df;
}

/*
 * A test depends only on the hypothesis's counts and dispersion (the
 * sides' totals are the family's): rep[i] is the first hypothesis of
 * the same ones as i, whose test i takes (test_all()) and whose
 * interval too (judge_family()).  Small counts recur: the medium bench
 * pair's 39,079 hypotheses have 22,670 distinct.  The indexes of the
 * first ones go to u[]; returns how many.
 */
static size_t
test_reps(const struct judge_hyp *h, size_t m, size_t *rep, size_t *u)
{
	size_t	*slot, cap = 16, i, s, n = 0;

	while (cap < 2 * m)
		cap *= 2;
	slot = xcalloc(cap, sizeof(*slot));
	for (i = 0; i < m; i++) {
		s = itab_home(itab_hash_pair((uint64_t)h[i].k1,
		    (uint64_t)h[i].k2), cap);
		while (slot[s] != 0 && !same_test(&h[slot[s] - 1], &h[i]))
			s = itab_next(s, cap);
		if (slot[s] == 0) {
			slot[s] = i + 1;
			u[n++] = i;
		}
		rep[i] = slot[s] - 1;
	}
	free(slot);
	return n;
}

/*
 * Test each hypothesis: its p-value and the smallest it could have, in
 * p[] and pmin[] for those tested; the nu of u[] are tested, the others
 * copied from rep[].  JUDGE_THREAD_HYPS tests or more are shared with a
 * second thread: twice as many hypotheses as the rows (a flat and a cum
 * one each) made the tests of the medium bench pair's 39,079 take 39 ms
 * on one thread; on two, 21 ms, and diff medium was faster in 18 of 21
 * paired rounds, by 4% of its wall time (bench/FINDINGS.md, round 11).
 * Below it a thread costs more than it saves.
 */
#define JUDGE_THREAD_HYPS	4096

static int
test_all(struct judge *j, struct judge_hyp *h, size_t m, const size_t *rep,
    const size_t *u, size_t nu, double *p, double *pmin, size_t *np)
{
	struct testjob	 a, b;
	atomic_size_t	 next;
	pthread_t	 t;
	size_t		 i, n = 0;
	int		 threaded = 0;

	atomic_init(&next, 0);
	a.j = j;
	a.h = h;
	a.u = u;
	a.m = nu;
	a.next = &next;
	a.rc = 0;
	b = a;
	if (nu >= JUDGE_THREAD_HYPS)
		threaded = pthread_create(&t, NULL, test_chunks, &b) == 0;
	test_chunks(&a);
	if (threaded)
		pthread_join(t, NULL);
	if (a.rc == -1 || b.rc == -1)
		return -1;
	for (i = 0; i < m; i++)
		if (rep[i] != i)
			h[i] = h[rep[i]];
	for (i = 0; i < m; i++)
		if (h[i].tested) {
			p[n] = h[i].st.p;
			pmin[n++] = h[i].pmin;
		}
	*np = n;
	return 0;
}

/*
 * What hypothesis h can show at threshold t, at its pooled share pooled
 * and its dispersion: the change found with power STATS_POWER (return),
 * and the noise half-width (*noise).
 */
static double
hyp_mde(const struct judge_hyp *h, int64_t n1, int64_t n2, double pooled,
    double t, double *noise)
{
	double	 se, zq, zp, mde;

	if (h->df == HUGE_VAL) {
		mde = stats_mde(pooled, n1, n2, t, STATS_POWER);
		*noise = stats_noise(pooled, n1, n2, t);
		if (h->phi > 1) {
			mde *= sqrt(h->phi);
			*noise *= sqrt(h->phi);
		}
		*noise = fmin(1, *noise);
		return fmin(1, mde);
	}
	se = sqrt(h->phi * pooled * (1 - pooled) *
	    (1 / (double)n1 + 1 / (double)n2));
	zq = stats_t_quantile(1 - t / 2, h->df);
	zp = stats_t_quantile(STATS_POWER, h->df);
	*noise = fmin(1, zq * se);
	return fmin(1, (zq + zp) * se);
}

/*
 * The header's numbers: what the noisiest hypothesis of the family can
 * show at the threshold a further discovery needs.  Its pooled share is
 * the one closest to a half (binomial noise is largest there), scaled
 * by its dispersion between replicates.
 */
static void
detectable(struct judge *j, const struct judge_hyp *h, size_t m)
{
	double	 bestse = -1, se, pooled;
	size_t	 i, best = 0;

	for (i = 0; i < m; i++) {
		if (!h[i].tested || isnan(h[i].q))
			continue;
		pooled = (double)(h[i].k1 + h[i].k2) / (double)(j->n1 + j->n2);
		se = sqrt(h[i].phi * pooled * (1 - pooled) *
		    (1 / (double)j->n1 + 1 / (double)j->n2));
		if (se > bestse) {
			bestse = se;
			best = i;
			j->mde_share = pooled;
		}
	}
	if (bestse >= 0)
		j->mde = hyp_mde(&h[best], j->n1, j->n2, j->mde_share,
		    j->fdr.threshold, &j->noise);
}

double
judge_hyp_mde(const struct judge *j, const struct judge_hyp *h)
{
	return judge_hyp_mde_in(h, j->n1, j->n2, j->fdr.threshold);
}

double
judge_hyp_mde_in(const struct judge_hyp *h, int64_t n1, int64_t n2, double t)
{
	double	 pooled, noise;

	if (n1 <= 0 || n2 <= 0 || h->k1 + h->k2 <= 0)
		return -1;
	pooled = fmin(1, (double)(h->k1 + h->k2) / (double)(n1 + n2));
	return hyp_mde(h, n1, n2, pooled, t, &noise);
}

int
judge_family(struct judge *j, struct judge_hyp *h, size_t m,
    const int64_t *runs)
{
	double	*p, *pmin, *q;
	size_t	*scratch, *rep, *u, i, n, nu;
	int	 rc = -1;

	if (j->replicates && j->o.has_counts && dispersions(j, h, m,
	    runs) == -1)
		return -1;
	if (nulls(j, h, m) == -1)
		return -1;
	p = xcalloc(m + 1, sizeof(*p));
	pmin = xcalloc(m + 1, sizeof(*pmin));
	q = xcalloc(m + 1, sizeof(*q));
	scratch = xcalloc(m + 1, sizeof(*scratch));
	rep = xcalloc(m + 1, sizeof(*rep));
	u = xcalloc(m + 1, sizeof(*u));
	nu = test_reps(h, m, rep, u);
	if (test_all(j, h, m, rep, u, nu, p, pmin, &n) == -1 ||
	    stats_fdr_discrete(p, pmin, n, j->o.alpha, q, scratch,
	    &j->fdr) == -1)
		goto out;
	j->ntested = n;
	j->ci_alpha = stats_fcr_alpha(j->fdr.rejected, j->fdr.kept,
	    j->o.alpha);
	for (i = 0, n = 0; i < m; i++) {
		struct judge_hyp *x = &h[i];

		if (!x->tested)
			continue;
		x->q = q[n++];
		/* The interval, once its level is known. */
		if (rep[i] != i) {
			x->st.lo = h[rep[i]].st.lo;
			x->st.hi = h[rep[i]].st.hi;
		} else if (stats_disp_interval(x->k1, j->n1, x->k2, j->n2,
		    x->phi, x->df, j->ci_alpha, &x->st.lo, &x->st.hi) == -1)
			goto out;
	}
	detectable(j, h, m);
	rc = 0;
out:
	free(p);
	free(pmin);
	free(q);
	free(scratch);
	free(rep);
	free(u);
	return rc;
}

int
judge_significant(const struct judge *j, const struct judge_hyp *h)
{
	return h->tested && h->q <= j->o.alpha;
}

/*
 * Untested or trimmed.  A hypothesis the trimming kept has pmin <=
 * alpha / K* <= alpha / kept, which is at most the threshold of a
 * further discovery: it could still be one.
 */
int
judge_insufficient(const struct judge *j, const struct judge_hyp *h)
{
	(void)j;
	return !h->tested || isnan(h->q);
}

/* --min-effect's relative part, in percent of the base share. */
static int
relative_enough(const struct judge *j, double bs, double ns)
{
	return bs == 0 || fabs(ns - bs) / bs * 100 >= j->o.min_effect_rel;
}

int
judge_relevant(const struct judge *j, double bs, double ns)
{
	return fabs(ns - bs) * 100 >= j->o.min_effect_pp &&
	    relative_enough(j, bs, ns);
}

int
judge_small(const struct judge *j, double bs, double ns)
{
	return fabs(ns - bs) * 100 < j->o.min_effect_pp &&
	    relative_enough(j, bs, ns);
}

double
judge_step(const struct judge *j, size_t k)
{
	if (j->fdr.kept == 0)
		return j->o.alpha;
	return fmin(j->o.alpha, (double)k * j->o.alpha / (double)j->fdr.kept);
}

int
judge_retest(const struct judge *j, int64_t k1, int64_t n1, int64_t k2,
    int64_t n2, double phi, double df, double thr)
{
	struct stats_result	 r;

	(void)j;
	if (n1 <= 0 || n2 <= 0)
		return 0;
	/* The p-value alone: an interval at t's quantile costs a search. */
	if (stats_disp_p(k1, n1, k2, n2, phi, df, STATS_TWO_SIDED, &r) == -1)
		return -1;
	return r.method != STATS_UNTESTABLE && r.p <= thr;
}

/*
 * Many functions at once: Benjamini-Hochberg's adjustment, the discrete
 * false discovery rate procedure that trims the rows that cannot reach
 * significance (Tarone, then Gilbert), and Benjamini and Yekutieli's
 * false-coverage-rate level for the intervals of the rows selected.  The
 * rows' p-values and minimum p-values are the caller's (stats_pvalue(),
 * stats_pmin() and their stats_disp_*() forms); this file only orders
 * and adjusts them.
 *
 * Pure math, as stats.c says: no I/O, no allocation (the caller owns the
 * scratch the sorts need), no state.
 */

#include <math.h>
#include <stddef.h>

#include "stats/stats.h"
#include "stats/stats_int.h"

/*
 * Benjamini-Hochberg.
 *
 * profdiff tests every function at once, often thousands.  At alpha =
 * 0.05 each, a thousand unchanged functions give fifty "significant"
 * ones.  Bonferroni (test at alpha / m) bounds the chance of even one
 * false positive, which at m = 1000 needs z = 4.06 instead of 1.96: a
 * change must be twice as large to be seen.  Benjamini and Hochberg
 * (1995) bound instead the expected fraction of false ones among those
 * reported, which is the error a reader of a diff actually pays for, and
 * loses much less power: with p-values sorted p_(1) <= ... <= p_(m),
 *
 *	q_(i) = min over j >= i of min(1, m p_(j) / j),
 *
 * and reporting every q <= alpha keeps the false discovery rate at most
 * alpha (for independent or positively dependent tests, which shares of
 * one profile are close enough to).  The running minimum from the top
 * makes q monotone in p and gives tied p-values the same q, since the
 * minimum over a run of ties is reached at its last rank.
 *
 * The sort is a heapsort of indices, keyed on (p, index) so that the
 * order is total and the result deterministic; qsort(3) has no way to
 * pass p to its comparison, and the caller owns the scratch.
 */
static int
bh_less(const double *p, size_t a, size_t b)
{
	return p[a] < p[b] || (p[a] == p[b] && a < b);
}

static void
sift_down(const double *p, size_t *h, size_t i, size_t n)
{
	size_t	c, t;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && bh_less(p, h[c], h[c + 1]))
			c++;
		if (!bh_less(p, h[i], h[c]))
			return;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

/* A p-value as BH reads it: NaN and anything above 1 count as 1. */
static double
clean_p(double p)
{
	if (isnan(p) || p > 1)
		return 1;
	return p < 0 ? 0 : p;
}

/* Sort the n indices in idx by (key, index), ascending. */
static void
sort_idx(const double *key, size_t *idx, size_t n)
{
	size_t	i, t;

	for (i = n / 2; i-- > 0; )
		sift_down(key, idx, i, n);
	for (i = n; i-- > 1; ) {
		t = idx[0];
		idx[0] = idx[i];
		idx[i] = t;
		sift_down(key, idx, 0, i);
	}
}

/*
 * The step-up: p[idx[0..n)], sorted, replaced by their q-values in a
 * family of n.
 */
static void
step_up(double *p, const size_t *idx, size_t n)
{
	size_t	i;
	double	q, qmin = 1;

	for (i = n; i-- > 0; ) {
		q = (double)n / (double)(i + 1) * p[idx[i]];
		if (q < qmin)
			qmin = q;
		p[idx[i]] = qmin;
	}
}

void
stats_bh(double *p, size_t m, size_t *idx)
{
	size_t	i;

	for (i = 0; i < m; i++) {
		p[i] = clean_p(p[i]);
		idx[i] = i;
	}
	sort_idx(p, idx, m);
	step_up(p, idx, m);
}

/*
 * A discrete FDR: Tarone's trimming, then BH (Gilbert 2005).
 *
 * A p-value from counts can take only a few values, and the smallest of
 * them, pmin (stats_pmin()), depends only on the margins of its table:
 * a row with 6 samples in all can never have p below 1/32, whatever the
 * windows.  BH counts every row in m, so each such row raises every
 * other row's threshold and can never be a discovery itself.  Tarone
 * (1990) saw this for Bonferroni: at a per-test level of alpha / K, only
 * the M(K) rows with pmin <= alpha / K can be rejected, so only they
 * need to be counted, and when M(K) <= K, testing those rows at alpha /
 * K keeps the familywise error at alpha.  The smallest such K, K*, is
 * the least conservative choice.  Gilbert (2005) keeps Tarone's family,
 * the M(K*) rows with pmin <= alpha / K*, and runs BH at alpha over it
 * alone.  Because the family is chosen from the margins only, and a
 * row's p-value is valid given its margins (Fisher's test conditions on
 * them), BH's guarantee holds for the family as for any other fixed
 * set, and the false discovery rate over all rows is at most alpha:
 * every dropped row is a non-discovery.
 *
 * It is not uniformly more powerful than BH over all m.  With pmin = p
 * = 0.02 for three rows at alpha = 0.05, M(1) = M(2) = 3 and M(3) = 0,
 * so the family is empty, while BH over the three rejects all of them
 * at 3 x 0.05 / 3.  The loss needs a row whose pmin lies between alpha
 * / K* and BH's final threshold R alpha / m, that is a row with only a
 * handful of samples, all in one window, in a diff that has several
 * other discoveries; the gain is every tiny row dropped from the count.
 * doc/statistics.md gives the measured balance on simulated profiles.
 *
 * M(K) is the number of pmin <= alpha / K, so with pmin sorted it is a
 * count that falls as K rises, and one pass finds K*.  The q-values are
 * BH's within the family: q <= alpha is then exactly "rejected by the
 * procedure at alpha".  They mean nothing at another level, since the
 * family depends on alpha.  The threshold a further discovery would need
 * is BH's next one, (R + 1) alpha / |family|, and never above alpha; a
 * row outside the family cannot be one.
 */
int
stats_fdr_discrete(const double *p, const double *pmin, size_t m,
    double alpha, double *q, size_t *idx, struct stats_fdr *r)
{
	size_t	i, k, cnt;

	if (!valid_alpha(alpha) || r == NULL ||
	    (m > 0 && (p == NULL || pmin == NULL || q == NULL || idx == NULL)))
		return -1;
	for (i = 0; i < m; i++) {
		q[i] = clean_p(pmin[i]);
		idx[i] = i;
	}
	sort_idx(q, idx, m);
	cnt = m;
	for (k = 1; ; k++) {
		while (cnt > 0 && q[idx[cnt - 1]] > alpha / (double)k)
			cnt--;
		if (cnt <= k)
			break;
	}
	r->kstar = k;
	r->cutoff = alpha / (double)k;
	r->kept = cnt;
	for (i = 0; i < m; i++)
		q[i] = NAN;
	for (i = 0; i < cnt; i++)
		q[idx[i]] = clean_p(p[idx[i]]);
	sort_idx(q, idx, cnt);
	step_up(q, idx, cnt);
	r->rejected = 0;
	for (i = 0; i < cnt; i++)
		r->rejected += q[idx[i]] <= alpha;
	r->threshold = cnt == 0 ? alpha :
	    fmin(alpha, (double)(r->rejected + 1) * alpha / (double)cnt);
	return 0;
}

/*
 * False-coverage-rate intervals (Benjamini and Yekutieli 2005).  An
 * interval printed only beside the rows a procedure selected is not a
 * 95% interval any more: selection favours the rows whose estimate
 * strayed furthest.  Benjamini and Yekutieli show that building each of
 * the R intervals selected out of m at level 1 - R alpha / m keeps the
 * expected share of non-covering ones among the selected at alpha, when
 * the selection is BH's (or any step-up) at alpha.  At that level an
 * interval excludes 0 about when its p-value is below R alpha / m, which
 * is where BH's verdict falls, so interval and verdict agree but for the
 * difference between the score interval and the exact test.  With no
 * selection the level is that of a first discovery, 1 - alpha / m: the
 * interval a reader sees is then as wide as the evidence a discovery
 * would have needed.
 */
double
stats_fcr_alpha(size_t R, size_t m, double alpha)
{
	if (!valid_alpha(alpha) || R > m)
		return -1;
	if (m == 0)
		return alpha;
	return fmin(alpha, (double)(R > 0 ? R : 1) * alpha / (double)m);
}

/*
 * Beside the findings: the rest of the profile a further change is
 * judged on (find_still(): each side's samples less the findings'), the
 * rows that share no sample with a finding but their own, what a change
 * there needs, and each row's change on that rest (delta.h, rest_n).
 * What findings.c leaves after its rounds; no I/O here.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/delta.h"
#include "core/findings_int.h"
#include "core/flow.h"
#include "core/judge.h"
#include "support/xmalloc.h"

/*
 * Count in nov[] the findings each row shares samples with, and keep
 * the last in last[], for accepted finding i: the rows in its region or
 * with a flow from it (below it), and its function's callers,
 * transitively (above it), through the union graph's edges into each
 * (joint() is nonzero for no other row).  up[] is scratch of c->n + 1.
 */
static void
overlap(struct fctx *c, size_t i, unsigned char *nov, size_t *last,
    unsigned char *up)
{
	const struct accepted *a = &c->acc[i];
	size_t	 r;

	for (r = 0; r < c->n; r++)
		up[r] = a->region[r] || a->flow[0][r] > 0 || a->flow[1][r] > 0;
	calls_up(c->d, calls_of(c->d), a->spend, up);
	for (r = 0; r < c->n; r++)
		if (up[r]) {
			nov[r] += nov[r] < 2;
			last[r] = i;
		}
}

/*
 * The rests a row is judged on as a change beside the findings it is
 * not part of (delta.h, rest_n): each side's samples less those of
 * every finding (find_still()'s rest for a later group), plus its own
 * finding's for a row of one that shares samples with no other (the
 * rest a finding is tested again on), and none for a row that shares
 * samples with another (an ancestor of a finding it is not part of
 * holds that one's samples).  Then the threshold there, and what the
 * noisiest row outside every finding (its pooled share of the rest
 * nearest a half, by its dispersion) shows at it.  A rate is tested by
 * its own counts: no rest.
 */
void
find_beside(struct fctx *c)
{
	struct delta	*d = c->d;
	const struct judge_hyp *h, *best = NULL;
	unsigned char	*nov, *up;
	size_t		*last, i;
	double		 pooled, v, top = -1;
	int		 s;

	d->rest_n[0] = d->rest_n[1] = 0;
	d->rest_mde = -1;
	if (d->exposure || d->nfindings == 0)
		return;
	for (s = 0; s < 2; s++)
		if (rest_total(c, s) - c->excl[s] <= 0)
			return;
	for (s = 0; s < 2; s++)
		d->rest_n[s] = rest_total(c, s) - c->excl[s];
	d->rest_threshold = judge_step(c->j, 1);
	nov = xcalloc(c->n + 1, 1);
	up = xcalloc(c->n + 1, 1);
	last = xcalloc(c->n + 1, sizeof(*last));
	for (i = 0; i < c->nacc; i++)
		overlap(c, i, nov, last, up);
	for (i = 0; i < d->nrows; i++) {
		struct delta_row *row = &d->rows[i];
		int own = row->finding >= 0 && row->role != DELTA_ROLE_CROWDED &&
		    row->role != DELTA_ROLE_BACKGROUND;

		for (s = 0; s < 2 && (nov[i] == 0 || (nov[i] == 1 && own));
		    s++)
			row->rest_n[s] = d->rest_n[s] +
			    (nov[i] == 1 ? c->acc[last[i]].excl[s] : 0);
	}
	for (i = 0; i < d->nrows; i++) {
		const struct delta_row *row = &d->rows[i];

		if (!row->tested || nov[i] != 0)
			continue;
		h = row->hyp == DELTA_HYP_FLAT ? &row->flat : &row->cum;
		pooled = fmin(1, (double)(h->k1 + h->k2) /
		    (double)(d->rest_n[0] + d->rest_n[1]));
		if ((v = h->phi * pooled * (1 - pooled)) > top) {
			top = v;
			best = h;
			d->rest_share = pooled;
		}
	}
	free(last);
	free(up);
	free(nov);
	if (best != NULL)
		d->rest_mde = judge_hyp_mde_in(best, d->rest_n[0],
		    d->rest_n[1], d->rest_threshold);
}

double
delta_row_rest(const struct delta *d, const struct delta_row *r,
    double *change)
{
	const struct judge_hyp *h = r->hyp == DELTA_HYP_FLAT ? &r->flat :
	    &r->cum;
	double	 m;

	*change = 0;
	if (r->rest_n[0] <= 0 || r->rest_n[1] <= 0 ||
	    h->k1 > r->rest_n[0] || h->k2 > r->rest_n[1])
		return -1;
	*change = d->cscale * ((double)h->k2 / (double)r->rest_n[1] -
	    (double)h->k1 / (double)r->rest_n[0]);
	m = judge_hyp_mde_in(h, r->rest_n[0], r->rest_n[1],
	    d->rest_threshold);
	return m >= 0 ? m * d->cscale : -1;
}

/*
 * Choosing the rows a report shows (delta.h, delta_select()): the first
 * k by a sort key, found with a heap of k rather than a sort of all
 * the rows, and the sort key's comparison the findings use too
 * (delta_key_cmp()).  Core: no I/O.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/delta.h"
#include "support/xmalloc.h"

static double
sort_key(const struct delta_row *r, enum delta_sort how)
{
	switch (how) {
	case DELTA_SORT_NAME:
		return 0;
	case DELTA_SORT_P:
		return r->tested ? -r->st.p : -2;
	case DELTA_SORT_FLAT:
		return fabs(r->delta_flat);
	case DELTA_SORT_NEW:
		return r->new_cum_n;
	default:
		return fabs(r->delta);
	}
}

int
delta_key_cmp(const void *a, const void *b)
{
	const struct delta_key *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sift r[j] down the heap r[0..k), whose top is the last in order. */
static void
sift_down(struct delta_key *r, size_t j, size_t k)
{
	struct delta_key	 t;
	size_t		 c;

	for (; (c = 2 * j + 1) < k; j = c) {
		if (c + 1 < k && delta_key_cmp(&r[c + 1], &r[c]) > 0)
			c++;
		if (delta_key_cmp(&r[c], &r[j]) <= 0)
			break;
		t = r[j];
		r[j] = r[c];
		r[c] = t;
	}
}

/*
 * Put the first k rows in order at the front, sorted.  A report shows
 * 20 rows of thousands: a heap of k keeps the first k met so far, and
 * only they are sorted.  Names are unique, so the order is total, and
 * the k rows are those a whole sort puts first.
 */
static void
sort_first(struct delta_key *r, size_t n, size_t k)
{
	struct delta_key	 t;
	size_t		 i;

	if (k >= n / 4) {
		qsort(r, n, sizeof(*r), delta_key_cmp);
		return;
	}
	for (i = k / 2; i-- > 0; )
		sift_down(r, i, k);
	for (i = k; i < n; i++)
		if (delta_key_cmp(&r[i], &r[0]) < 0) {
			t = r[0];
			r[0] = r[i];
			r[i] = t;
			sift_down(r, 0, k);
		}
	qsort(r, k, sizeof(*r), delta_key_cmp);
}

size_t *
delta_select(struct delta *d, enum delta_sort how, int findings, size_t k,
    size_t *nshow)
{
	struct delta_key	*sr;
	size_t		*order, i, n;

	sr = xreallocarray(NULL, d->nrows + 1, sizeof(*sr));
	for (i = 0, n = 0; i < d->nrows; i++) {
		const struct delta_row *row = &d->rows[i];

		if (findings && row->verdict != VERDICT_REGRESSED &&
		    row->verdict != VERDICT_IMPROVED)
			continue;
		if (row->base_cum == 0 && row->new_cum == 0 &&
		    row->base_flat == 0 && row->new_flat == 0)
			continue;
		sr[n].key = sort_key(row, how);
		sr[n].name = row->name;
		sr[n++].idx = i;
	}
	if (k == 0 || k > n)
		k = n;
	sort_first(sr, n, k);
	order = xreallocarray(NULL, k + 1, sizeof(*order));
	for (i = 0; i < k; i++) {
		order[i] = sr[i].idx;
		delta_explain(d, order[i]);
	}
	free(sr);
	*nshow = k;
	return order;
}

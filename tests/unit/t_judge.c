/*
 * Tests of judge.c, the family of one comparison: each hypothesis
 * tested as stats.c tests it, the family's q-values those of Tarone's
 * trimming and Benjamini-Hochberg over exactly the hypotheses tested,
 * intervals at the false-coverage-rate level, "too few samples" at the
 * threshold a further discovery needs, the dispersion between
 * replicates, and the retest outside the family.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/judge.h"
#include "stats/stats.h"
#include "tap.h"

static void
opts(struct judge_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->min_effect_pp = 1;
	o->min_effect_rel = 10;
	o->has_counts = 1;
}

/*
 * A family of 40 hypotheses of 1000 samples a side, one of them a large
 * change: p, the smallest p, q and the interval of each are what
 * stats.c gives for the same counts and the same family.  The last ten
 * repeat the counts of ten others, which judge.c tests once
 * (test_reps()): each must still come out as if tested on its own.
 */
static void
test_family(void)
{
	enum { M = 40 };
	struct judge_opts o;
	struct judge	 j;
	struct judge_hyp h[M];
	struct stats_result st;
	struct stats_fdr fdr;
	double		 p[M], pmin[M], q[M], lo, hi;
	size_t		 scratch[M], i, bad = 0;

	opts(&o);
	memset(h, 0, sizeof(h));
	for (i = 0; i < M; i++) {
		h[i].k1 = (int64_t)(i * 7 % 23);
		h[i].k2 = (int64_t)(i * 11 % 29);
	}
	for (i = M - 10; i < M; i++) {
		h[i].k1 = h[i - 25].k1;
		h[i].k2 = h[i - 25].k2;
	}
	h[0].k1 = 100;
	h[0].k2 = 300;
	judge_init(&j, &o, 1000, 1000, NULL, 0, NULL, 0);
	CHECK(!j.replicates);
	CHECK(judge_family(&j, h, M, NULL) == 0);
	CHECK_INT(j.ntested, M);
	for (i = 0; i < M; i++) {
		p[i] = stats_pvalue(h[i].k1, 1000, h[i].k2, 1000,
		    STATS_TWO_SIDED);
		pmin[i] = stats_pmin(h[i].k1 + h[i].k2, 1000, 1000,
		    STATS_TWO_SIDED);
	}
	CHECK(stats_fdr_discrete(p, pmin, M, 0.05, q, scratch, &fdr) == 0);
	CHECK_INT(j.fdr.kept, fdr.kept);
	CHECK_INT(j.fdr.rejected, fdr.rejected);
	CHECK(j.fdr.rejected >= 1);
	CHECK_NEAR(j.ci_alpha, stats_fcr_alpha(fdr.rejected, fdr.kept, 0.05),
	    0);
	for (i = 0; i < M; i++) {
		if (!h[i].tested || h[i].st.p != p[i] ||
		    !((isnan(q[i]) && isnan(h[i].q)) || q[i] == h[i].q))
			bad++;
		/* The smallest p may be a bound that decides the same. */
		if ((h[i].pmin <= fdr.cutoff) != (pmin[i] <= fdr.cutoff))
			bad++;
		stats_newcombe(h[i].k1, 1000, h[i].k2, 1000, j.ci_alpha, &lo,
		    &hi);
		if (h[i].st.lo != lo || h[i].st.hi != hi)
			bad++;
	}
	CHECK_INT(bad, 0);
	CHECK(judge_significant(&j, &h[0]));
	CHECK(!judge_insufficient(&j, &h[0]));
	/*
	 * Too few samples: exactly the hypotheses trimmed, and every one
	 * kept could still be a discovery at the threshold of a further one.
	 */
	for (i = 0, bad = 0; i < M; i++)
		if (judge_insufficient(&j, &h[i]) != (pmin[i] > fdr.cutoff) ||
		    (!judge_insufficient(&j, &h[i]) &&
		    pmin[i] > j.fdr.threshold))
			bad++;
	CHECK_INT(bad, 0);
	/* The header's numbers, at the threshold of a further finding. */
	CHECK(j.mde > j.noise && j.noise > 0);
	CHECK_NEAR(j.noise, stats_noise(j.mde_share, 1000, 1000,
	    j.fdr.threshold), 1e-15);
	CHECK(j.fdr.threshold < 0.05);

	/* Outside the family: the same counts at the family's cutoff. */
	stats_counts(100, 1000, 300, 1000, 0.05, &st);
	CHECK_INT(judge_retest(&j, 100, 1000, 300, 1000, 1, HUGE_VAL,
	    j.ci_alpha), 1);
	CHECK_INT(judge_retest(&j, 100, 1000, 101, 1000, 1, HUGE_VAL,
	    j.ci_alpha), 0);
	CHECK_INT(judge_retest(&j, 5, 0, 1, 10, 1, HUGE_VAL, 0.05), 0);
	CHECK_INT(judge_retest(&j, 5, 4, 1, 10, 1, HUGE_VAL, 0.05), -1);
	judge_release(&j);

	/* No counts: nothing is tested, nothing is significant. */
	o.has_counts = 0;
	judge_init(&j, &o, 1000, 1000, NULL, 0, NULL, 0);
	CHECK(judge_family(&j, h, M, NULL) == 0);
	CHECK_INT(j.ntested, 0);
	CHECK(!h[0].tested && judge_insufficient(&j, &h[0]));
	CHECK(j.mde < 0);
	judge_release(&j);
}

/* --min-effect: 1 point and 10% of the base share. */
static void
test_relevant(void)
{
	struct judge_opts o;
	struct judge	 j;

	opts(&o);
	judge_init(&j, &o, 1, 1, NULL, 0, NULL, 0);
	CHECK(judge_relevant(&j, 0.10, 0.12));
	CHECK(!judge_relevant(&j, 0.10, 0.105));	/* under 1 point */
	CHECK(!judge_relevant(&j, 0.50, 0.52));		/* under 10% */
	CHECK(judge_relevant(&j, 0, 0.02));		/* new */
	judge_release(&j);
}

/*
 * Replicates: three runs a side that agree with sampling are tested as
 * their pooled counts at a dispersion of 1, known to the runs' df (a t
 * test, close to Fisher's, not it: no test decides that the runs
 * agree); runs that vary far more widen the interval and weaken the
 * test.
 */
static void
test_replicates(void)
{
	enum { M = 60 };
	static const int64_t n1r[3] = { 1000, 1000, 1000 };
	static const int64_t n2r[3] = { 1000, 1000, 1000 };
	struct judge_opts o;
	struct judge	 j;
	struct judge_hyp h[M], w[M];
	struct stats_result st;
	int64_t		 runs[M * 6];
	size_t		 i, r;
	unsigned	 seed = 12345;

	opts(&o);
	memset(h, 0, sizeof(h));
	/* Shares 2% to 14%, each run within sampling noise of it. */
	for (i = 0; i < M; i++) {
		int64_t base = 20 + (int64_t)(i * 2);

		for (r = 0; r < 6; r++) {
			seed = seed * 1103515245 + 12345;
			runs[i * 6 + r] = base + (int64_t)((seed >> 16) % 5) -
			    2 + (i == 0 && r >= 3 ? 200 : 0);
		}
		h[i].k1 = runs[i * 6] + runs[i * 6 + 1] + runs[i * 6 + 2];
		h[i].k2 = runs[i * 6 + 3] + runs[i * 6 + 4] + runs[i * 6 + 5];
	}
	judge_init(&j, &o, 3000, 3000, n1r, 3, n2r, 3);
	CHECK(j.replicates);
	CHECK(judge_family(&j, h, M, runs) == 0);
	CHECK(!j.prior.binomial && j.prior.s02 < 1);
	CHECK(h[0].phi == 1 && h[0].df == j.prior.df);
	stats_counts(h[0].k1, 3000, h[0].k2, 3000, 0.05, &st);
	CHECK(h[0].st.method == STATS_QUASI && h[0].st.p >= st.p &&
	    h[0].st.p < 1e-20);
	CHECK(judge_significant(&j, &h[0]));
	judge_release(&j);

	/* Now every function's runs swing by a third: phi well above 1. */
	memcpy(w, h, sizeof(w));
	for (i = 0; i < M; i++)
		for (r = 0; r < 6; r++)
			runs[i * 6 + r] += r % 3 == 0 ? 15 + (int64_t)i / 4 :
			    r % 3 == 1 ? -(15 + (int64_t)i / 4) : 0;
	for (i = 0; i < M; i++) {
		w[i].k1 = runs[i * 6] + runs[i * 6 + 1] + runs[i * 6 + 2];
		w[i].k2 = runs[i * 6 + 3] + runs[i * 6 + 4] + runs[i * 6 + 5];
	}
	judge_init(&j, &o, 3000, 3000, n1r, 3, n2r, 3);
	CHECK(judge_family(&j, w, M, runs) == 0);
	CHECK(!j.prior.binomial && j.prior.s02 > 2);
	CHECK(w[0].phi > 1 && w[0].st.method == STATS_QUASI);
	CHECK(w[0].st.p > h[0].st.p);
	CHECK(w[0].st.hi - w[0].st.lo > h[0].st.hi - h[0].st.lo);
	judge_release(&j);
}

/*
 * One profile a side: judge_null() reads the spread of no change from
 * the flat counts, and each hypothesis is tested at the dispersion it
 * gives (stats_null_phi(), stats_null_df()); a pair of sides that
 * differ by sampling only keep the binomial test; with replicates it
 * changes nothing.
 */
static void
test_null(void)
{
	enum { M = 30 };
	struct judge_opts o;
	struct judge	 j;
	struct judge_hyp h[M];
	int64_t		 k1[M], k2[M];
	size_t		 i;
	struct stats_result st;
	double		 phi;

	opts(&o);
	for (i = 0; i < M; i++) {
		k1[i] = 200 - 6 * (int64_t)i;
		/* Every other function a quarter larger or smaller. */
		k2[i] = i % 2 ? k1[i] * 5 / 4 : k1[i] * 4 / 5;
	}
	memset(h, 0, sizeof(h));
	for (i = 0; i < M; i++) {
		h[i].k1 = k1[i];
		h[i].k2 = k2[i];
	}
	judge_init(&j, &o, 4000, 4000, NULL, 0, NULL, 0);
	CHECK(judge_null(&j, k1, k2, M) == 0);
	CHECK(j.null.tau2 > 0.005 && j.null.n == M);
	CHECK(judge_family(&j, h, M, NULL) == 0);
	phi = stats_null_phi(&j.null, h[0].k1 + h[0].k2, 4000, 4000, 0);
	CHECK(phi > 1.5);
	CHECK_NEAR(h[0].phi, phi, 0);
	CHECK_NEAR(h[0].df, stats_null_df(&j.null, phi), 0);
	CHECK(stats_disp_p(h[0].k1, 4000, h[0].k2, 4000, phi, h[0].df,
	    STATS_TWO_SIDED, &st) == 0);
	CHECK_NEAR(h[0].st.p, st.p, 0);
	/* The binomial test calls that spread a change; this does not. */
	stats_counts(h[0].k1, 4000, h[0].k2, 4000, 0.05, &st);
	CHECK(st.p < 0.05 && h[0].st.p > st.p);
	for (i = 0; i < M; i++)
		CHECK(!judge_significant(&j, &h[i]));
	judge_release(&j);

	/*
	 * The runtime's work apart moves as one: six parts of it that trade
	 * samples among themselves (a collector's functions, say) are one
	 * unit that did not change, not six that spread.
	 */
	memset(h, 0, sizeof(h));
	for (i = 0; i < M; i++) {
		h[i].k1 = 200 - 6 * (int64_t)i;
		h[i].k2 = h[i].k1 + (i % 3 == 0 ? 3 : i % 3 == 1 ? -3 : 0);
		h[i].kind = JUDGE_FLAT;
	}
	for (i = 0; i < 6; i++) {
		h[i].kind = JUDGE_FLAT_BG;
		h[i].k2 = i % 2 ? h[i].k1 * 2 : h[i].k1 / 2;
	}
	h[5].k2 += h[0].k1 + h[2].k1 + h[4].k1 - h[0].k2 - h[2].k2 - h[4].k2 -
	    (h[1].k2 + h[3].k2 + h[5].k2 - h[1].k1 - h[3].k1 - h[5].k1);
	judge_init(&j, &o, 4000, 4000, NULL, 0, NULL, 0);
	CHECK(judge_family(&j, h, M, NULL) == 0);
	CHECK(j.null.tau2 == 0 && j.null.n == M - 5);
	judge_release(&j);
	for (i = 0; i < 6; i++)
		h[i].kind = JUDGE_FLAT;
	judge_init(&j, &o, 4000, 4000, NULL, 0, NULL, 0);
	CHECK(judge_family(&j, h, M, NULL) == 0);
	/*
	 * As functions of their own they are six units, each far out from
	 * the rest: more than a tenth of them, so stats_null() screens them
	 * from the spread as changes would be.
	 */
	CHECK(j.null.n == M && j.null.tau2 < 1e-3);
	judge_release(&j);

	/* Sampling alone: tau2 0, the binomial test. */
	for (i = 0; i < M; i++)
		h[i].k2 = k2[i] = k1[i] + (i % 3 == 0 ? 3 : i % 3 == 1 ? -3 : 0);
	judge_init(&j, &o, 4000, 4000, NULL, 0, NULL, 0);
	CHECK(judge_null(&j, k1, k2, M) == 0);
	CHECK(j.null.tau2 == 0);
	CHECK(judge_family(&j, h, M, NULL) == 0);
	CHECK(h[0].phi == 1 && h[0].df == HUGE_VAL);
	judge_release(&j);
}

int
main(void)
{
	test_family();
	test_relevant();
	test_replicates();
	test_null();
	return tap_done();
}

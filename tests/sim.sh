#!/bin/sh
# Statistical acceptance test: profdiff's verdicts and findings on
# simulated profiles whose answer is known.  tests/tools/simprof.c draws
# each profile as a multinomial sample over a fixed call tree of 65
# functions, with fixed seeds, so every run of this script sees the same
# profiles.
#
#	sh tests/sim.sh BUILD_DIR
#	sh tests/sim.sh --stats-awk	(prints the awk functions below)
#
# 0. The exact power of Fisher's test, in awk below, equals a brute-force
#    sum over every table on small cases.  It is "the limit the counts
#    allow" of the power checks.
# 1. False alarms.  Both profiles of a pair come from the same tree.
#    Under this global null, Benjamini-Hochberg over Tarone's family
#    keeps the chance of any discovery at alpha, so check-significance
#    may exit 1 (a regression finding) in at most alpha of the pairs,
#    plus 3 binomial standard errors, with the default --min-effect and
#    with none.  Every report's exit status is 1 exactly when it has a
#    regression finding.
# 2. Power.  One hypothesis is injected: (LEAF) main.sortByRelevance's
#    own time, its flat share, +1.5 points (simprof -f); (INNER)
#    main.calculateScore's cumulative share +5 points, its flat share
#    unchanged, by calling main.normalizeWeights more (simprof -e);
#    (MULTI) LEAF with two other regressions in the tree, so that the
#    family's threshold rises; (MIN) sortByRelevance's cumulative share
#    +0.7 points at 50000 samples, significant but under --min-effect.
#    "Found" is: a regression finding names the injected function (it
#    is the finding's function or on its path).  The found rate must lie
#    between the exact power of Fisher's test at alpha/m, m the largest
#    family profdiff reports (BH within the family rejects at least what
#    Bonferroni does), and at alpha (it rejects at most what the test
#    alone does); and it must match, within 3 SE + 0.03, a Monte Carlo
#    model of the whole procedure in awk (model.awk: multinomial draws,
#    flat and cumulative hypotheses with the same-sample ones merged,
#    Tarone's trimming, the z test with Yates's correction, BH,
#    --min-effect), which shares no code with profdiff.  Beside them,
#    the limit the counts allow: the exact power at the median cutoff
#    R alpha / m (discoveries times alpha over the family) of the
#    reports with a discovery.  Every scenario's mean family and number
#    of discoveries are printed with the model's.
# 3. Findings.  In LEAF, INNER and MIN, without --min-effect (the
#    default's figures beside): when the injected function's row is
#    regressed, the top finding names it in at least 90% of the
#    reports; one regression makes one regression finding in at least
#    90% of the reports that have one (the 10% allow a false finding,
#    at most alpha of them, and as many splits); and in every scenario,
#    a function whose true share of the rest of the profile (the leaf
#    stacks the effects left alone) is unchanged is called improved in
#    at most alpha + 3 SE of the reports.  Without the stacks the
#    effects changed, the rest is a global null, which a family tested
#    at alpha gets wrong in at most alpha of the reports.
# 4. Replicates.  Runs that vary more than sampling does (simprof -d):
#    3 vs 3 exits 1 in at most alpha + 3 SE of no-change sets, with and
#    without --min-effect, and so do one profile a side and three runs
#    merged, tested allowing for the spread between processes that
#    their functions show (stats_null.c; with --same-process, which
#    the other sections use for simprof's draws of one tree, they
#    over-reject); 2 vs 2 is reported.  A change of +0.8 points: on
#    runs that agree, 3 vs 3 finds it at least as often as 1 vs 1 of the
#    same run length (less 2 SE of the difference), and no more often
#    than Fisher's test on the pooled counts at alpha could (it tests at
#    the dispersion the runs show, never below 1, so it cannot have more
#    power; Bonferroni's power beside it is printed, not checked, since
#    estimating the dispersion costs some); three runs merged into one
#    profile are reported beside it,
#    and with -d all three rates.  Exit 0 (rather than 3, inconclusive)
#    must mean that twice --min-effect would have been found.
# 7. Rates (--normalize duration, the test against exposures): no false
#    alarms beyond alpha + 3 SE between windows of 2000 and 3000 samples
#    of the same rates, and a +5 point rise found at least as often as
#    the test's power on Poisson counts allows (section 7 below).
#    SIM_RATE_PAIRS (default 200) pairs each.
#
# SIM_PAIRS (default 300, at least 6) is the number of null pairs; each
# power scenario uses 2/3 as many pairs, the replicate tests 1/2, 1/4
# and 1/6 as many sets.  SIM_MC (default 3000) is the number of Monte
# Carlo draws of the model.  The pairs and sets run in two workers.
# Each check prints "ok - ..." or "not ok - ..."; "# " lines are
# information.  The last line is "sim: N passed, N failed"; the exit
# status is 1 if any check failed, 2 on a usage error.
set -u

# The statistics, in awk: the normal tail, binomial probabilities, and
# the exact power of Fisher's two-sided test.  tests/real.sh takes them
# from here (sh tests/sim.sh --stats-awk).
stats_awk() {
	cat <<'EOF'
# Upper tail of N(0, 1): erfc by Numerical Recipes' erfcc (relative error
# below 1.2e-7).
function nsf(z,   x, t) {
	if (z < 0)
		return 1 - nsf(-z)
	x = z / sqrt(2)
	t = 1 / (1 + 0.5 * x)
	return t * exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + \
	    t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + \
	    t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + \
	    t * 0.17087277))))))))) / 2
}
function se(p, n) { return n > 0 ? sqrt(p * (1 - p) / n) : 0 }
# Bin(n, p), 0 < p < 1, over BLO..BHI, 8 SD either side of the mean (the
# mass outside is below 1e-14), into a[]: the ratio recurrence from the
# mode, then normalized.
function binpmf(n, p, a,   m, sd, k, s, r) {
	split("", a)
	sd = sqrt(n * p * (1 - p))
	BLO = int(n * p - 8 * sd) - 1
	BHI = int(n * p + 8 * sd) + 2
	if (BLO < 0) BLO = 0
	if (BHI > n) BHI = n
	m = int((n + 1) * p)
	if (m > BHI) m = BHI
	if (m < BLO) m = BLO
	a[m] = 1
	r = p / (1 - p)
	for (k = m; k < BHI; k++)
		a[k + 1] = a[k] * (n - k) / (k + 1) * r
	for (k = m; k > BLO; k--)
		a[k - 1] = a[k] * k / ((n - k + 1) * r)
	s = 0
	for (k = BLO; k <= BHI; k++)
		s += a[k]
	for (k = BLO; k <= BHI; k++)
		a[k] /= s
}
# Fisher's two-sided exact test of k1 of n1 against K - k1 of n2 rejects
# at t exactly when k1 <= FA or k1 >= FB.  Its p-value is the probability
# of the tables no more likely than the one seen, with R's relative
# tolerance of 1e-7.  The hypergeometric is unimodal, so each tail is a
# run from its end, and two pointers walk the two tails together; 9 SD
# from the mean its probabilities are below 1e-17 and are left out.
function fcut(K, n1, n2, t,   N, lo, hi, mu, sd, md, j, h, s, L, U, u, x) {
	N = n1 + n2
	lo = K - n2 > 0 ? K - n2 : 0
	hi = K < n1 ? K : n1
	FA = lo - 1
	FB = hi + 1
	if (hi <= lo)
		return
	mu = K * n1 / N
	sd = sqrt(n1 * n2 * K * (N - K) / (N * N * (N - 1)))
	x = int(mu - 9 * sd) - 1
	if (x > lo) lo = x
	x = int(mu + 9 * sd) + 2
	if (x < hi) hi = x
	md = int((K + 1) * (n1 + 1) / (N + 2))
	if (md < lo) md = lo
	if (md > hi) md = hi
	h[md] = 1
	for (j = md; j < hi; j++)
		h[j + 1] = h[j] * (K - j) * (n1 - j) / ((j + 1) * (n2 - K + j + 1))
	for (j = md; j > lo; j--)
		h[j - 1] = h[j] * j * (n2 - K + j) / ((K - j + 1) * (n1 - j + 1))
	s = 0
	for (j = lo; j <= hi; j++)
		s += h[j]
	for (j = lo; j <= hi; j++)
		h[j] /= s
	L = U = 0
	u = hi
	for (j = lo; j < md; j++) {
		L += h[j]
		while (u > j && h[u] <= h[j] * (1 + 1e-7)) {
			U += h[u]
			u--
		}
		if (L + U > t)
			break
		FA = j
	}
	L = U = 0
	u = lo
	for (j = hi; j > md; j--) {
		L += h[j]
		while (u < j && h[u] <= h[j] * (1 + 1e-7)) {
			U += h[u]
			u++
		}
		if (L + U > t)
			break
		FB = j
	}
}
# The exact power of Fisher's two-sided test at t, for k1 ~ Bin(n1, p1)
# and k2 ~ Bin(n2, p2) independent: the probability of the tables it
# rejects.  Totals K more than 8 SD from their mean (probability below
# 1e-14) are left out.
function fpower(n1, p1, n2, p2, t,   b1, b2, lo1, hi1, lo2, hi2, k1, k2, K, A, B, pw, kl, kh, x) {
	binpmf(n1, p1, b1)
	lo1 = BLO
	hi1 = BHI
	binpmf(n2, p2, b2)
	lo2 = BLO
	hi2 = BHI
	x = 8 * sqrt(n1 * p1 * (1 - p1) + n2 * p2 * (1 - p2))
	kl = int(n1 * p1 + n2 * p2 - x) - 1
	kh = int(n1 * p1 + n2 * p2 + x) + 2
	for (K = kl; K <= kh; K++) {
		fcut(K, n1, n2, t)
		A[K] = FA
		B[K] = FB
	}
	pw = 0
	for (k1 = lo1; k1 <= hi1; k1++)
		for (k2 = lo2; k2 <= hi2; k2++) {
			K = k1 + k2
			if (K >= kl && K <= kh && (k1 <= A[K] || k1 >= B[K]))
				pw += b1[k1] * b2[k2]
		}
	return pw
}
# The same by brute force, for small n: every table, its p-value summed
# over the whole support from log factorials.  Only to check fpower().
function lfact(n,   i) {
	if (!(n in LF)) {
		LF[0] = 0
		for (i = 1; i <= n; i++)
			if (!(i in LF))
				LF[i] = LF[i - 1] + log(i)
	}
	return LF[n]
}
function lchoose(n, k) { return lfact(n) - lfact(k) - lfact(n - k) }
function bfpower(n1, p1, n2, p2, t,   k1, k2, K, j, lo, hi, po, p, pw, hj) {
	pw = 0
	for (k1 = 0; k1 <= n1; k1++)
		for (k2 = 0; k2 <= n2; k2++) {
			K = k1 + k2
			lo = K - n2 > 0 ? K - n2 : 0
			hi = K < n1 ? K : n1
			po = exp(lchoose(n1, k1) + lchoose(n2, k2) - \
			    lchoose(n1 + n2, K))
			p = 0
			for (j = lo; j <= hi; j++) {
				hj = exp(lchoose(n1, j) + lchoose(n2, K - j) - \
				    lchoose(n1 + n2, K))
				if (hj <= po * (1 + 1e-7))
					p += hj
			}
			if (p <= t)
				pw += exp(lchoose(n1, k1) + k1 * log(p1) + \
				    (n1 - k1) * log(1 - p1) + lchoose(n2, k2) + \
				    k2 * log(p2) + (n2 - k2) * log(1 - p2))
		}
	return pw
}
# The median of the numbers in v[1..n], sorted in place.
function median(v, n,   i, j, x) {
	for (i = 2; i <= n; i++) {
		x = v[i]
		for (j = i - 1; j >= 1 && v[j] > x; j--)
			v[j + 1] = v[j]
		v[j + 1] = x
	}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
EOF
}
case ${1:-} in
--stats-awk)
	stats_awk
	exit 0
	;;
esac

if [ $# -ne 1 ]; then
	echo "usage: sh tests/sim.sh BUILD_DIR" >&2
	exit 2
fi
PD=$1/profdiff
SP=$1/tests/simprof
for x in "$PD" "$SP"; do
	if [ ! -x "$x" ]; then
		echo "sim: $x: not found (make all tests)" >&2
		exit 2
	fi
done
case $PD in /*) ;; *) PD=$(pwd)/$PD ;; esac
case $SP in /*) ;; *) SP=$(pwd)/$SP ;; esac
command -v jq >/dev/null 2>&1 || { echo "sim: needs jq" >&2; exit 2; }

PAIRS=${SIM_PAIRS:-300}
MC=${SIM_MC:-3000}
case $PAIRS$MC in
'' | *[!0-9]*)
	echo "sim: SIM_PAIRS and SIM_MC must be numbers" >&2
	exit 2
	;;
esac
if [ "$PAIRS" -lt 6 ] || [ "$MC" -lt 1 ]; then
	echo "sim: SIM_PAIRS must be at least 6, SIM_MC at least 1" >&2
	exit 2
fi
NPOW=$((PAIRS * 2 / 3))
NREP=$((PAIRS / 2))
NRP=$((PAIRS / 4))
NHON=$((PAIRS / 6))
ALPHA=0.05
N=2000			# samples per profile: 20 s at 100 Hz
SIGMA=0.1		# between-run overdispersion of each leaf, log scale
TOL=0.03		# the model's z test and draws against Fisher's test
PURE="--min-effect 0 --min-effect 0%"
# simprof draws every profile from one tree, as windows of one process
# are: one profile a side is tested so (--same-process), except where
# the runs vary (section 4), which is what the default's allowance for
# two processes is for.
SAME="--same-process"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sim.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
pass=0
fail=0
start=$(date +%s)

ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; }
# check COND MESSAGE: COND is an awk expression.
check() {
	if awk "BEGIN { exit !($1) }"; then ok "$2"; else not_ok "$2"; fi
}
# st PROG ARG...: run the awk program PROG with the functions of
# stats.awk (below); ARGs are awk's -v and -F options and files.
st() {
	printf '%s\n' "$1" >"$tmp/prog.awk"
	shift
	awk -f "$tmp/stats.awk" -f "$tmp/prog.awk" "$@"
}
# report WHAT PROG ARG...: one check.  PROG prints the measured numbers
# and exits 0 when they pass; no output is a failure too.
report() {
	_what=$1
	shift
	_msg=$(st "$@")
	if [ $? -eq 0 ] && [ -n "$_msg" ]; then
		ok "$_what: $_msg"
	else
		not_ok "$_what: ${_msg:-no result}"
	fi
}
die() { echo "sim: $*" >&2; exit 2; }

# ---------------------------------------------------------------------
stats_awk >"$tmp/stats.awk"

# The model of one check-significance run, for the prediction.  Given
# the leaf weights of each side (simprof -l), each rep draws each side's
# leaf counts as a multinomial (binomials of what is left: exact below a
# variance of 30, the rounded normal above); gives each function its flat
# and cumulative count; makes them hypotheses, one for those whose
# samples are the same (a function every stack of which ends at it, a
# single caller with the same stacks); trims them as Tarone does, from
# the smallest p-value each total allows; tests the family with the z
# test with Yates's correction and adjusts it with BH; and calls a row
# regressed as profdiff's rows are called (a discovery that passes
# --min-effect, cum deciding the direction).  It prints the fraction of
# reps in which TARGET is regressed with the default --min-effect and
# with none, the same for any row (exit 1), the mean family and number of
# discoveries, and the number of hypotheses.  It shares no code with
# profdiff.
cat >"$tmp/model.awk" <<'EOF'
function gauss(   u) {
	u = 1 - rand()
	return sqrt(-2 * log(u)) * cos(6.283185307179586 * rand())
}
function bdraw(m, q,   v, k, u, pk, c, r, flip) {
	if (m <= 0 || q <= 0)
		return 0
	if (q >= 1)
		return m
	v = m * q * (1 - q)
	if (v >= 30) {
		k = int(m * q + sqrt(v) * gauss() + 0.5)
		return k < 0 ? 0 : k > m ? m : k
	}
	flip = q > 0.5
	if (flip)
		q = 1 - q
	u = rand()
	k = 0
	pk = c = (1 - q) ^ m
	r = q / (1 - q)
	while (u > c && k < m) {
		pk *= (m - k) / (k + 1) * r
		k++
		c += pk
	}
	return flip ? m - k : k
}
function draw(pr, n, out,   i, rem, rp) {
	rem = n
	rp = 1
	for (i = 1; i < nleaf; i++) {
		out[i] = bdraw(rem, rp > pr[i] ? pr[i] / rp : 1)
		rem -= out[i]
		rp -= pr[i]
	}
	out[nleaf] = rem
}
function uf(x) {
	while (up[x] != x)
		x = up[x] = up[up[x]]
	return x
}
function unite(a, b) {
	a = uf(a)
	b = uf(b)
	if (a < b) up[b] = a
	else if (b < a) up[a] = b
}
# The smallest two-sided p-value of K samples between two sides of n
# each: all of them on one side, twice that table's probability.
function pmin(K, n,   i, p) {
	if (K == 0)
		return 1
	if (K >= 64)
		return 0
	p = 2
	for (i = 0; i < K; i++)
		p *= (n - i) / (2 * n - i)
	return p < 1 ? p : 1
}
# The continuity-corrected z test on the hypergeometric mean and variance
# of k1 given the total.
function ztest(k1, k2, n1, n2,   K, N, V, d) {
	K = k1 + k2
	N = n1 + n2
	V = n1 * n2 * K * (N - K) / (N * N * (N - 1))
	if (V <= 0)
		return 1
	d = k1 - K * n1 / N
	if (d < 0)
		d = -d
	return d <= 0.5 ? 1 : 2 * nsf((d - 0.5) / sqrt(V))
}
function relevant(b, d, mp, mr) {
	if (d < 0)
		d = -d
	return d * 100 >= mp && (b == 0 || d / b * 100 >= mr)
}
FNR == 1 { side++ }
side == 1 {
	nleaf++
	w1[nleaf] = $2
	t1 += $2
	nfr = split($1, fr, ";")
	for (j = 1; j <= nfr; j++)
		if (!(fr[j] in fid))
			fid[fr[j]] = ++nf
	flatof[nleaf] = fid[fr[nfr]]
	fset[fid[fr[nfr]]] = fset[fid[fr[nfr]]] " " nleaf
	split("", seen)
	for (j = 1; j <= nfr; j++) {
		f = fid[fr[j]]
		if (f in seen)
			continue
		seen[f] = 1
		mem[nleaf, ++nmem[nleaf]] = f
		cset[f] = cset[f] " " nleaf
		if (j == 1)
			root[f] = 1
		else if (!((f, fid[fr[j - 1]]) in edge)) {
			edge[f, fid[fr[j - 1]]] = 1
			ncall[f]++
			caller[f] = fid[fr[j - 1]]
		}
	}
}
side == 2 { w2[FNR] = $2; t2 += $2 }
END {
	if (n1 != n2 || FNR != nleaf) {
		print "model: needs equal sides and the same leaves" >"/dev/stderr"
		exit 2
	}
	srand(seed)
	for (i = 1; i <= nleaf; i++) {
		p1[i] = w1[i] / t1
		p2[i] = w2[i] / t2
	}
	# 2f - 1 is f's flat hypothesis, 2f its cum.  Merged by the tree's
	# structure, which the counts show while every leaf has a sample
	# (at 20 or more expected a leaf, all but always).
	for (x = 1; x <= 2 * nf; x++)
		up[x] = x
	for (f = 1; f <= nf; f++) {
		if (fset[f] == cset[f])
			unite(2 * f - 1, 2 * f)
		if (!(f in root) && ncall[f] == 1 && cset[caller[f]] == cset[f])
			unite(2 * f, 2 * caller[f])
	}
	nh = 0
	for (x = 1; x <= 2 * nf; x++)
		if (uf(x) == x) {
			hid[x] = ++nh
			hf[nh] = int((x + 1) / 2)
			hflat[nh] = x % 2
		}
	for (x = 1; x <= 2 * nf; x++)
		hof[x] = hid[uf(x)]
	tgt = fid[target]
	split("0 0", hit)
	split("0 0", any)
	split("1 0", mp)
	split("10 0", mr)
	sm = sr = 0
	for (r = 1; r <= reps; r++) {
		draw(p1, n1, c1)
		draw(p2, n2, c2)
		for (f = 1; f <= nf; f++)
			k1c[f] = k2c[f] = k1f[f] = k2f[f] = 0
		for (i = 1; i <= nleaf; i++) {
			k1f[flatof[i]] += c1[i]
			k2f[flatof[i]] += c2[i]
			for (j = 1; j <= nmem[i]; j++) {
				f = mem[i, j]
				k1c[f] += c1[i]
				k2c[f] += c2[i]
			}
		}
		# Tarone: K* is the smallest K with at most K hypotheses whose
		# smallest p is at most alpha / K; they are the family.
		nz = no = 0
		for (h = 1; h <= nh; h++) {
			f = hf[h]
			a1[h] = hflat[h] ? k1f[f] : k1c[f]
			a2[h] = hflat[h] ? k2f[f] : k2c[f]
			pm[h] = pmin(a1[h] + a2[h], n1)
			if (pm[h] == 0)
				nz++
			else if (pm[h] <= alpha)
				other[++no] = pm[h]
		}
		for (K = nz > 1 ? nz : 1; ; K++) {
			M = nz
			for (j = 1; j <= no; j++)
				if (other[j] <= alpha / K)
					M++
			if (M <= K)
				break
		}
		# BH at alpha over the family.
		np = 0
		for (h = 1; h <= nh; h++) {
			pv[h] = 1
			if (pm[h] > alpha / K)
				continue
			pv[h] = ztest(a1[h], a2[h], n1, n2)
			if (pv[h] > alpha)
				continue
			for (j = np; j >= 1 && pl[j] > pv[h]; j--)
				pl[j + 1] = pl[j]
			pl[j + 1] = pv[h]
			np++
		}
		R = 0
		for (j = 1; j <= np; j++)
			if (pl[j] <= j * alpha / M)
				R = j
		cut = R * alpha / M
		sm += M
		sr += R
		for (s = 1; s <= 2; s++) {
			reg = 0
			for (f = 1; f <= nf && R > 0; f++) {
				bf = k1f[f] / n1
				df = k2f[f] / n2 - bf
				bc = k1c[f] / n1
				dc = k2c[f] / n2 - bc
				fs = pv[hof[2 * f - 1]] <= cut && relevant(bf, df, mp[s], mr[s])
				cs = pv[hof[2 * f]] <= cut && relevant(bc, dc, mp[s], mr[s])
				if (fs && cs && df * dc < 0)
					fs = 0
				if (!(cs ? dc > 0 : fs && df > 0))
					continue
				reg = 1
				if (f == tgt)
					hit[s]++
			}
			any[s] += reg
		}
	}
	printf "%.4f %.4f %.4f %.4f %.2f %.2f %d\n", hit[1] / reps,
	    hit[2] / reps, any[1] / reps, any[2] / reps, sm / reps, sr / reps, nh
}
EOF

# model LEAVES1 LEAVES2 TARGET OUT SAMPLES: run the model in the
# background.
model() {
	awk -v seed=1 -v reps="$MC" -v n1="$5" -v n2="$5" -v alpha=$ALPHA \
	    -v target="$3" -f "$tmp/stats.awk" -f "$tmp/model.awk" "$1" "$2" \
	    >"$4" 2>>"$tmp/stderr" &
}

# verify LIST DIR: prints how many of the reports named in LIST ("file
# status" lines) do not parse as JSON or have an exit_status other than
# the exit status recorded (a sanitizer's abort exits 1, like a
# finding), or break what the findings promise: exit 1 exactly when a
# finding is a regression, each finding's path ending at its function,
# the findings numbered 1, 2, ... in order, each row's finding the
# number of one (1 for #1, as CSV and the text).
verify() {
	jq -r '(.findings | length) as $n | [input_filename, .exit_status,
	    (((.exit_status == 1) == any(.findings[]; .verdict == "regressed"))
	     and all(.findings[]; .path[-1] == .function and .name == .function)
	     and ([.findings[].finding] == [range(1; $n + 1)])
	     and all(.rows[]; .finding == null or
	         (.finding >= 1 and .finding <= $n)))] | @tsv' "$2"/*.json \
	    2>"$tmp/jq.err" >"$tmp/js.list"
	awk -F'\t' 'FILENAME == ARGV[1] { js[$1] = $2; fine[$1] = $3; next }
	    { split($0, a, " "); if (js[a[1]] != a[2] || fine[a[1]] != "true") bad++ }
	    END { print bad + 0 }' "$tmp/js.list" "$1"
}

stderr_clean() {
	if [ -s "$tmp/stderr" ]; then
		not_ok "profdiff, simprof and the model are silent on these" \
		    "inputs ($(head -1 "$tmp/stderr"))"
		: >"$tmp/stderr"
	fi
}

# par2 N BODY: run the shell function BODY for i = 0 .. N - 1 in two
# workers, one for each half, since the machine has two cores.  W is the
# worker's own folder for the profiles it draws; BODY appends its "file
# status" lines to lists (lines that short are written whole), and may
# die.
par2() {
	mkdir -p "$tmp/w0" "$tmp/w1"
	(W=$tmp/w0; i=0
	while [ $i -lt $(($1 / 2)) ]; do $2; i=$((i + 1)); done) &
	_w0=$!
	(W=$tmp/w1; i=$(($1 / 2))
	while [ $i -lt "$1" ]; do $2; i=$((i + 1)); done) &
	_w1=$!
	wait $_w0 || die "a worker failed"
	wait $_w1 || die "a worker failed"
}
# cs DIR LIST ARG...: check-significance on ARGs to DIR/$i.json, its
# exit status recorded in LIST.
cs() {
	_d=$1
	_l=$2
	shift 2
	"$PD" check-significance -q -n 0 -f json "$@" >"$_d/$i.json" \
	    2>>"$tmp/stderr"
	echo "$_d/$i.json $?" >>"$_l"
}

# pairs DIR N SAMPLES SEED [ARG...]: N pairs of profiles of SAMPLES
# each, the base one with seed SEED + 2 i, the new one with SEED + 2 i +
# 1 and simprof's ARGs; check-significance with the default --min-effect
# to DIR/d$i.json and without to DIR/z$i.json, listed in DIR.list.
pairs() {
	_dir=$1
	_ns=$3
	_seed=$4
	_n=$2
	shift 4
	_px="$*"
	rm -rf "$_dir"
	mkdir "$_dir"
	: >"$_dir.list"
	par2 "$_n" pair_one
}
pair_one() {
	"$SP" -n "$_ns" -s $((_seed + 2 * i)) "$W/a.pb.gz" 2>>"$tmp/stderr" &&
	    "$SP" -n "$_ns" -s $((_seed + 1 + 2 * i)) $_px "$W/b.pb.gz" \
	    2>>"$tmp/stderr" || die "simprof failed"
	"$PD" check-significance -q -n 0 -f json $SAME "$W/a.pb.gz" \
	    "$W/b.pb.gz" >"$_dir/d$i.json" 2>>"$tmp/stderr"
	echo "$_dir/d$i.json $?" >>"$_dir.list"
	"$PD" check-significance -q -n 0 -f json $SAME $PURE "$W/a.pb.gz" \
	    "$W/b.pb.gz" >"$_dir/z$i.json" 2>>"$tmp/stderr"
	echo "$_dir/z$i.json $?" >>"$_dir.list"
}

# share FILE FUNC COLUMN: a true share from simprof -t (2 cum, 3 flat).
share() {
	awk -F'\t' -v f="$2" -v c="$3" '$1 == f { print $c }' "$1"
}

# ---------------------------------------------------------------------
# 0. The exact power against brute force.
report "exact power of Fisher's test in awk = brute force over every table" \
    'BEGIN { split("20 0.2 30 0.5 0.05 25 0.1 25 0.4 0.001 40 0.5 15 0.5 0.05", c, " ")
    for (i = 0; i < 3; i++) {
        a = fpower(c[5 * i + 1], c[5 * i + 2], c[5 * i + 3], c[5 * i + 4], c[5 * i + 5])
        b = bfpower(c[5 * i + 1], c[5 * i + 2], c[5 * i + 3], c[5 * i + 4], c[5 * i + 5])
        d = a - b; if (d < 0) d = -d; if (d > worst) worst = d
        s = s sprintf("%s%.6f", i ? ", " : "", a) }
    printf "%s; worst difference %.1e", s, worst
    exit !(worst < 1e-9) }'
echo "# exact power at 0.05, doc/statistics.md section 9's figures in" \
    "parentheses: $(st 'BEGIN { printf "%.3f (0.531), %.3f (0.675), %.3f (0.812)",
    fpower(1000, 0.1, 1000, 0.13, 0.05), fpower(300, 0.5, 300, 0.6, 0.05),
    fpower(200, 0.05, 400, 0.12, 0.05) }')"

# ---------------------------------------------------------------------
# The tree's true shares (simprof -t) and leaf weights (simprof -l).
"$SP" -t >"$tmp/true0" || die "simprof -t failed"
"$SP" -l >"$tmp/leaves0" || die "simprof -l failed"
M=$(wc -l <"$tmp/true0")
echo "# $M functions; main.sortByRelevance: true share $(share \
    "$tmp/true0" main.sortByRelevance 2) cum, $(share "$tmp/true0" \
    main.sortByRelevance 3) flat; main.calculateScore $(share \
    "$tmp/true0" main.calculateScore 2) cum"
model "$tmp/leaves0" "$tmp/leaves0" main.sortByRelevance "$tmp/m.null" $N

# ---------------------------------------------------------------------
# 1. Null, one profile per side.
pairs "$tmp/null" "$PAIRS" $N 100000
grep '/d[0-9]*\.json ' "$tmp/null.list" >"$tmp/null.d"
grep '/z[0-9]*\.json ' "$tmp/null.list" >"$tmp/null.z"
bad=$(verify "$tmp/null.list" "$tmp/null")
check "$bad == 0" "null: every report parses, its exit_status is the exit status, and exit 1 means a regression finding ($bad bad of $((2 * PAIRS)))"
wait
stderr_clean
for t in d z; do
	k=$(awk '$2 == 1 { k++ } END { print k + 0 }' "$tmp/null.$t")
	e=$(awk '$2 != 0 && $2 != 1 && $2 != 3 { k++ } END { print k + 0 }' \
	    "$tmp/null.$t")
	if [ $t = d ]; then
		what="default --min-effect (1pp and 10%)"
		m=$(cut -d' ' -f3 "$tmp/m.null")
	else
		what="--min-effect 0 --min-effect 0%"
		m=$(cut -d' ' -f4 "$tmp/m.null")
	fi
	check "$e == 0" "null, 1 vs 1, $what: no errors ($e of $PAIRS exit other than 0, 1, 3)"
	report "null, 1 vs 1, $what: false alarms" 'BEGIN {
	    s = se(a, n); r = k / n
	    printf "%d/%d = %.3f, SE %.4f; bound alpha + 3 SE = %.3f; model %.3f",
	        k, n, r, s, a + 3 * s, m
	    exit !(r <= a + 3 * s) }' -v k="$k" -v n="$PAIRS" -v a=$ALPHA -v m="$m"
done
jq -r '[.family, .hypotheses] | @tsv' "$tmp"/null/z*.json >"$tmp/null.fam"
echo "# null: family $(awk '{ s += $1; if ($1 > m) m = $1 } END {
    printf "%.1f on average, at most %d", s / NR, m }' "$tmp/null.fam") of" \
    "$(awk '{ s += $2 } END { printf "%.1f", s / NR }' "$tmp/null.fam")" \
    "hypotheses; the model's $(cut -d' ' -f5 "$tmp/m.null") of" \
    "$(cut -d' ' -f7 "$tmp/m.null")"

# ---------------------------------------------------------------------
# 2 and 3. Power, and the findings.
#
# The jq program: one line per report.  kind (d default, z no
# --min-effect), exit status, regression findings, improvement findings,
# found (a regression finding names TARGET), the top finding names it
# ("-" with no finding), TARGET's row verdict ("absent" when it is not
# listed: check-significance lists the rows called regressed or
# improved), rows called improved whose true share of the rest is
# unchanged, the findings' crowded-in rows, family, discoveries,
# threshold, hypotheses, the hypothesis of the finding that names
# TARGET, the top finding as verdict:path, the crowded-out rows.
cat >"$tmp/pow.jq" <<'EOF'
def names($f): $f.path + [$f.function];
def hit($f): $f.verdict == "regressed" and any(names($f)[]; . == $t);
[ (input_filename | if test("/d[0-9]+\\.json$") then "d" else "z" end),
  .exit_status,
  ([.findings[] | select(.verdict == "regressed")] | length),
  ([.findings[] | select(.verdict == "improved")] | length),
  (if any(.findings[]; hit(.)) then 1 else 0 end),
  (if (.findings | length) == 0 then "-"
   elif hit(.findings[0]) then 1 else 0 end),
  ((.rows[] | select(.name == $t) | .verdict) // "absent"),
  ([.rows[] | select(.verdict == "improved" and $rest[.name] == 1)] | length),
  ([.findings[].crowded_in[]] | length),
  .family, .discoveries, .threshold, .hypotheses,
  ([.findings[] | select(hit(.)) | .hypothesis][0] // "-"),
  (if (.findings | length) == 0 then "-" else
   .findings[0] | .verdict + ":" + (.path | join(">")) end),
  ([.findings[].crowded_out[]] | length)
] | @tsv
EOF

# power NAME N KIND FUNC TARGET DELTA SEED [-e FUNC=FACTOR ...]: NPOW
# pairs of N samples each, the new one with TARGET's share raised by
# DELTA through FUNC, and with the other effects given.  KIND is flat
# (FUNC's own time, simprof -f, TARGET = FUNC, its flat share), cum (all
# of FUNC, -e, its cum share) or inner (-e FUNC, a callee of TARGET,
# whose cum share rises).  Single is 1 when the effect is the only one.
power() {
	pn=$1
	pN=$2
	pk=$3
	pf=$4
	pt=$5
	pd=$6
	ps=$7
	shift 7
	px="$*"
	single=1
	[ -n "$px" ] && single=0
	"$SP" -t $px >"$tmp/trueo" || die "simprof -t $px failed"
	case $pk in
	flat) col=3 ;;
	*) col=2 ;;
	esac
	s0=$(share "$tmp/true0" "$pt" $col)
	# Raising FUNC's stacks (all, or those ending at it) by F moves
	# a share s of them to s F / (1 - s + s F); under the other effects
	# FUNC's is so.  For inner, TARGET's share a holds FUNC's b, and
	# moves to (a + b (F - 1)) / (1 + b (F - 1)).
	F=$(awk -F'\t' -v f="$pf" -v t="$pt" -v k="$pk" -v c=$col -v s0="$s0" \
	    -v d="$pd" '$1 == f { b = $c } $1 == t { a = $c }
	    END { g = s0 + d
	        if (k == "inner") printf "%.9f", 1 + (g - a) / (b * (1 - g))
	        else printf "%.9f", g * (1 - b) / (b * (1 - g)) }' "$tmp/trueo")
	opt=-e
	[ "$pk" = flat ] && opt=-f
	px="$opt $pf=$F${px:+ $px}"
	"$SP" -t $px >"$tmp/true1" || die "simprof -t $px failed"
	"$SP" -l $px >"$tmp/leaves1" || die "simprof -l $px failed"
	s1=$(share "$tmp/true1" "$pt" $col)
	hyp=cum
	[ "$pk" = flat ] && hyp=flat
	echo "# $pn: $pN samples a side; simprof $px moves $pt's $hyp share" \
	    "from $s0 to $s1"
	model "$tmp/leaves0" "$tmp/leaves1" "$pt" "$tmp/m.pow" "$pN"
	# The functions whose true share of the rest is unchanged: the rest
	# is the leaves the effects left alone, the same on both sides.
	rest=$(awk 'FNR == 1 { side++ }
	    side == 1 { w0[FNR] = $2; st[FNR] = $1; next }
	    { if (w0[FNR] != $2) next
	      t0 += w0[FNR]; t1 += $2; n = split(st[FNR], fr, ";")
	      split("", seen)
	      for (j = 1; j <= n; j++) if (!(fr[j] in seen)) {
	          seen[fr[j]] = 1; r0[fr[j]] += w0[FNR]; r1[fr[j]] += $2 } }
	    END { printf "{"; for (f in r0) { x = r0[f] / t0 - r1[f] / t1
	          if (x < 1e-12 && x > -1e-12) printf "%s\"%s\":1", c++ ? "," : "", f }
	      print "}" }' "$tmp/leaves0" "$tmp/leaves1")
	nrest=$(echo "$rest" | jq length)

	pairs "$tmp/pow" "$NPOW" "$pN" "$ps" $px
	bad=$(verify "$tmp/pow.list" "$tmp/pow")
	check "$bad == 0" "$pn: every report parses, its exit_status is the exit status, and exit 1 means a regression finding ($bad bad of $((2 * NPOW)))"
	jq -r --arg t "$pt" --argjson rest "$rest" -f "$tmp/pow.jq" \
	    "$tmp"/pow/*.json >"$tmp/pow.tsv" 2>"$tmp/jq.err" ||
	    not_ok "$pn: jq failed ($(head -1 "$tmp/jq.err"))"
	wait
	stderr_clean

	# The exact power of the injected hypothesis: at alpha, at
	# Bonferroni's alpha / m for the largest family reported, and at
	# the median of the cutoffs R alpha / m the reports with a discovery
	# applied (without --min-effect).
	lim=$(st '$1 == "z" { if ($10 > m) m = $10; if ($11 > 0) c[++n] = $11 * a / $10 }
	    END { t = n ? median(c, n) : a / m
	        printf "%.4f %.4f %.4f %.6f %d\n", fpower(N, p1, N, p2, a),
	            fpower(N, p1, N, p2, a / m), fpower(N, p1, N, p2, t), t, m }' \
	    -F'\t' -v N="$pN" -v p1="$s0" -v p2="$s1" -v a=$ALPHA "$tmp/pow.tsv")
	set -- $lim
	U=$1 B=$2 L=$3 TH=$4 FAM=$5
	echo "# $pn: exact power of Fisher's test on the $hyp counts of $pt:" \
	    "$U at alpha, $B at alpha/$FAM (Bonferroni, largest family)," \
	    "$L at the median cutoff $TH (the limit the counts allow)"
	for t in z d; do
		if [ $t = d ]; then
			what="default --min-effect"
			m=$(cut -d' ' -f1 "$tmp/m.pow")
		else
			what="--min-effect 0 --min-effect 0%"
			m=$(cut -d' ' -f2 "$tmp/m.pow")
		fi
		k=$(awk -F'\t' -v t=$t '$1 == t && $5 == 1 { k++ }
		    END { print k + 0 }' "$tmp/pow.tsv")
		kr=$(awk -F'\t' -v t=$t '$1 == t && $7 == "regressed" { k++ }
		    END { print k + 0 }' "$tmp/pow.tsv")
		# --min-effect only takes away, so the lower bound is for
		# the pure test alone.
		# The test is the injected row's: its rate is what the
		# bounds and the model predict.  A finding may name the
		# function more often than its own row is a discovery (a
		# callee's change, with its path through the function), never
		# less.
		[ $t = d ] ||
		    report "$pn, $what: its row regressed within the exact bounds" \
		    'BEGIN { r = k / n
		    printf "%d/%d = %.3f; Bonferroni %.3f (SE %.3f) .. unadjusted %.3f (SE %.3f)",
		        k, n, r, lo, se(lo, n), hi, se(hi, n)
		    exit !(r >= lo - 3 * se(lo, n) && r <= hi + 3 * se(hi, n)) }' \
		    -v k="$kr" -v n="$NPOW" -v lo="$B" -v hi="$U"
		report "$pn, $what: its row regressed as the model says (trimming, flat and cum, z test, BH, --min-effect)" \
		    'BEGIN { r = k / n; s = se(m, n)
		    if (m == "") exit 1
		    printf "%d/%d = %.3f (found %d/%d); model %.3f, SE %.3f, allowed %.3f .. %.3f; the limit the counts allow %.3f",
		        k, n, r, kf, n, m, s, m - 3 * s - tol, m + 3 * s + tol, L
		    exit !(r >= m - 3 * s - tol && r <= m + 3 * s + tol) }' \
		    -v k="$kr" -v kf="$k" -v n="$NPOW" -v m="$m" -v tol=$TOL \
		    -v L="$L"
		report "$pn, $what: a finding names it at least as often as its row regressed" \
		    'BEGIN { printf "found %d/%d, row regressed %d/%d", k, n, kr, n
		    exit !(k >= kr - 2 * sqrt(kr * (n - kr) / n + 1)) }' \
		    -v k="$k" -v kr="$kr" -v n="$NPOW"
	done
	echo "# $pn: family $(awk -F'\t' '$1 == "z" { s += $10; r += $11; n++ }
	    END { printf "%.1f, discoveries %.2f on average", s / n, r / n }' \
	    "$tmp/pow.tsv"); the model's $(cut -d' ' -f5,6 "$tmp/m.pow" |
	    sed 's/ /, /'); hypotheses of the found findings:" \
	    "$(awk -F'\t' '$1 == "d" && $14 != "-" { c[$14]++ }
	    END { for (h in c) printf "%s %d ", h, c[h] }' "$tmp/pow.tsv")"
	for t in z d; do
		echo "# $pn: the top findings with$([ $t = z ] && echo out)" \
		    "--min-effect, most frequent first:"
		awk -F'\t' -v t=$t '$1 == t && $15 != "-" { c[$15]++ }
		    END { for (x in c) print c[x] "\t" x }' "$tmp/pow.tsv" |
		    sort -k1,1nr -k2,2 | head -4 |
		    awk -F'\t' '{ printf "#   %4d %s\n", $1, $2 }'
	done

	# The findings, on the reports without --min-effect (every
	# discovery), with those of the default in parentheses.
	report "$pn: improved only where the rest of the profile changed" \
	    '{ n[$1]++; if ($8 > 0) { k[$1]++; rows[$1] += $8 } ci[$1] += $9; co[$1] += $16 }
	    END { s = se(a, n["z"])
	        printf "%d/%d reports call a function improved whose true share of the rest is unchanged (%d rows; %d functions so), bound alpha + 3 SE = %.3f (default --min-effect: %d/%d); rows crowded out %d (%d), crowded in %d (%d)",
	            k["z"], n["z"], rows["z"], nr, a + 3 * s, k["d"], n["d"], co["z"], co["d"], ci["z"], ci["d"]
	        exit !(k["z"] / n["z"] <= a + 3 * s) }' \
	    -F'\t' -v a=$ALPHA -v nr="$nrest" "$tmp/pow.tsv"
	[ $single = 1 ] || return 0
	report "$pn: the top finding names $pt when its row is regressed" \
	    '$7 == "regressed" { n[$1]++; if ($6 == 1) k[$1]++ }
	    $6 != "-" { na[$1]++; if ($6 == 1) ka[$1]++ }
	    END { if (n["z"] == 0) exit 1
	        printf "%d/%d = %.3f, at least 0.9 (default --min-effect: %d/%d); of all reports with a finding %d/%d (%d/%d)",
	            k["z"], n["z"], k["z"] / n["z"], k["d"], n["d"], ka["z"], na["z"], ka["d"], na["d"]
	        exit !(k["z"] / n["z"] >= 0.9) }' -F'\t' "$tmp/pow.tsv"
	report "$pn: one regression makes one regression finding" \
	    '$3 > 0 { n[$1]++; if ($3 == 1) k[$1]++; else if ($3 > m) m = $3 }
	    END { if (n["z"] == 0) exit 1
	        printf "%d/%d = %.3f of the reports with one, at least 0.9 (default --min-effect: %d/%d); at most %d",
	            k["z"], n["z"], k["z"] / n["z"], k["d"], n["d"], m
	        exit !(k["z"] / n["z"] >= 0.9) }' -F'\t' "$tmp/pow.tsv"
}

power "LEAF, flat +1.5 points" $N flat main.sortByRelevance \
    main.sortByRelevance 0.015 200000
power "INNER, cum +5 points" $N inner main.normalizeWeights \
    main.calculateScore 0.05 230000
power "MULTI, LEAF among two others" $N flat main.sortByRelevance \
    main.sortByRelevance 0.015 270000 \
    -e encoding/json.checkValid=2.5 -e main.writeResponse=2.5
power "MIN, cum +0.7 points at 50000 samples" 50000 cum \
    main.sortByRelevance main.sortByRelevance 0.007 250000

# ---------------------------------------------------------------------
# 4. Replicates under between-run overdispersion, no true change.
mkdir "$tmp/rep"
for x in w x u v o p; do
	mkdir "$tmp/rep/$x"
	: >"$tmp/rep.$x"
done
# runs SEED SIGMA [ARG...]: three runs a side into W, b1..b3 and n1..n3,
# seeds SEED + 1 to SEED + 6, the new ones with simprof's ARGs.
runs() {
	_rs=$1
	_rd=$2
	shift 2
	for j in 1 2 3; do
		"$SP" -n $N -d "$_rd" -s $((_rs + j)) "$W/b$j.pb.gz" &&
		    "$SP" -n $N -d "$_rd" -s $((_rs + 3 + j)) "$@" \
		    "$W/n$j.pb.gz" || die "simprof failed"
	done 2>>"$tmp/stderr"
}
R=$tmp/rep
repnull_one() {
	runs $((300000 + 10 * i)) $SIGMA
	cs "$R/w" "$tmp/rep.w" "$W/b1.pb.gz" "$W/b2.pb.gz" "$W/b3.pb.gz" -- \
	    "$W/n1.pb.gz" "$W/n2.pb.gz" "$W/n3.pb.gz"
	cs "$R/x" "$tmp/rep.x" $PURE "$W/b1.pb.gz" "$W/b2.pb.gz" \
	    "$W/b3.pb.gz" -- "$W/n1.pb.gz" "$W/n2.pb.gz" "$W/n3.pb.gz"
	cs "$R/u" "$tmp/rep.u" "$W/b1.pb.gz" "$W/b2.pb.gz" -- \
	    "$W/n1.pb.gz" "$W/n2.pb.gz"
	cs "$R/v" "$tmp/rep.v" $PURE "$W/b1.pb.gz" "$W/b2.pb.gz" -- \
	    "$W/n1.pb.gz" "$W/n2.pb.gz"
	# That the dispersion matters, on a third of the sets: one run a
	# side, and three other runs a side merged into one profile each.
	[ $((i % 3)) -eq 0 ] || return 0
	"$SP" -n $N -d $SIGMA -r 3 -s $((300007 + 10 * i)) "$W/bp.pb.gz" \
	    2>>"$tmp/stderr" &&
	    "$SP" -n $N -d $SIGMA -r 3 -s $((300008 + 10 * i)) \
	    "$W/np.pb.gz" 2>>"$tmp/stderr" || die "simprof failed"
	cs "$R/o" "$tmp/rep.o" "$W/b1.pb.gz" "$W/n1.pb.gz"
	cs "$R/p" "$tmp/rep.p" "$W/bp.pb.gz" "$W/np.pb.gz"
}
par2 "$NREP" repnull_one
stderr_clean
bad=0
for x in w x u v o p; do
	bad=$((bad + $(verify "$tmp/rep.$x" "$tmp/rep/$x")))
done
quasi=$(jq -r 'select(.method | test("quasi-binomial")) | 1' \
    "$tmp"/rep/w/*.json | wc -l)
check "$bad == 0" "replicates: every report parses, its exit_status is the exit status, and exit 1 means a regression finding ($bad bad of $(cat "$tmp"/rep.[wxuvop] | wc -l))"
echo "# replicates, -d $SIGMA, 3 vs 3: quasi-binomial (the runs vary) in" \
    "$quasi/$NREP sets, dispersion $(jq -r '.dispersion // 1' \
    "$tmp"/rep/w/*.json | awk '{ s += $1 } END { printf "%.2f", s / NR }')" \
    "on average"
# rate WHAT LIST low|high|info: the share of exit 1 in LIST ("name status"
# lines), which must be at most alpha + 3 SE (low) or above it (high),
# with no exit status 2; info prints it.
rate() {
	_r=$(st '{ n++; if ($2 == 1) k++; if ($2 == 2) e++ }
	    END { if (n == 0) exit 1
	        s = se(a, n); r = k / n
	        printf "%d/%d = %.3f, SE %.4f, alpha + 3 SE = %.3f%s", k, n, r,
	            s, a + 3 * s, e ? sprintf(", %d errors", e) : ""
	        exit !(e == 0 && (want == "low" ? r <= a + 3 * s : r > a + 3 * s)) }' \
	    -v a=$ALPHA -v want="$3" "$2")
	_s=$?
	case $3 in
	info) echo "# $1: $_r" ;;
	*) if [ $_s -eq 0 ]; then ok "$1: $_r"; else not_ok "$1: $_r"; fi ;;
	esac
}
rate "replicates, -d $SIGMA, 1 vs 1: within alpha, the processes' spread read from the functions" \
    "$tmp/rep.o" low
rate "replicates, -d $SIGMA, 3 runs merged a side: within alpha as well" \
    "$tmp/rep.p" low
rate "replicates, -d $SIGMA, 3 vs 3, default --min-effect: false alarms" \
    "$tmp/rep.w" low
rate "replicates, -d $SIGMA, 3 vs 3, --min-effect 0 --min-effect 0%: false alarms" \
    "$tmp/rep.x" low
rate "replicates, -d $SIGMA, 2 vs 2, default --min-effect: false alarms (reported, not checked)" \
    "$tmp/rep.u" info
rate "replicates, -d $SIGMA, 2 vs 2, --min-effect 0 --min-effect 0%: false alarms (reported, not checked)" \
    "$tmp/rep.v" info

# Replicates add power: main.sortByRelevance's flat share +0.8 points,
# 3 vs 3, the first run of each side alone (1 vs 1, the same run
# length), and three other runs merged, without --min-effect (a change
# this size is under it).  Found as in the power checks.
repow_one() {
	runs $((rs + 10 * i)) "$rd" -f "$RF"
	"$SP" -n $N -d "$rd" -r 3 -s $((rs + 7 + 10 * i)) "$W/bp.pb.gz" \
	    2>>"$tmp/stderr" &&
	    "$SP" -n $N -d "$rd" -r 3 -s $((rs + 8 + 10 * i)) -f "$RF" \
	    "$W/np.pb.gz" 2>>"$tmp/stderr" || die "simprof failed"
	cs "$R/t3" "$tmp/rep.t3" $PURE "$W/b1.pb.gz" "$W/b2.pb.gz" \
	    "$W/b3.pb.gz" -- "$W/n1.pb.gz" "$W/n2.pb.gz" "$W/n3.pb.gz"
	cs "$R/t1" "$tmp/rep.t1" $PURE "$W/b1.pb.gz" "$W/n1.pb.gz"
	cs "$R/tp" "$tmp/rep.tp" $PURE "$W/bp.pb.gz" "$W/np.pb.gz"
}
repow() {
	rd=$1
	rs=$2
	for x in t1 t3 tp; do
		rm -rf "$tmp/rep/$x"
		mkdir "$tmp/rep/$x"
		: >"$tmp/rep.$x"
	done
	par2 "$NRP" repow_one
	stderr_clean
	bad=0
	for x in t1 t3 tp; do
		bad=$((bad + $(verify "$tmp/rep.$x" "$tmp/rep/$x")))
		jq -r --arg t main.sortByRelevance '[(if any(.findings[];
		    .verdict == "regressed" and any((.path + [.function])[];
		    . == $t)) then 1 else 0 end), .discoveries, .family,
		    ([.rows[] | select(.name == $t and .verdict == "regressed")] |
		    length), (.method | test("quasi"))] | @tsv' \
		    "$tmp/rep/$x"/*.json >"$tmp/rep.$x.tsv"
	done
	check "$bad == 0" "replicates, -d $rd, +0.8 points: every report parses, its exit_status is the exit status, and exit 1 means a regression finding ($bad bad of $((3 * NRP)))"
	# Per kind (1 vs 1, 3 vs 3, merged): found, sets, rate, the median
	# cutoff R alpha / m of those with a discovery, the row regressed,
	# the sets tested as quasi-binomial.
	st '{ n[FILENAME]++; k[FILENAME] += $1; g[FILENAME] += $4
	    q[FILENAME] += $5 == "true"; if ($3 > m[FILENAME]) m[FILENAME] = $3
	    if ($2 > 0) c[FILENAME, ++nc[FILENAME]] = $2 * a / $3 }
	    END { for (i = 1; i <= 3; i++) { f = ARGV[i]
	            for (j = 1; j <= nc[f]; j++) v[j] = c[f, j]
	            printf "%d %d %.4f %.6f %d %d ", k[f], n[f], k[f] / n[f],
	                nc[f] ? median(v, nc[f]) : a / m[f], g[f], q[f] }
	        printf "\n" }' \
	    -F'\t' -v a=$ALPHA "$tmp/rep.t1.tsv" "$tmp/rep.t3.tsv" \
	    "$tmp/rep.tp.tsv" >"$tmp/repow"
}
S0F=$(share "$tmp/true0" main.sortByRelevance 3)
RF=main.sortByRelevance=$(awk -v s="$S0F" 'BEGIN { g = s + 0.008
    printf "%.9f", g * (1 - s) / (s * (1 - g)) }')
"$SP" -t -f "$RF" >"$tmp/true1"
S1F=$(share "$tmp/true1" main.sortByRelevance 3)
repow 0 500000
REPFAM=$(jq -s 'map(.family) | max' "$tmp"/rep/t3/*.json)
set -- $(cat "$tmp/repow")
[ $# -eq 18 ] || die "replicate power failed"
lim=$(st 'BEGIN { printf "%.3f %.3f %.3f", fpower(n, p1, n, p2, t1),
    fpower(3 * n, p1, 3 * n, p2, t3), fpower(3 * n, p1, 3 * n, p2, tp) }' \
    -v n=$N -v p1="$S0F" -v p2="$S1F" -v t1="$4" -v t3="${10}" -v tp="${16}")
set -- "$@" $lim
echo "# replicates, flat share of main.sortByRelevance $S0F -> $S1F, runs" \
    "that agree: found (row regressed) 1 vs 1 in $1/$2 ($5), 3 vs 3 in" \
    "$7/$8 (${11}; ${12} sets quasi-binomial), 3 runs merged in" \
    "${13}/${14} (${17}); the limits the counts allow (exact power at the" \
    "median cutoffs $4, ${10}, ${16}): ${19}, ${20}, ${21}"
check "$2 > 0 && $8 > 0 && $9 >= $3 - 2 * sqrt($3 * (1 - $3) / $2 + $9 * (1 - $9) / $8)" \
    "replicates, runs that agree: 3 vs 3 finds +0.8 points in $7/$8 = $9, at least as often as 1 vs 1 of the same run length, $1/$2 = $3 (less 2 SE)"
# Runs that agree are tested at the dispersion they show, at least 1:
# Fisher's test on the pooled counts at alpha, 3 N samples a side, has
# at least its power.
lim=$(st 'BEGIN { printf "%.4f %.4f", fpower(n, p1, n, p2, a / m),
    fpower(n, p1, n, p2, a) }' -v n=$((3 * N)) -v p1="$S0F" -v p2="$S1F" \
    -v a=$ALPHA -v m="$REPFAM")
set -- "$@" $lim
report "replicates, runs that agree: 3 vs 3 found at most as often as Fisher's test on the pooled counts at $((3 * N)) samples a side" \
    'BEGIN { printf "%d/%d = %.3f; unadjusted %.3f (SE %.3f); Bonferroni %.3f, not checked",
        k, n, r, hi, se(hi, n), lo
    exit !(r <= hi + 3 * se(hi, n)) }' \
    -v k="$7" -v n="$8" -v r="$9" -v lo="${22}" -v hi="${23}"
repow $SIGMA 550000
set -- $(cat "$tmp/repow")
[ $# -eq 18 ] || die "replicate power failed"
echo "# replicates, -d $SIGMA: found (row regressed) 1 vs 1 in $1/$2 = $3" \
    "($5), 3 vs 3 in $7/$8 = $9 (${11}; ${12} sets quasi-binomial), 3 runs" \
    "merged in ${13}/${14} = ${15} (${17}); 1 vs 1 and merged allow for" \
    "the spread their functions show (above)"

# Exit 0 (rather than 3, inconclusive) says the samples were enough to
# see --min-effect: the header's change "found 80% of the time" is below
# it.  Then a true regression of twice --min-effect (+2 points on
# sortByRelevance's cumulative share, about 20% of it) may go unreported
# (exit 0) in at most 20% of the sets, plus 3 SE.  3 runs of 50000
# samples a side, without overdispersion and with it.
honest_one() {
	for j in 1 2 3; do
		"$SP" -n 50000 -d "$hd" -s $((hs + 10 * i + j)) "$W/b$j.pb.gz" &&
		    "$SP" -n 50000 -d "$hd" -s $((hs + 10 * i + 3 + j)) \
		    -e main.sortByRelevance="$F" "$W/n$j.pb.gz" ||
		    die "simprof failed"
	done 2>>"$tmp/stderr"
	cs "$tmp/hon" "$tmp/hon.list" "$W/b1.pb.gz" "$W/b2.pb.gz" \
	    "$W/b3.pb.gz" -- "$W/n1.pb.gz" "$W/n2.pb.gz" "$W/n3.pb.gz"
}
honest() {
	hn=$1
	hd=$2
	hs=$3
	S0=$(share "$tmp/true0" main.sortByRelevance 2)
	F=$(awk -v s="$S0" -v d=0.02 \
	    'BEGIN { printf "%.9f", (s + d) * (1 - s) / (s * (1 - s - d)) }')
	rm -rf "$tmp/hon"
	mkdir "$tmp/hon"
	: >"$tmp/hon.list"
	par2 "$NHON" honest_one
	stderr_clean
	bad=$(verify "$tmp/hon.list" "$tmp/hon")
	jq -r '[.exit_status, .min_detectable_effect_pp, .min_effect_pp] |
	    @tsv' "$tmp"/hon/*.json >"$tmp/hon.tsv"
	report "$hn: exit 0 only when --min-effect is detectable" \
	    '{ n++; if ($1 == 0) z++; if ($1 == 1) k++; if ($2 < $3) c++; m += $2 }
	    END { if (n == 0 || bad) exit 1
	        s = se(0.2, n)
	        printf "a true +2 points unreported (exit 0) in %d/%d = %.3f, allowed 0.2 + 3 SE = %.3f; exit 1 in %d/%d; the header claimed %.2f points found 80%% of the time (below --min-effect in %d/%d)",
	            z, n, z / n, 0.2 + 3 * s, k, n, m / n, c, n
	        exit !(z / n <= 0.2 + 3 * s) }' \
	    -F'\t' -v bad="$bad" "$tmp/hon.tsv"
}
honest "replicates, no overdispersion, 3 vs 3" 0 600000
honest "replicates, -d $SIGMA, 3 vs 3" $SIGMA 650000

# ---------------------------------------------------------------------
# 7. Rates: the test against exposures (--normalize duration).  simprof
# profiles are 100% of one core, so a window of N samples lasts N x 10ms
# and every function's rate is its share times 100 per second.  Null:
# windows of 2000 and 3000 samples of the same tree, the same rates:
# check-significance may exit 1 in at most alpha of the pairs plus 3 SE.
# Power: main.calculateScore's cumulative rate +5 points of the level
# (simprof -e, as INNER), found as a regression finding that names it
# at least as often as the normal approximation of the conditional
# binomial test's power at Bonferroni's alpha / m (m the mean family) on
# Poisson counts of the same means, less 3 SE.  The counts here are
# multinomial, less variable than Poisson: the test, calibrated for
# Poisson counts, can only do better.  A window of fixed length on a
# saturated core is where the share test gains most (the rest shrinks
# as the function grows), and its rate is printed beside for scale.
rate_one() {
	"$SP" -n 2000 -s $((rs + 2 * i)) "$W/a.pb.gz" 2>>"$tmp/stderr" &&
	    "$SP" -n "$rn" -s $((rs + 1 + 2 * i)) $rx "$W/b.pb.gz" \
	    2>>"$tmp/stderr" || die "simprof failed"
	"$PD" check-significance -q -n 0 -f json --normalize duration $SAME \
	    "$W/a.pb.gz" "$W/b.pb.gz" >"$tmp/rate/r$i.json" 2>>"$tmp/stderr"
	echo "r $? $(jq -r --arg t main.calculateScore '[.findings[] |
	    select(.verdict == "regressed") | select(.function == $t or
	    (.path | index($t)))] | length' "$tmp/rate/r$i.json")" \
	    >>"$tmp/rate.list"
	"$PD" check-significance -q -n 0 -f json $SAME "$W/a.pb.gz" \
	    "$W/b.pb.gz" >"$tmp/rate/s$i.json" 2>>"$tmp/stderr"
	echo "s $? $(jq -r --arg t main.calculateScore '[.findings[] |
	    select(.verdict == "regressed") | select(.function == $t or
	    (.path | index($t)))] | length' "$tmp/rate/s$i.json")" \
	    >>"$tmp/rate.list"
}
rates() {
	rn=$1
	rs=$2
	shift 2
	rx="$*"
	rm -rf "$tmp/rate"
	mkdir "$tmp/rate"
	: >"$tmp/rate.list"
	par2 "$NRATE" rate_one
	stderr_clean
}
NRATE=${SIM_RATE_PAIRS:-200}
rates 3000 700000
report "rates, null, 2000 vs 3000 samples (equal rates): false alarms" \
    '$1 == "r" { n++; if ($2 == 1) k++; if ($2 != 0 && $2 != 1 && $2 != 3) e++ }
    END { s = se(a, n); r = k / n
        printf "%d/%d = %.3f, SE %.4f; bound alpha + 3 SE = %.3f; errors %d",
            k, n, r, s, a + 3 * s, e
        exit !(n > 0 && e == 0 && r <= a + 3 * s) }' -v a=$ALPHA \
    "$tmp/rate.list"
S0=$(share "$tmp/true0" main.calculateScore 2)
F=$(awk -v s="$S0" -v d=0.05 \
    'BEGIN { printf "%.9f", (s + d) * (1 - s) / (s * (1 - s - d)) }')
rates 2000 710000 -e main.calculateScore="$F"
fam=$(jq -s '[.[].family] | add / length' "$tmp"/rate/r*.json)
report "rates, +5 points on main.calculateScore at 2000 samples a side: found" \
    'function zq(p,   lo, hi, m, i) { lo = 0; hi = 40
        for (i = 0; i < 100; i++) { m = (lo + hi) / 2
            if (nsf(m) > p) lo = m; else hi = m }
        return m }
    $1 == "r" { n++; if ($3 > 0) k++ } $1 == "s" { m++; if ($3 > 0) j++ }
    END { if (n == 0 || m == 0) exit 1
        r = k / n; q = j / m
        mu1 = N * s0; mu2 = N * (s0 + 0.05)
        lo = nsf(zq(a / (2 * fam)) - (mu2 - mu1) / sqrt(mu1 + mu2))
        printf "rates %d/%d = %.3f; Poisson power at alpha/%.1f %.3f, less 3 SE %.3f; shares %d/%d = %.3f",
            k, n, r, fam, lo, lo - 3 * se(lo, n), j, m, q
        exit !(r >= lo - 3 * se(lo, n)) }' -v N=2000 -v s0="$S0" \
    -v a=$ALPHA -v fam="$fam" "$tmp/rate.list"

echo "# $(($(date +%s) - start)) s; SIM_PAIRS=$PAIRS, SIM_MC=$MC"
echo "sim: $pass passed, $fail failed"
[ $fail -eq 0 ]

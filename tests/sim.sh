#!/bin/sh
# Statistical acceptance test: profdiff's verdicts on simulated profiles
# whose answer is known.  tests/tools/simprof.c draws each profile as a
# multinomial sample over a fixed call tree of 65 functions, with fixed
# seeds, so every run of this script sees the same profiles.
#
#	sh tests/sim.sh BUILD_DIR
#
# 1. Null: both profiles of a pair come from the same tree.  Under this
#    global null, Benjamini-Hochberg keeps the chance of any finding at
#    alpha, so check-significance may exit 1 in at most alpha of the
#    pairs (plus 3 binomial standard errors), with the default
#    --min-effect and with none.
# 2. Power: main.sortByRelevance gains a known number of points: (A) 4
#    points at 2000 samples, (B) 0.7 points, under --min-effect, at 50000
#    samples, (C) A's 4 points with two other regressions in the tree.
#    The rate at which check-significance names it must lie between the
#    normal-theory power at alpha/m (Bonferroni; BH rejects at least
#    that) and at alpha (no adjustment; BH rejects at most that), and
#    must match a normal-theory model of the whole procedure (z test
#    with Yates's correction, BH, --min-effect), integrated by Monte
#    Carlo in awk below.  The paths and callers must lead through the
#    injected function, and wrong-direction findings must stay rare.
# 3. Replicates: runs differ by more than binomial noise (simprof -d).
#    Pooled counts then over-reject, and Welch's test between 3 and 3
#    runs must not; Welch must still find a large change; and exit 0
#    ("no significant regression", rather than 3, inconclusive) must
#    mean that twice --min-effect would have been found.
#
# SIM_PAIRS (default 300, at least 6) is the number of null pairs; each
# power scenario uses 2/3 as many pairs, the replicate tests 1/2 and 1/6
# as many sets.  SIM_MC (default 10000) is the number of Monte Carlo
# draws of the model.  Each check prints "ok - ..." or "not ok - ...";
# "# " lines are information.  The last line is "sim: N passed, N
# failed"; the exit status is 1 if any check failed, 2 on a usage error.
set -u

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

PAIRS=${SIM_PAIRS:-300}
MC=${SIM_MC:-10000}
case $PAIRS$MC in
*[!0-9]*)
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
ALPHA=0.05
N=2000			# samples per profile: 20 s at 100 Hz
TARGET=main.sortByRelevance
SIGMA=0.1		# between-run overdispersion of each leaf, log scale
TOL=0.03		# Fisher against the z test, and Monte Carlo error
PURE="--min-effect 0 --min-effect 0%"

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

# The statistics, in awk: the normal tail, its inverse, and the power of
# the two-sided z test with Yates's correction in the direction p1 < p2.
cat >"$tmp/stats.awk" <<'EOF'
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
# z with nsf(z) = a, by bisection.
function zq(a,   lo, hi, mid, i) {
	lo = -40; hi = 40
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2
		if (nsf(mid) > a) lo = mid; else hi = mid
	}
	return (lo + hi) / 2
}
function power(p1, p2, n1, n2, a,   pb, s0, s1, cc) {
	pb = (n1 * p1 + n2 * p2) / (n1 + n2)
	s0 = sqrt(pb * (1 - pb) * (1 / n1 + 1 / n2))
	s1 = sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
	cc = (1 / n1 + 1 / n2) / 2
	return nsf((zq(a / 2) * s0 + cc - (p2 - p1)) / s1)
}
function se(p, n) { return sqrt(p * (1 - p) / n) }
EOF

# The model of one check-significance run, for the prediction: given
# the leaf weights of each side (simprof -l), draw each side's leaf counts
# from the normal approximation of the multinomial, with the exact
# covariance n (diag(p) - p p'), rounded to whole samples; give each
# function its cumulative count; test each with the pooled z test with
# Yates's correction; adjust with BH; call a row regressed when q <=
# alpha, the share rose, and the rise passes --min-effect.  Prints the
# fraction of draws in which TARGET is regressed, then the fraction with
# any regressed row (exit 1).  It shares no code with profdiff.
cat >"$tmp/model.awk" <<'EOF'
function gauss(   u) {
	u = 1 - rand()
	return sqrt(-2 * log(u)) * cos(6.283185307179586 * rand())
}
function counts(pr, n, out,   i, s, g) {
	s = 0
	for (i = 1; i <= nleaf; i++) {
		g[i] = gauss()
		s += sqrt(pr[i]) * g[i]
	}
	for (i = 1; i <= nleaf; i++) {
		out[i] = int(n * pr[i] + sqrt(n) * (sqrt(pr[i]) * g[i] - \
		    pr[i] * s) + 0.5)
		if (out[i] < 0)
			out[i] = 0
	}
}
FNR == 1 { side++ }
side == 1 {
	nleaf++
	w1[nleaf] = $2
	t1 += $2
	nfr = split($1, fr, ";")
	split("", seen)
	for (j = 1; j <= nfr; j++) {
		if (fr[j] in seen)
			continue
		seen[fr[j]] = 1
		if (!(fr[j] in fid))
			fid[fr[j]] = ++nf
		mem[nleaf, ++nmem[nleaf]] = fid[fr[j]]
	}
}
side == 2 { w2[FNR] = $2; t2 += $2 }
END {
	srand(seed)
	for (i = 1; i <= nleaf; i++) {
		p1[i] = w1[i] / t1
		p2[i] = w2[i] / t2
	}
	zmin = zq(alpha / 2)	# only p <= alpha can be rejected
	tgt = fid[target]
	hit = anyreg = 0
	for (r = 1; r <= reps; r++) {
		counts(p1, n1, c1)
		counts(p2, n2, c2)
		for (f = 1; f <= nf; f++)
			k1[f] = k2[f] = 0
		s1 = s2 = 0
		for (i = 1; i <= nleaf; i++) {
			s1 += c1[i]
			s2 += c2[i]
			for (j = 1; j <= nmem[i]; j++) {
				f = mem[i, j]
				k1[f] += c1[i]
				k2[f] += c2[i]
			}
		}
		np = 0
		for (f = 1; f <= nf; f++) {
			pb = (k1[f] + k2[f]) / (s1 + s2)
			if (pb <= 0 || pb >= 1)
				continue
			d = k2[f] / s2 - k1[f] / s1
			z = ((d < 0 ? -d : d) - (1 / s1 + 1 / s2) / 2) / \
			    sqrt(pb * (1 - pb) * (1 / s1 + 1 / s2))
			if (z < zmin || (pv = 2 * nsf(z)) > alpha)
				continue
			for (j = np; j >= 1 && pl[j] > pv; j--) {
				pl[j + 1] = pl[j]
				pf[j + 1] = pf[j]
			}
			pl[j + 1] = pv
			pf[j + 1] = f
			np++
		}
		nr = 0
		for (j = 1; j <= np; j++)
			if (pl[j] <= j * alpha / nf)
				nr = j
		reg = 0
		for (j = 1; j <= nr; j++) {
			f = pf[j]
			b = k1[f] / s1
			d = k2[f] / s2 - b
			if (d <= 0 || d * 100 < minpp || \
			    (b > 0 && d / b * 100 < minrel))
				continue
			reg = 1
			if (f == tgt)
				hit++
		}
		anyreg += reg
	}
	printf "%.4f %.4f\n", hit / reps, anyreg / reps
}
EOF

# model LEAVES1 LEAVES2 MINPP MINREL OUT SAMPLES: run the model in the
# background.
model() {
	awk -v seed=1 -v reps="$MC" -v n1="$6" -v n2="$6" -v alpha=$ALPHA \
	    -v minpp="$3" -v minrel="$4" -v target=$TARGET \
	    -f "$tmp/stats.awk" -f "$tmp/model.awk" "$1" "$2" >"$5" &
}

# verify LIST DIR: prints how many of the reports named in LIST ("file
# status" lines) do not parse as JSON or have an exit_status other than
# the exit status recorded, as when profdiff crashed (a sanitizer's
# abort exits 1, like a finding).
verify() {
	jq -r '[input_filename, .exit_status] | @tsv' "$2"/*.json \
	    2>"$tmp/jq.err" >"$tmp/js.list"
	awk -F'\t' 'FILENAME == ARGV[1] { js[$1] = $2; next }
	    { split($0, a, " "); if (js[a[1]] != a[2]) bad++ }
	    END { print bad + 0 }' "$tmp/js.list" "$1"
}

stderr_clean() {
	if [ -s "$tmp/stderr" ]; then
		not_ok "profdiff and simprof are silent on these inputs" \
		    "($(head -1 "$tmp/stderr"))"
		: >"$tmp/stderr"
	fi
}

# ---------------------------------------------------------------------
# The tree's true shares (simprof -t) and leaf weights (simprof -l).
"$SP" -t >"$tmp/true0" || die "simprof -t failed"
"$SP" -l >"$tmp/leaves0" || die "simprof -l failed"
M=$(wc -l <"$tmp/true0")
S0=$(awk -F'\t' -v f=$TARGET '$1 == f { print $2 }' "$tmp/true0")
[ -n "$S0" ] || die "$TARGET is not in the tree"
echo "# $M functions; $TARGET: true share $S0"
model "$tmp/leaves0" "$tmp/leaves0" 1 10 "$tmp/m.null" $N
model "$tmp/leaves0" "$tmp/leaves0" 0 0 "$tmp/m.null0" $N

# ---------------------------------------------------------------------
# 1. Null, one profile per side.
mkdir "$tmp/null"
i=0
while [ $i -lt "$PAIRS" ]; do
	a=$tmp/null/a.pb.gz
	b=$tmp/null/b.pb.gz
	"$SP" -n $N -s $((100000 + 2 * i)) "$a" 2>>"$tmp/stderr" &&
	    "$SP" -n $N -s $((100001 + 2 * i)) "$b" 2>>"$tmp/stderr" ||
	    die "simprof failed"
	o=$tmp/null/d$i.json
	"$PD" check-significance -q -n 0 -f json "$a" "$b" >"$o" 2>>"$tmp/stderr"
	echo "$o $?" >>"$tmp/null.d"
	o=$tmp/null/z$i.json
	"$PD" check-significance -q -n 0 -f json $PURE "$a" "$b" >"$o" \
	    2>>"$tmp/stderr"
	echo "$o $?" >>"$tmp/null.z"
	i=$((i + 1))
done
bad=$(($(verify "$tmp/null.d" "$tmp/null") + $(verify "$tmp/null.z" "$tmp/null")))
check "$bad == 0" "null: every report parses and its exit_status is the exit status ($bad bad of $((2 * PAIRS)))"
stderr_clean
wait
for t in d z; do
	k=$(awk '$2 == 1 { k++ } END { print k + 0 }' "$tmp/null.$t")
	e=$(awk '$2 != 0 && $2 != 1 && $2 != 3 { k++ } END { print k + 0 }' \
	    "$tmp/null.$t")
	if [ $t = d ]; then
		what="default --min-effect (1pp and 10%)"
		m=$(cut -d' ' -f2 "$tmp/m.null")
	else
		what="--min-effect 0 --min-effect 0%"
		m=$(cut -d' ' -f2 "$tmp/m.null0")
	fi
	check "$e == 0" "null, 1 vs 1, $what: no errors ($e of $PAIRS exit other than 0, 1, 3)"
	report "null, 1 vs 1, $what: false alarms" 'BEGIN {
	    s = se(a, n); r = k / n
	    printf "%d/%d = %.3f, SE %.4f; bound alpha + 3 SE = %.3f; normal-theory model %.3f",
	        k, n, r, s, a + 3 * s, m
	    exit !(r <= a + 3 * s) }' -v k="$k" -v n="$PAIRS" -v a=$ALPHA -v m="$m"
done

# ---------------------------------------------------------------------
# 2. Power: TARGET rises by a known number of points in the new profile.
#
# power NAME N DELTA SEED [-e FUNC=FACTOR ...]: NPOW pairs of N samples
# each, the new one with TARGET's share raised by DELTA, and with the
# other effects given.
power() {
	pn=$1
	pN=$2
	pd=$3
	ps=$4
	shift 4
	px="$*"
	# Raising every stack through TARGET by F moves its share from s (its
	# share under the other effects) to s F / (1 - s + s F); solve for
	# S0 + DELTA.
	so=$("$SP" -t $px | awk -F'\t' -v f=$TARGET '$1 == f { print $2 }')
	F=$(awk -v s="$so" -v t="$S0" -v d="$pd" \
	    'BEGIN { printf "%.9f", (t + d) * (1 - s) / (s * (1 - t - d)) }')
	px="-e $TARGET=$F${px:+ $px}"
	"$SP" -t $px >"$tmp/true1" || die "simprof -t -e failed"
	"$SP" -l $px >"$tmp/leaves1" || die "simprof -l -e failed"
	S1=$(awk -F'\t' -v f=$TARGET '$1 == f { print $2 }' "$tmp/true1")
	echo "# $pn: $pN samples a side; simprof $px" \
	    "moves $TARGET from $S0 to $S1"
	model "$tmp/leaves0" "$tmp/leaves1" 1 10 "$tmp/m.pow" "$pN"
	model "$tmp/leaves0" "$tmp/leaves1" 0 0 "$tmp/m.pow0" "$pN"
	# The true change of every row: up for each function on a stack
	# through TARGET, down for every other one (shares sum to one).
	awk -F'\t' 'FILENAME == ARGV[1] { s0[$1] = $2; next }
	    { printf "%s\t%.12f\n", $1, $2 - s0[$1] }' \
	    "$tmp/true0" "$tmp/true1" >"$tmp/updown"
	truth=$(awk -F'\t' '{ printf "%s\"%s\":%s", (NR > 1 ? "," : "{"),
	    $1, $2 } END { print "}" }' "$tmp/updown")

	rm -rf "$tmp/pow"
	mkdir "$tmp/pow"
	: >"$tmp/pow.d"
	: >"$tmp/pow.z"
	i=0
	while [ $i -lt "$NPOW" ]; do
		a=$tmp/pow/a.pb.gz
		b=$tmp/pow/b.pb.gz
		"$SP" -n "$pN" -s $((ps + 2 * i)) "$a" 2>>"$tmp/stderr" &&
		    "$SP" -n "$pN" -s $((ps + 1 + 2 * i)) $px "$b" \
		    2>>"$tmp/stderr" || die "simprof failed"
		o=$tmp/pow/d$i.json
		"$PD" check-significance -q -n 0 -f json "$a" "$b" >"$o" \
		    2>>"$tmp/stderr"
		echo "$o $?" >>"$tmp/pow.d"
		o=$tmp/pow/z$i.json
		"$PD" check-significance -q -n 0 -f json $PURE "$a" "$b" >"$o" \
		    2>>"$tmp/stderr"
		echo "$o $?" >>"$tmp/pow.z"
		i=$((i + 1))
	done
	bad=$(($(verify "$tmp/pow.d" "$tmp/pow") + \
	    $(verify "$tmp/pow.z" "$tmp/pow")))
	check "$bad == 0" "$pn: every report parses and its exit_status is the exit status ($bad bad of $((2 * NPOW)))"
	stderr_clean

	# One line per report: kind (d default, z no --min-effect), detected
	# (exit 1 with TARGET regressed), the top regressed row,
	# wrong-direction rows, rows; then the paths: calculateScore
	# regressed, and with a path through normalizeWeights ->
	# sortByRelevance; the same for normalizeWeights; TARGET regressed,
	# and with a path from TARGET over truly-up functions and
	# normalizeWeights as its first caller.
	jq -r --arg t $TARGET --argjson truth "$truth" '
	    def seq($p; $a; $b): any(range(0; ($p | length) - 1);
	        $p[.] == $a and $p[. + 1] == $b);
	    def row($n): [.rows[] | select(.name == $n and .verdict == "regressed")];
	    row("main.calculateScore") as $cs | row("main.normalizeWeights") as $nw |
	    row($t) as $tr |
	    [ (input_filename | if test("/d[0-9]+\\.json$") then "d" else "z" end),
	      (if .exit_status == 1 and ($tr | length) > 0 then 1 else 0 end),
	      ([.rows[] | select(.verdict == "regressed")][0].name // "-"),
	      ([.rows[] | select((.verdict == "regressed" and $truth[.name] <= 0)
	          or (.verdict == "improved" and $truth[.name] >= 0))] | length),
	      (.rows | length),
	      ($cs | length),
	      ([$cs[] | select(seq(.path; "main.normalizeWeights";
	          "main.sortByRelevance"))] | length),
	      ($nw | length),
	      ([$nw[] | select(seq(.path; "main.normalizeWeights";
	          "main.sortByRelevance"))] | length),
	      ([$tr[] | select(.path[0] == $t and all(.path[]; $truth[.] > 0)
	          and .callers[0].name == "main.normalizeWeights")] | length)
	    ] | @tsv' "$tmp"/pow/*.json >"$tmp/pow.tsv" 2>"$tmp/jq.err" ||
	    not_ok "$pn: jq failed ($(head -1 "$tmp/jq.err"))"

	wait
	U=$(st 'BEGIN { printf "%.4f", power(p1, p2, n, n, a) }' \
	    -v p1="$S0" -v p2="$S1" -v n="$pN" -v a=$ALPHA)
	B=$(st 'BEGIN { printf "%.4f", power(p1, p2, n, n, a / m) }' \
	    -v p1="$S0" -v p2="$S1" -v n="$pN" -v a=$ALPHA -v m="$M")
	echo "# $pn: power of the z test for $TARGET at alpha $U," \
	    "at alpha/$M (Bonferroni) $B"
	for t in z d; do
		if [ $t = d ]; then
			what="default --min-effect"
			m=$(cut -d' ' -f1 "$tmp/m.pow")
		else
			what="--min-effect 0 --min-effect 0%"
			m=$(cut -d' ' -f1 "$tmp/m.pow0")
		fi
		k=$(awk -F'\t' -v t=$t '$1 == t && $2 == 1 { k++ }
		    END { print k + 0 }' "$tmp/pow.tsv")
		# BH rejects at least what Bonferroni does and at most what
		# the unadjusted test does; --min-effect only takes away.
		[ $t = d ] ||
		    report "$pn, $what: detection within the normal-theory bounds" \
		    'BEGIN { r = k / n
		    if (lo == "" || hi == "") exit 1
		    printf "%d/%d = %.3f; Bonferroni %.3f (SE %.3f) .. unadjusted %.3f (SE %.3f), tolerance %.2f",
		        k, n, r, lo, se(lo, n), hi, se(hi, n), tol
		    exit !(r >= lo - 3 * se(lo, n) - tol && r <= hi + 3 * se(hi, n) + tol) }' \
		    -v k="$k" -v n="$NPOW" -v lo="$B" -v hi="$U" -v tol=$TOL
		report "$pn, $what: detection matches the model (z test, BH, --min-effect)" \
		    'BEGIN { r = k / n; s = se(m, n)
		    if (m == "") exit 1
		    printf "%d/%d = %.3f; model %.3f, SE %.3f, allowed %.3f .. %.3f",
		        k, n, r, m, s, m - 3 * s - tol, m + 3 * s + tol
		    exit !(r >= m - 3 * s - tol && r <= m + 3 * s + tol) }' \
		    -v k="$k" -v n="$NPOW" -v m="$m" -v tol=$TOL
	done

	report "$pn: the top regressed row of a detection is on the injected path" \
	    'FILENAME == ARGV[1] { up[$1] = $2 > 0; next }
	    $2 == 1 { det++; if (!up[$3]) { bad++; ex = $3 } }
	    END { printf "%d of %d detections off it%s", bad, det,
	        bad ? ", e.g. " ex : ""
	        exit bad > 0 }' -F'\t' "$tmp/updown" "$tmp/pow.tsv"
	report "$pn: paths and callers lead through the injected function" \
	    '$2 == 1 { cs += $6; csok += $7; nw += $8; nwok += $9; tg++; tgok += $10 }
	    END { printf "calculateScore regressed %d, path via normalizeWeights -> sortByRelevance %d; normalizeWeights %d, %d; %s %d, path from it over truly-up functions and first caller normalizeWeights %d",
	        cs, csok, nw, nwok, t, tg, tgok
	        exit !(cs == csok && nw == nwok && tg == tgok && tg > 0) }' \
	    -F'\t' -v t=$TARGET "$tmp/pow.tsv"
	# A function called regressed whose true share fell, or improved
	# whose true share rose: BH's false discovery rate, by direction.
	report "$pn: wrong-direction discoveries" '
	    { n++; f = $5 ? $4 / $5 : 0; s += f; ss += f * f; v += $4; r += $5 }
	    END { if (n < 2) exit 1
	        m = s / n; sd = sqrt((ss - n * m * m) / (n - 1)); e = sd / sqrt(n)
	        printf "%d of %d rows in %d reports; mean FDP %.4f, SE %.4f, bound alpha + 3 SE = %.3f",
	            v, r, n, m, e, a + 3 * e
	        exit !(m <= a + 3 * e) }' -F'\t' -v a=$ALPHA "$tmp/pow.tsv"
}

# A change well above --min-effect at 2000 samples (20 s at 100 Hz).
power "power A, +4 points" $N 0.04 200000
# A real change below --min-effect (0.7 points, 7% of the share) at
# 50000 samples: significant most of the time, reported rarely.
power "power B, +0.7 points" 50000 0.007 250000
# The change of A, with two other regressions elsewhere in the tree.
# BH's threshold rises with the number of findings, so TARGET is found
# more often than in A, as the model predicts; Bonferroni would not be.
power "power C, +4 points among others" $N 0.04 270000 \
    -e encoding/json.checkValid=2.5 -e main.writeResponse=2.5

# ---------------------------------------------------------------------
# 3. Replicates under between-run overdispersion, no true change.
mkdir "$tmp/rep" "$tmp/rep/o" "$tmp/rep/p" "$tmp/rep/w" "$tmp/rep/x" \
    "$tmp/rep/e"
i=0
while [ $i -lt "$NREP" ]; do
	s=$((300000 + 10 * i))
	for j in 1 2 3; do
		"$SP" -n $N -d $SIGMA -s $((s + j)) "$tmp/rep/b$j.pb.gz" &&
		    "$SP" -n $N -d $SIGMA -s $((s + 3 + j)) "$tmp/rep/n$j.pb.gz" ||
		    die "simprof failed"
	done 2>>"$tmp/stderr"
	# Three other runs a side, merged into one profile each.
	"$SP" -n $N -d $SIGMA -r 3 -s $((s + 7)) "$tmp/rep/bp.pb.gz" \
	    2>>"$tmp/stderr" &&
	    "$SP" -n $N -d $SIGMA -r 3 -s $((s + 8)) "$tmp/rep/np.pb.gz" \
	    2>>"$tmp/stderr" || die "simprof failed"
	(
		cd "$tmp/rep" || exit 2
		"$PD" check-significance -q -n 0 -f json b1.pb.gz n1.pb.gz \
		    >"o/$i.json"
		echo "$tmp/rep/o/$i.json $?" >>"$tmp/rep.1"
		"$PD" check-significance -q -n 0 -f json bp.pb.gz np.pb.gz \
		    >"p/$i.json"
		echo "$tmp/rep/p/$i.json $?" >>"$tmp/rep.p"
		"$PD" check-significance -q -n 0 -f json b1.pb.gz b2.pb.gz \
		    b3.pb.gz -- n1.pb.gz n2.pb.gz n3.pb.gz >"w/$i.json"
		echo "$tmp/rep/w/$i.json $?" >>"$tmp/rep.w"
		"$PD" check-significance -q -n 0 -f json $PURE b1.pb.gz b2.pb.gz \
		    b3.pb.gz -- n1.pb.gz n2.pb.gz n3.pb.gz >"x/$i.json"
		echo "$tmp/rep/x/$i.json $?" >>"$tmp/rep.w0"
	) 2>>"$tmp/stderr"
	i=$((i + 1))
done
stderr_clean
bad=$(($(verify "$tmp/rep.1" "$tmp/rep/o") + $(verify "$tmp/rep.p" "$tmp/rep/p") +
    $(verify "$tmp/rep.w" "$tmp/rep/w") + $(verify "$tmp/rep.w0" "$tmp/rep/x")))
welch=$(jq -r 'select(.method | test("Welch") | not) | input_filename' \
    "$tmp"/rep/w/*.json "$tmp"/rep/x/*.json 2>/dev/null | wc -l)
check "$bad == 0 && $welch == 0" "replicates: every report parses, its exit_status is the exit status, and 3 vs 3 uses Welch's test ($bad bad of $((4 * NREP)), $welch of $((2 * NREP)) not Welch)"
# rate WHAT LIST low|high: the share of exit 1 in LIST ("name status"
# lines), which must be at most alpha + 3 SE (low) or above it (high),
# with no exit status 2.
rate() {
	report "$1" '{ n++; if ($2 == 1) k++; if ($2 == 2) e++ }
	    END { if (n == 0) exit 1
	        s = se(a, n); r = k / n
	        printf "%d/%d = %.3f, SE %.4f, alpha + 3 SE = %.3f%s", k, n, r,
	            s, a + 3 * s, e ? sprintf(", %d errors", e) : ""
	        exit !(e == 0 && (want == "low" ? r <= a + 3 * s : r > a + 3 * s)) }' \
	    -v a=$ALPHA -v want="$3" "$2"
}
rate "replicates, -d $SIGMA, 1 vs 1 (Fisher): over-rejects as it should" \
    "$tmp/rep.1" high
rate "replicates, -d $SIGMA, 3 runs pooled a side (Fisher): over-rejects as it should" \
    "$tmp/rep.p" high
rate "replicates, -d $SIGMA, 3 vs 3 (Welch), default --min-effect: false alarms" \
    "$tmp/rep.w" low
rate "replicates, -d $SIGMA, 3 vs 3 (Welch), --min-effect 0 --min-effect 0%: false alarms" \
    "$tmp/rep.w0" low

# Welch must still see a large change (TARGET tripled: about +15
# points), or the checks above would pass by never rejecting.  There is
# no closed form here; 0.5 is a floor, not a prediction.
NWP=$((NREP / 3))
i=0
while [ $i -lt "$NWP" ]; do
	s=$((400000 + 10 * i))
	for j in 1 2 3; do
		"$SP" -n $N -d $SIGMA -s $((s + j)) "$tmp/rep/b$j.pb.gz" &&
		    "$SP" -n $N -d $SIGMA -s $((s + 3 + j)) -e $TARGET=3 \
		    "$tmp/rep/n$j.pb.gz" || die "simprof failed"
	done 2>>"$tmp/stderr"
	(
		cd "$tmp/rep" || exit 2
		"$PD" check-significance -q -n 0 -f json b1.pb.gz b2.pb.gz \
		    b3.pb.gz -- n1.pb.gz n2.pb.gz n3.pb.gz >"e/$i.json"
		echo "$tmp/rep/e/$i.json $?" >>"$tmp/rep.e"
	) 2>>"$tmp/stderr"
	i=$((i + 1))
done
stderr_clean
bad=$(verify "$tmp/rep.e" "$tmp/rep/e")
k=$(jq -r --arg t $TARGET 'select(.exit_status == 1 and
    any(.rows[]; .name == $t and .verdict == "regressed")) | 1' \
    "$tmp"/rep/e/*.json | wc -l)
check "$bad == 0" "replicates with an effect: every report parses and its exit_status is the exit status ($bad bad of $NWP)"
check "$k >= 0.5 * $NWP" "replicates, -d $SIGMA, 3 vs 3 (Welch): $TARGET x3 found in $k/$NWP (floor 0.5)"

# Exit 0 (rather than 3, inconclusive) says the samples were enough to
# see --min-effect: the header's change "found 80% of the time" is below
# it.  Then a true regression of twice --min-effect (+2 points on
# TARGET, about 20% of its share) may go unreported (exit 0) in at most
# 20% of the sets, plus 3 SE.  3 runs of 50000 samples a side, without
# overdispersion (the control) and with it.
honest() {
	hn=$1
	hd=$2
	hs=$3
	F=$(awk -v s="$S0" -v d=0.02 \
	    'BEGIN { printf "%.9f", (s + d) * (1 - s) / (s * (1 - s - d)) }')
	rm -rf "$tmp/hon"
	mkdir "$tmp/hon"
	: >"$tmp/hon.list"
	i=0
	while [ $i -lt "$NHON" ]; do
		s=$((hs + 10 * i))
		for j in 1 2 3; do
			"$SP" -n 50000 -d "$hd" -s $((s + j)) \
			    "$tmp/hon/b$j.pb.gz" &&
			    "$SP" -n 50000 -d "$hd" -s $((s + 3 + j)) \
			    -e $TARGET="$F" "$tmp/hon/n$j.pb.gz" ||
			    die "simprof failed"
		done 2>>"$tmp/stderr"
		(
			cd "$tmp/hon" || exit 2
			"$PD" check-significance -q -n 0 -f json b1.pb.gz b2.pb.gz \
			    b3.pb.gz -- n1.pb.gz n2.pb.gz n3.pb.gz >"$i.json"
			echo "$tmp/hon/$i.json $?" >>"$tmp/hon.list"
		) 2>>"$tmp/stderr"
		i=$((i + 1))
	done
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
NHON=$((NREP / 3))
honest "replicates, no overdispersion, 3 vs 3 (Welch)" 0 500000
honest "replicates, -d $SIGMA, 3 vs 3 (Welch)" $SIGMA 600000

echo "# $(($(date +%s) - start)) s; SIM_PAIRS=$PAIRS, SIM_MC=$MC"
echo "sim: $pass passed, $fail failed"
[ $fail -eq 0 ]

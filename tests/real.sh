#!/bin/sh
# Statistical acceptance test on real profiles whose answer is known:
# the runs of examples/pricing in tests/data/pricing-runs (its README
# says how they were made), cross-paired.  No-change runs against each
# other give the false-alarm rate; no-change runs against runs with a
# slowdown injected into one function give the power.
#
#	sh tests/real.sh BUILD_DIR
#
# 1. Truth: each variant's pooled share of its injected function, flat
#    and cum, with its binomial standard error, and the change from the
#    no-change runs (from the sample counts in MANIFEST.tsv).
# 2. Dispersion: per function with enough samples, how much more the
#    shares of the no-change runs differ than binomial sampling predicts
#    (Pearson's chi-square over its degrees of freedom).
# 3. False alarms, one profile a side: every ordered pair of distinct
#    no-change runs, quiet, busy, quiet against busy ("mixed") and the
#    10-second ones.  Counted: check-significance exits 1 (a regression
#    finding), and diff -f json -n 0 has any finding.
# 4. Power, one profile a side: every (no-change, injected) pair of the
#    same kind of run.  Counted as found: a regression finding of diff
#    names the injected function (main.applyDiscounts for the leaf
#    variants, main.calculateScore for the inner ones), that is, it is
#    the finding's function or on its path.  Beside it, the limit the
#    counts allow: the exact power of Fisher's test of the injected
#    hypothesis (the leaf's flat count, the inner node's cum count) at
#    the pooled true shares of MANIFEST.tsv, the pairs' mean sample
#    counts and the median cutoff R alpha / m of the pairs with a
#    discovery, summed in the awk of tests/sim.sh (sh tests/sim.sh
#    --stats-awk prints it).
# 5. The same with three profiles a side, "b1 b2 b3 -- n1 n2 n3", for
#    disjoint triples drawn at random with a fixed seed: REAL_SETS
#    (default 100) sets per kind, or all of them where there are fewer.
#
# 6. Rates (--normalize duration) and values per request (--requests,
#    from the requests column of MANIFEST.tsv): false alarms and power,
#    one profile a side.
#
# REAL_DATA names another folder of runs with a MANIFEST.tsv of the same
# columns (tests/data/pricing-runs/capture.sh writes one).
#
# The checks are issue 17's targets: no-change pairs, quiet and busy,
# exit 1 at most 5% of the time, one profile a side and three (the rate
# measured may exceed 5% by 3 binomial standard errors of its count, as
# sim.sh allows its false-alarm rates; a rate over 5% says so); the 25%
# slowdowns are found and named in at least 95% of pairs (three a side
# checked; one a side printed as a target, since one profile a side now
# allows for how much two processes differ, which costs it some power:
# 86% to 94% here, doc/statistics.md section 2); three profiles
# a side find each slowdown at least as often as one does (less two
# standard errors of the difference, since both rates are measured);
# and the inner node's finding (the largest regression finding of an
# inner25 pair) has main.calculateScore on its path in at least 95% of
# the pairs, one a side and three.  The mixed and 10-second pairs are
# reported, not checked.  Pairs share runs, so the rates are less
# certain than their counts suggest.
#
# Each check prints "ok - ..." or "not ok - ..."; "# " lines are
# information.  The last line is "real: N passed, N failed"; the exit
# status is 1 if a check failed, 2 on a usage error or when profdiff
# failed on a pair (exit 2, or a report that does not parse).
set -u

if [ $# -ne 1 ]; then
	echo "usage: sh tests/real.sh BUILD_DIR" >&2
	exit 2
fi
PD=$1/profdiff
case $PD in /*) ;; *) PD=$(pwd)/$PD ;; esac
if [ ! -x "$PD" ]; then
	echo "real: $PD: not found (make)" >&2
	exit 2
fi
DATA=${REAL_DATA:-$(dirname "$0")/data/pricing-runs}
DATA=$(cd "$DATA" && pwd) || exit 2
MAN=$DATA/MANIFEST.tsv
SETS=${REAL_SETS:-100}
case $SETS in
'' | *[!0-9]*)
	echo "real: REAL_SETS must be a number" >&2
	exit 2
	;;
esac
command -v jq >/dev/null 2>&1 || { echo "real: needs jq" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/real.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
pass=0
fail=0
start=$(date +%s)
die() { echo "real: $*" >&2; exit 2; }

# The group of each run: its variant, "busy-" before it when captured
# with the burners, "long-" when it is a 10-second run.
awk -F'\t' 'NR > 1 {
	g = $2
	if ($7 == 1) g = "busy-" g
	if ($8 + 0 >= 9) g = "long-" g
	print $1 "\t" g
}' "$MAN" >"$tmp/groups"
[ -s "$tmp/groups" ] || die "$MAN: no runs"

# ---------------------------------------------------------------------
# 1. Truth, from the exact sample counts of the manifest.
echo "# truth: pooled share of the injected function, +- binomial SE;" \
    "change from the no-change runs of the same kind"
awk -F'\t' '
function se(k, n) { return sqrt(k / n * (1 - k / n) / n) }
NR == 1 { next }
{
	g = $2
	if ($7 == 1) g = "busy-" g
	if ($8 + 0 >= 9) g = "long-" g
	n[g] += $9; runs[g]++
	af[g] += $16; ac[g] += $17; cf[g] += $18; cc[g] += $19
	if (!(g in fn)) { fn[g] = $3; order[++ng] = g }
}
END {
	for (i = 1; i <= ng; i++) {
		g = order[i]
		if (fn[g] == "-")
			continue
		b = g; sub(/(leaf|inner)[0-9]+$/, "none", b)
		if (fn[g] == "main.applyDiscounts") {
			kf = af[g]; kc = ac[g]; bf = af[b]; bc = ac[b]
		} else {
			kf = cf[g]; kc = cc[g]; bf = cf[b]; bc = cc[b]
		}
		pf = kf / n[g]; pc = kc / n[g]
		qf = bf / n[b]; qc = bc / n[b]
		# The fraction of the cost of a request added, from the share
		# that carries it: s1 = (s0 + f) / (1 + f).
		if (g ~ /leaf/)
			f = (pf - qf) / (1 - pf)
		else
			f = (pc - qc) / (1 - pc)
		printf "#   %s, %d runs, %d samples, %s: flat %.2f%% +- %.2f," \
		    " cum %.2f%% +- %.2f\n#     vs %s (%d samples): flat" \
		    " %.2f%% -> %+.2f pp +- %.2f, cum %.2f%% -> %+.2f pp +- %.2f;" \
		    " added fraction %.3f\n", \
		    g, runs[g], n[g], fn[g], 100 * pf, 100 * se(kf, n[g]), \
		    100 * pc, 100 * se(kc, n[g]), b, n[b], 100 * qf, \
		    100 * (pf - qf), 100 * sqrt(se(kf, n[g])^2 + se(bf, n[b])^2), \
		    100 * qc, 100 * (pc - qc), \
		    100 * sqrt(se(kc, n[g])^2 + se(bc, n[b])^2), f
	}
}' "$MAN"

# ---------------------------------------------------------------------
# 2. Dispersion of the no-change runs, from profdiff top's counts: for
# each function with at least 10 samples a run on average, Pearson's
# chi-square of its per-run cum counts against one pooled share, over
# runs - 1 degrees of freedom; 1 is binomial sampling alone.
dispersion() {
	: >"$tmp/top.tsv"
	for f in $(awk -F'\t' -v g="$1" '$2 == g { print $1 }' "$tmp/groups"); do
		"$PD" top -q -f json -n 0 -i samples "$DATA/$f" \
		    >"$tmp/top.json" 2>>"$tmp/stderr" ||
		    die "$f: profdiff top failed"
		jq -r --arg f "$f" '.merged.samples as $n |
		    .rows[] | [$f, $n, .name, .cum] | @tsv' "$tmp/top.json" \
		    >>"$tmp/top.tsv" || die "$f: profdiff top wrote bad JSON"
	done
	awk -F'\t' '
	!($1 in seen) { seen[$1] = 1; files[++nf] = $1; n[$1] = $2; N += $2 }
	{ k[$3, $1] = $4; tot[$3] += $4 }
	END {
		for (f in tot) {
			p = tot[f] / N
			if (tot[f] / nf < 10 || p >= 1 || nf < 2)
				continue
			x = 0
			for (i = 1; i <= nf; i++) {
				m = n[files[i]] * p
				d = k[f, files[i]] - m
				x += d * d / (m * (1 - p))
			}
			printf "%.2f\t%s\t%.1f\n", x / (nf - 1), f, 100 * p
		}
	}' "$tmp/top.tsv" | sort -k1,1nr -k2,2 >"$tmp/disp.$1"
	nr=$(awk -F'\t' -v g="$1" '$2 == g' "$tmp/groups" | wc -l)
	sort -k1,1n "$tmp/disp.$1" | awk -F'\t' -v g="$1" -v r="$nr" '
	{ v[++n] = $1; s += $1; if ($1 > 2) big++ }
	END { if (n) printf "#   %s, %d runs: %d functions, chi2/df median" \
	    " %.2f, mean %.2f, %d above 2\n", g, r, n, \
	    n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, s / n, \
	    big + 0 }'
}
echo "# dispersion of the no-change runs: chi2/df of per-run cum counts" \
    "(1 is binomial), functions with 10 samples a run or more"
for g in none busy-none long-none; do
	dispersion $g
done
for g in none busy-none long-none; do
	echo "#   the largest, $g (pooled share, chi2/df):"
	head -6 "$tmp/disp.$g" |
	    awk -F'\t' '{ printf "#     %-44s %5.1f%%  %.2f\n", $2, $3, $1 }'
done

# ---------------------------------------------------------------------
# The pairs.  jobs.tsv: category, target function, base files, new files
# (files separated by spaces).
awk -F'\t' -v sets="$SETS" '
function target(g) { return g ~ /leaf/ ? "main.applyDiscounts" : \
    g ~ /inner/ ? "main.calculateScore" : "-" }
function job(cat, g, b, n) { printf "%s\t%s\t%s\t%s\n", cat, target(g), b, n }
# pick(g, k, out, avoid): k distinct random runs of group g, none in avoid.
function pick(g, k, out, avoid,   i, c, tries) {
	split("", out)
	for (i = 1; i <= k; i++) {
		for (tries = 0; tries < 1000; tries++) {
			c = run[g, int(rand() * cnt[g]) + 1]
			if ((c in avoid) || (c in out))
				continue
			break
		}
		out[c] = 1
	}
	return join(out)
}
function join(a,   s, x, n, i, j, t, v) {
	n = 0
	for (x in a) v[++n] = x
	for (i = 2; i <= n; i++)	# sort, so that a set has one spelling
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	s = v[1]
	for (i = 2; i <= n; i++) s = s " " v[i]
	return s
}
# sets3(cat, gb, gn): three runs of gb against three of gn, disjoint,
# every set once: all of them when there are at most "sets", otherwise
# "sets" drawn at random.
function sets3(cat, gb, gn,   got, b, n, key, tries, total, ba, na) {
	total = choose(cnt[gb], 3) * choose(cnt[gn] - (gb == gn ? 3 : 0), 3)
	if (total > sets)
		total = sets
	got = 0
	for (tries = 0; got < total && tries < 100000; tries++) {
		b = pick(gb, 3, ba, none)
		n = pick(gn, 3, na, ba)
		key = b "|" n
		if (key in done)
			continue
		done[key] = 1
		job(cat, gn, b, n)
		got++
	}
}
function choose(n, k,   r, i) {
	if (n < k) return 0
	r = 1
	for (i = 0; i < k; i++) r = r * (n - i) / (i + 1)
	return r
}
{ g = $2; cnt[g]++; run[g, cnt[g]] = $1 }
END {
	srand(17)
	split("", none)
	# 3. No change, one a side: every ordered pair.
	split("none busy-none long-none", ng, " ")
	for (x = 1; x <= 3; x++)
		for (i = 1; i <= cnt[ng[x]]; i++)
			for (j = 1; j <= cnt[ng[x]]; j++)
				if (i != j)
					job("null1:" ng[x], "-", run[ng[x], i], \
					    run[ng[x], j])
	for (i = 1; i <= cnt["none"]; i++)
		for (j = 1; j <= cnt["busy-none"]; j++) {
			job("null1:mixed", "-", run["none", i], run["busy-none", j])
			job("null1:mixed", "-", run["busy-none", j], run["none", i])
		}
	# 4. Power, one a side.
	split("leaf10 leaf25 inner10 inner25 busy-leaf25 long-leaf10", vg, " ")
	for (x = 1; x <= 6; x++) {
		b = vg[x]; sub(/(leaf|inner)[0-9]+$/, "none", b)
		for (i = 1; i <= cnt[b]; i++)
			for (j = 1; j <= cnt[vg[x]]; j++)
				job("pow1:" vg[x], vg[x], run[b, i], run[vg[x], j])
	}
	# 5. Three a side.
	sets3("null3:none", "none", "none")
	sets3("null3:busy-none", "busy-none", "busy-none")
	for (x = 1; x <= 6; x++) {
		b = vg[x]; sub(/(leaf|inner)[0-9]+$/, "none", b)
		sets3("pow3:" vg[x], b, vg[x])
	}
}' "$tmp/groups" >"$tmp/jobs.tsv"
njobs=$(wc -l <"$tmp/jobs.tsv")
echo "# $njobs comparisons (REAL_SETS=$SETS sets of three a side per kind)"

# Run them: check-significance's exit status, and diff's JSON report.
# The file names have no blanks, so a side is split on them.
mkdir "$tmp/d"
cd "$DATA" || exit 2
i=0
while IFS='	' read -r cat tgt base new; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	"$PD" check-significance -q -f json -n 0 $base -- $new \
	    >"$tmp/d/c$i.json" 2>>"$tmp/stderr"
	cs=$?
	# shellcheck disable=SC2086
	"$PD" diff -q -f json -n 0 $base -- $new >"$tmp/d/d$i.json" \
	    2>>"$tmp/stderr"
	ds=$?
	printf '%d\t%s\t%s\t%d\t%d\n' $i "$cat" "$tgt" $cs $ds >>"$tmp/status"
done <"$tmp/jobs.tsv"
cd - >/dev/null || exit 2

# Any exit 2, or a report that is not JSON with the status the process
# exited with, means profdiff failed: no rate would mean anything.
awk -F'\t' '$4 == 2 || $4 > 3 || $5 != 0 { bad++ } END { exit bad > 0 }' \
    "$tmp/status" || die "profdiff failed on a pair: $(head -1 "$tmp/stderr")"
jq -r '[(input_filename | sub(".*/c"; "") | sub("[.]json$"; "")),
    .exit_status,
    ((.exit_status == 1) == any(.findings[]; .verdict == "regressed" and
    .gates != false))] |
    @tsv' "$tmp"/d/c*.json >"$tmp/cs.tsv" ||
    die "check-significance wrote a report that does not parse"
awk -F'\t' 'FILENAME == ARGV[1] { js[$1] = $2; fine[$1] = $3; next }
    js[$1] != $4 || fine[$1] != "true" { bad++ } END { exit bad > 0 }' \
    "$tmp/cs.tsv" "$tmp/status" ||
    die "check-significance's exit_status, exit and findings disagree"
# Per diff report: its findings, regressed and improved; for each
# function that can be a target, whether a regression finding names it
# (it is the finding's function or on its path) and whether an
# improvement does; whether the largest regression finding names
# main.calculateScore ("-" with none); discoveries, family, the two
# sides' samples; the two targets' row verdicts; the findings as
# verdict:path; whether the test was quasi-binomial, and its dispersion.
jq -r 'def names($f; $t): any(($f.path + [$f.function])[]; . == $t);
    def named($v; $t): if any(.findings[]; .verdict == $v and names(.; $t))
        then 1 else 0 end;
    [(input_filename | sub(".*/d"; "") | sub("[.]json$"; "")),
    ([.findings[] | select(.verdict == "regressed")] | length),
    ([.findings[] | select(.verdict == "improved")] | length),
    named("regressed"; "main.applyDiscounts"),
    named("regressed"; "main.calculateScore"),
    named("improved"; "main.applyDiscounts"),
    named("improved"; "main.calculateScore"),
    ([.findings[] | select(.verdict == "regressed")][0] |
        if . == null then "-" elif names(.; "main.calculateScore") then 1
        else 0 end),
    .discoveries, .family, .base.samples, .new.samples,
    ((.rows[] | select(.name == "main.applyDiscounts") | .verdict) // "absent"),
    ((.rows[] | select(.name == "main.calculateScore") | .verdict) // "absent"),
    ([.findings[] | .verdict + ":" + (.path | join(">"))] | join(" ")),
    (.method | test("quasi")), (.dispersion // 1)] |
    @tsv' "$tmp"/d/d*.json >"$tmp/diff.tsv" ||
    die "diff wrote a report that does not parse"
# results.tsv: id, category, target, exit of check-significance,
# regression findings, improvement findings, found (a regression finding
# names the target), the wrong way (an improvement names it), the
# largest regression finding names main.calculateScore, discoveries,
# family, base samples, new samples, the target's row verdict, the
# findings, quasi-binomial, the dispersion.
awk -F'\t' 'FILENAME == ARGV[1] { d[$1] = $0; next }
{ split(d[$1], x, "\t")
  t = $3 == "main.applyDiscounts" ? 0 : $3 == "main.calculateScore" ? 1 : -1
  printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
      $1, $2, $3, $4, x[2], x[3], t < 0 ? 0 : x[4 + t], t < 0 ? 0 : x[6 + t],
      x[8], x[9], x[10], x[11], x[12], t < 0 ? "-" : x[13 + t], x[15],
      x[16], x[17] }' \
    "$tmp/diff.tsv" "$tmp/status" >"$tmp/results.tsv"

# rate CAT FIELD: "k n k/n" for the rows of CAT where the awk condition
# FIELD holds.
rate() {
	awk -F'\t' -v cat="$1" '$2 == cat { n++; if ('"$2"') k++ }
	    END { if (n) printf "%d %d %.4f\n", k, n, k / n;
	    else print "0 0 -1" }' "$tmp/results.tsv"
}
fmt() { echo "$1" | awk '{ if ($2) printf "%d/%d (%.1f%%)", $1, $2, 100 * $3;
    else printf "none" }'; }
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; }
# check COND MESSAGE...: COND is an awk expression.
# target COND MESSAGE: like check, but printed, not counted: a target
# (issue 29's) that one profile a side, which now allows for how much
# two processes differ (doc/statistics.md, section 2), may miss.
target() {
	_c=$1
	shift
	if awk "BEGIN { exit !($_c) }"; then
		echo "# target met: $*"
	else
		echo "# target missed: $*"
	fi
}

check() {
	_c=$1
	shift
	if awk "BEGIN { exit !($_c) }"; then ok "$*"; else not_ok "$*"; fi
}
# quasi CAT: "N quasi-binomial, dispersion median D" for three a side.
quasi() {
	awk -F'\t' -v c="$1" '$2 == c { n++; if ($16 == "true") q++; d[n] = $17 }
	    END { for (i = 2; i <= n; i++) for (j = i; j > 1 && d[j - 1] > d[j]; j--) {
	              x = d[j]; d[j] = d[j - 1]; d[j - 1] = x }
	          printf "quasi-binomial in %d/%d, dispersion median %.2f, at most %.2f",
	              q, n, n % 2 ? d[(n + 1) / 2] : (d[n / 2] + d[n / 2 + 1]) / 2, d[n] }' \
	    "$tmp/results.tsv"
}
# findings_of CAT...: the findings of the pairs of those categories,
# most frequent first.
findings_of() {
	for c in "$@"; do
		awk -F'\t' -v c="$c" '$2 == c && $15 != "" { print $15 }' \
		    "$tmp/results.tsv"
	done | tr ' ' '\n' | awk 'NF { n[$0]++ }
	    END { for (x in n) print n[x] "\t" x }' | sort -k1,1nr -k2,2 |
	    head -"${FINDINGS_SHOWN:-6}" |
	    awk -F'\t' '{ printf "#     %4d %s\n", $1, $2 }'
}

# ---------------------------------------------------------------------
echo "# false alarms, one profile a side (ordered pairs of no-change runs)"
for g in none busy-none mixed long-none; do
	e1=$(rate "null1:$g" '$4 == 1')
	an=$(rate "null1:$g" '$5 + $6 > 0')
	echo "#   $g: check-significance exit 1 in $(fmt "$e1"); diff has a" \
	    "finding in $(fmt "$an"); the findings:"
	findings_of "null1:$g"
	eval "fa1_$(echo "$g" | tr -d -)=\"$e1\""
done
echo "# false alarms, three profiles a side (disjoint triples)"
for g in none busy-none; do
	e1=$(rate "null3:$g" '$4 == 1')
	an=$(rate "null3:$g" '$5 + $6 > 0')
	eq=$(rate "null3:$g" '$4 == 1 && $16 == "true"')
	echo "#   $g: check-significance exit 1 in $(fmt "$e1") (of them" \
	    "$(echo "$eq" | cut -d' ' -f1) quasi-binomial); diff has a" \
	    "finding in $(fmt "$an"); $(quasi "null3:$g"); the findings:"
	findings_of "null3:$g"
	eval "fa3_$(echo "$g" | tr -d -)=\"$e1\""
done

# The limit the counts allow, per category: the pooled true shares of
# the injected hypothesis (flat for the leaf, cum for the inner node) in
# the variant's runs and in the no-change runs of its kind, the pairs'
# mean samples a side, and the median cutoff R alpha / m of the pairs
# with a discovery (alpha over the median family where none has one).
sh "$(dirname "$0")/sim.sh" --stats-awk >"$tmp/stats.awk" ||
    die "tests/sim.sh --stats-awk failed"
awk -F'\t' 'NR > 1 { g = $2; if ($7 == 1) g = "busy-" g
	if ($8 + 0 >= 9) g = "long-" g
	n[g] += $9; af[g] += $16; cc[g] += $19 }
    END { for (g in n) printf "%s\t%.10f\t%.10f\n", g, af[g] / n[g],
	cc[g] / n[g] }' "$MAN" >"$tmp/shares"
cat >"$tmp/limit.awk" <<'EOF'
FILENAME == ARGV[1] { fl[$1] = $2; cu[$1] = $3; next }
$2 == cat { k++; n1 += $12; n2 += $13; fam[k] = $11
	if ($10 > 0) c[++nc] = $10 * a / $11 }
END {
	if (k == 0)
		exit 1
	b = v
	sub(/(leaf|inner)[0-9]+$/, "none", b)
	if (v ~ /leaf/) { p1 = fl[b]; p2 = fl[v]; h = "flat" }
	else { p1 = cu[b]; p2 = cu[v]; h = "cum" }
	t = nc ? median(c, nc) : a / median(fam, k)
	n1 = int(n1 / k + 0.5)
	n2 = int(n2 / k + 0.5)
	printf "%.3f %s %.4f %.4f %d %d %.5f\n", fpower(n1, p1, n2, p2, t), h,
	    p1, p2, n1, n2, t
}
EOF
# limit CAT VARIANT: "power hypothesis p1 p2 n1 n2 cutoff".
limit() {
	awk -F'\t' -v cat="$1" -v v="$2" -v a=0.05 -f "$tmp/stats.awk" \
	    -f "$tmp/limit.awk" "$tmp/shares" "$tmp/results.tsv"
}

echo "# power: found (a regression finding names the injected function)," \
    "beside the limit the counts allow; the wrong way (an improvement" \
    "names it); its row regressed; check-significance exit 1"
for v in leaf10 leaf25 inner10 inner25 busy-leaf25 long-leaf10; do
	for k in 1 3; do
		hit=$(rate "pow$k:$v" '$7 == 1')
		wrong=$(rate "pow$k:$v" '$8 == 1')
		row=$(rate "pow$k:$v" '$14 == "regressed"')
		e1=$(rate "pow$k:$v" '$4 == 1')
		lim=$(limit "pow$k:$v" "$v") || die "no pairs of $v, $k a side"
		set -- $lim
		imp=$(rate "pow$k:$v" '$6 > 0')
		q=""
		[ $k = 3 ] && q="; $(quasi "pow$k:$v")"
		echo "#   $v, $k a side: found in $(fmt "$hit"), the limit $1" \
		    "(exact power of Fisher's test on the $2 counts, $3 -> $4," \
		    "$5 and $6 samples, at $7); wrong way in $(fmt "$wrong");" \
		    "row regressed in $(fmt "$row"); exit 1 in $(fmt "$e1");" \
		    "an improvement finding in $(fmt "$imp")$q"
		eval "pow${k}_$(echo "$v" | tr -d -)=\"$hit\""
	done
done
echo "# the findings of the inner pairs, most frequent first:"
for v in inner10 inner25; do
	for k in 1 3; do
		echo "#   $v, $k a side:"
		FINDINGS_SHOWN=4 findings_of "pow$k:$v"
	done
done

if [ -s "$tmp/stderr" ]; then
	echo "# profdiff -q wrote to stderr: $(head -1 "$tmp/stderr")"
fi

# ---------------------------------------------------------------------
# The checks.  Pairs share runs, so the counts are not independent
# trials: a rate is less certain than k/n suggests.
for g in none busy-none; do
	for k in 1 3; do
		eval "r=\$fa${k}_$(echo "$g" | tr -d -)"
		set -- $r
		label=quiet
		[ "$g" = busy-none ] && label=busy
		b=$(awk -v n="$2" 'BEGIN { printf "%.3f", 0.05 + 3 * sqrt(0.05 * 0.95 / n) }')
		above=""
		awk -v x="$3" 'BEGIN { exit !(x > 0.05) }' &&
		    above=" (above 5% itself: see doc/statistics.md, section 10)"
		check "$2 > 0 && $3 <= $b" "no-change $label, $k a side:" \
		    "check-significance exits 1 in $(fmt "$r"), at most alpha" \
		    "plus 3 binomial standard errors, $b, as sim.sh checks$above"
	done
done
for v in leaf25 inner25 busy-leaf25; do
	eval "r=\$pow1_$(echo "$v" | tr -d -)"
	set -- $r
	target "$2 > 0 && $3 >= 0.95" "$v, 1 a side: a regression finding" \
	    "names the injected function in $(fmt "$r"), at least 95%"
done
for v in leaf10 leaf25 inner10 inner25 busy-leaf25; do
	eval "r1=\$pow1_$(echo "$v" | tr -d -)"
	eval "r3=\$pow3_$(echo "$v" | tr -d -)"
	set -- $r1 $r3
	check "$2 > 0 && $5 > 0 && $6 >= $3 - 2 * sqrt($3 * (1 - $3) / $2 + \
	    $6 * (1 - $6) / $5)" "$v: 3 a side finds it in $(fmt "$r3")," \
	    "at least as often as 1 a side, $(fmt "$r1") (less 2 SE)"
done
for k in 1 3; do
	r=$(rate "pow$k:inner25" '$9 == 1')
	set -- $r
	if [ $k -eq 1 ]; then c=target; else c=check; fi
	$c "$2 > 0 && $3 >= 0.95" "inner25, $k a side: the largest" \
	    "regression finding has main.calculateScore on its path in" \
	    "$(fmt "$r") of the pairs, at least 95%"
done

# 6. Rates and values per request, one profile a side: the test against
#    exposures (--normalize duration: each run's seconds; --requests:
#    the requests MANIFEST.tsv counted in each run, so that CPU seconds
#    per request stay right whatever the throughput).  No-change quiet
#    3-second pairs exit 1 at most alpha plus 3 SE; a slowdown of 25%
#    in the injected function is found (a regression finding names it)
#    in at least 95% of the (no-change, injected) pairs, 10% reported.
expo_pairs() {
	# expo_pairs MODE VARIANT: "k n" over (none, VARIANT) pairs, or the
	# ordered no-change pairs when VARIANT is none.
	awk -F'\t' -v v="$2" 'NR > 1 && $7 == 0 && $8 ~ /^3/ &&
	    ($2 == "none" || $2 == v) { print $2, $1, $12, $3 }' "$MAN" |
	    awk -v v="$2" '$1 == "none" { a[++na] = $2 " " $3 }
	    $1 != "none" { b[++nb] = $2 " " $3 " " $4 }
	    END { for (i = 1; i <= na; i++)
		if (v == "none") { for (j = 1; j <= na; j++) if (i != j)
			print a[i], a[j], "-" }
		else for (j = 1; j <= nb; j++) print a[i], b[j] }' |
	while read -r fa ra fb rb fn; do
		if [ "$1" = requests ]; then o="--requests $ra,$rb"
		else o="--normalize duration"; fi
		if [ "$fn" = - ]; then
			"$PD" check-significance -q $o "$DATA/$fa" \
			    "$DATA/$fb" >/dev/null 2>&1
			echo $?
		else
			"$PD" diff -q -n 0 -f json $o "$DATA/$fa" "$DATA/$fb" \
			    2>/dev/null | jq -r --arg f "$fn" '[.findings[] |
			    select(.verdict == "regressed") | select(.function
			    == $f or (.path | index($f)))] | if length > 0
			    then 1 else 0 end'
		fi
	done | awk '{ n++; if ($1 == 1) k++ }
	    END { printf "%d %d %.4f\n", k, n, n ? k / n : -1 }'
}
for mode in duration requests; do
	r=$(expo_pairs $mode none)
	set -- $r
	b=$(awk -v n="$2" 'BEGIN { printf "%.4f", 0.05 + 3 * sqrt(0.05 * 0.95 / n) }')
	check "$2 > 0 && $3 <= $b" "no-change quiet, 1 a side, --$mode:" \
	    "check-significance exits 1 in $(fmt "$r"), at most alpha plus" \
	    "3 SE, $b"
	for v in leaf25 inner25; do
		r=$(expo_pairs $mode $v)
		set -- $r
		target "$2 > 0 && $3 >= 0.95" "$v, 1 a side, --$mode: a" \
		    "regression finding names the injected function in" \
		    "$(fmt "$r"), at least 95%"
	done
	for v in leaf10 inner10; do
		echo "# $v, 1 a side, --$mode: found in $(fmt "$(expo_pairs $mode $v)")"
	done
done

echo "# $(($(date +%s) - start)) s"
echo "real: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

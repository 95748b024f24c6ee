#!/bin/sh
# Statistical acceptance test of profdiff series on simulated series
# whose answer is known (tests/tools/simprof.c, fixed seeds, so every run
# of this script sees the same profiles).
#
#	sh tests/sim-series.sh BUILD_DIR
#
# 1. Position.  SIM_SERIES_RUNS series of SIM_SERIES_T points of
#    SIM_SERIES_N samples; from point SIM_SERIES_AT on, the own time of
#    main.sortByRelevance is doubled (simprof -f: its flat share goes
#    from 1.2% to about 2.4%).  Found is: a `regressed` change of that
#    function whose `at` is within one point of the truth.  It must be
#    found in at least 80% of the series.
# 2. False alarms.  As many series with no change: a series with any
#    change at all is a false alarm.  Their rate must be at most alpha,
#    plus 3 binomial standard errors.
# 3. --by-time.  One change series given in shuffled order with each
#    point's time set (simprof -T): --by-time must give the same report
#    as the points in order.
# 4. Real series of tests/data/pricing-runs (see below).
# The counts and rates are printed, and a last line for tests/run.sh.
set -u
b=${1:?usage: sim-series.sh BUILD_DIR}
sim=$b/tests/simprof
pd=$b/profdiff
R=${SIM_SERIES_RUNS:-200}
T=${SIM_SERIES_T:-10}
N=${SIM_SERIES_N:-2000}
AT=${SIM_SERIES_AT:-5}
ALPHA=0.05
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; }

# Series r, point t: a seed of its own; changed from AT on when $3 is 1.
point() {
	r=$1 t=$2 chg=$3
	f=$tmp/s$chg-$r-$t.pb.gz
	seed=$((100000 * chg + 1000 * r + t + 1))
	if [ "$chg" = 1 ] && [ "$t" -ge "$AT" ]; then
		"$sim" -n "$N" -s "$seed" -T $((1795910400000000000 + t * 60000000000)) \
		    -f main.sortByRelevance=2 "$f"
	else
		"$sim" -n "$N" -s "$seed" -T $((1795910400000000000 + t * 60000000000)) \
		    "$f"
	fi
	echo "$f"
}

series() {
	r=$1 chg=$2 t=0 files=
	while [ "$t" -lt "$T" ]; do
		files="$files $(point "$r" "$t" "$chg")"
		t=$((t + 1))
	done
	echo "$files"
}

found=0 alarms=0 r=0
while [ "$r" -lt "$R" ]; do
	# shellcheck disable=SC2046
	"$pd" series -q -f json -n 0 $(series "$r" 1) >"$tmp/c.json"
	if awk -v at="$AT" '
	    /"verdict": "regressed", "function": "main.sortByRelevance"/ {
		s = $0; sub(/.*"at": /, "", s); sub(/,.*/, "", s)
		d = s - at; if (d < 0) d = -d
		if (d <= 1) hit = 1
	    }
	    END { exit !hit }' "$tmp/c.json"; then
		found=$((found + 1))
	fi
	# shellcheck disable=SC2046
	"$pd" series -q -f json -n 0 $(series "$r" 0) >"$tmp/n.json"
	if grep -q '"verdict"' "$tmp/n.json"; then
		alarms=$((alarms + 1))
	fi
	r=$((r + 1))
done

echo "# position: found within one point in $found of $R series"
echo "# false alarms: $alarms of $R series with no change"
if [ $((found * 10)) -ge $((R * 8)) ]; then
	ok "position found within one step in $found/$R series (>= 80%)"
else
	not_ok "position found within one step in $found/$R series (< 80%)"
fi
if awk -v a="$alarms" -v n="$R" -v al="$ALPHA" 'BEGIN {
    exit !(a / n <= al + 3 * sqrt(al * (1 - al) / n)) }'; then
	ok "false alarms $alarms/$R at most alpha + 3 SE"
else
	not_ok "false alarms $alarms/$R above alpha + 3 SE"
fi

# --by-time: the change series 0, shuffled (odd points first), sorted.
files=$(series 0 1)
shuf_files=$(for f in $files; do echo "$f"; done | awk 'NR % 2 == 0' )
shuf_files="$shuf_files $(for f in $files; do echo "$f"; done |
    awk 'NR % 2 == 1')"
# shellcheck disable=SC2086
"$pd" series -q -f json -n 0 $files | grep -v '"operand"' >"$tmp/a"
# shellcheck disable=SC2086
"$pd" series -q -f json -n 0 --by-time $shuf_files |
    grep -v '"operand"' >"$tmp/b"
if cmp -s "$tmp/a" "$tmp/b"; then
	ok "--by-time on shuffled points gives the ordered report"
else
	not_ok "--by-time on shuffled points differs from the ordered report"
	diff "$tmp/a" "$tmp/b" | head -10
fi
# 4. Real series (tests/data/pricing-runs, README there): good runs, then
#    runs with a slowdown injected into one function.  A regression
#    whose JSON names the injected function (as the function, on its
#    path, or among its carriers or parts) must be found within one point
#    of the boundary; and series of good runs alone must report nothing.
P=tests/data/pricing-runs
real() {
	want=$1 fn=$2
	shift 2
	"$pd" series -q -f json -n 0 "$@" >"$tmp/r.json"
	if awk -v at="$want" -v fn="\"$fn\"" '
	    /"verdict": "regressed"/ && index($0, fn) > 0 {
		s = $0; sub(/.*"at": /, "", s); sub(/,.*/, "", s)
		d = s - at; if (d < 0) d = -d
		if (d <= 1) hit = 1
	    }
	    END { exit !hit }' "$tmp/r.json"; then
		ok "real: $fn found at the boundary $want"
	else
		not_ok "real: $fn not found at the boundary $want"
		grep '"verdict"' "$tmp/r.json" | cut -c1-160
	fi
}
quiet() {
	what=$1
	shift
	"$pd" series -q -f json -n 0 "$@" >"$tmp/r.json"
	if grep -q '"verdict"' "$tmp/r.json"; then
		not_ok "real: $what reports a change"
		grep '"verdict"' "$tmp/r.json" | cut -c1-160
	else
		ok "real: $what reports no change"
	fi
}
if [ -d "$P" ]; then
	for v in leaf25 leaf10 inner25 inner10; do
		case $v in
		leaf*) fn=main.applyDiscounts ;;
		*) fn=main.calculateScore ;;
		esac
		real 8 "$fn" "$P"/none-0[1-8].pb.gz "$P"/$v-0[1-8].pb.gz
	done
	real 4 main.applyDiscounts "$P"/long-none-0[1-4].pb.gz \
	    "$P"/long-leaf10-0[1-4].pb.gz
	real 8 main.applyDiscounts "$P"/busy-none-0[1-8].pb.gz \
	    "$P"/busy-leaf25-0[1-4].pb.gz
	quiet "16 good runs" "$P"/none-*.pb.gz
	quiet "8 good runs on a busy machine" "$P"/busy-none-*.pb.gz
	quiet "4 long good runs" "$P"/long-none-*.pb.gz
fi
echo "sim-series: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/sh
# The scale of profdiff series (issue 20): wall time and peak RSS of one
# series of 100 and of 1,000 profiles, to show that memory stays bounded
# (a point's aggregate is freed once its counts are kept) and that time
# grows linearly with the points.  Run by `make bench` after run.sh, or
# alone:
#
#	BUILD=build sh bench/series.sh
#
# Two kinds of points: simprof's (tests/tools/simprof.c: 2000 samples
# over a tree of 65 functions, a change at 70% of the points), at
# SERIES_STEPS points; and genprof's profiles of the size of bench's
# small pair (18,000 samples, 3000 functions, 15,000 locations; about a
# megabyte each), at SERIES_BIG_STEPS points, which is what a real
# service's hourly profile looks like, and 1,000 such points (the
# largest set given SERIES_BIG_REPEAT times over, default 10, run once).
# Each other is run SERIES_RUNS times (default 3) and the median is kept.  The profiles are made once under
# bench/out/series*/ (delete them to make them again).  Writes
# $SERIES_RESULTS (default bench/SERIES.md).
set -eu
BUILD=${BUILD:-build}
PD=$BUILD/profdiff
RUSAGE=$BUILD/bench/rusage
SIM=$BUILD/tests/simprof
GEN=$BUILD/bench/genprof
STEPS=${SERIES_STEPS:-100 1000}
BIG_STEPS=${SERIES_BIG_STEPS:-25 50 100}
RUNS=${SERIES_RUNS:-3}
BIG_REPEAT=${SERIES_BIG_REPEAT:-10}
OUT=bench/out
RESULTS=${SERIES_RESULTS:-bench/SERIES.md}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

max() { for s in $1; do echo "$s"; done | sort -n | tail -1; }

# simprof points: 2000 samples each, main.sortByRelevance's own time
# half as much again from 70% of the points on.
make_sim() {
	n=$1 d=$OUT/series
	[ -f "$d/stamp-$n" ] && return 0
	mkdir -p "$d"
	i=0
	while [ "$i" -lt "$n" ]; do
		f=$(printf '%s/p-%05d.pb.gz' "$d" "$i")
		t=$((1795910400000000000 + i * 3600000000000))
		if [ "$i" -ge $((n * 7 / 10)) ]; then
			"$SIM" -n 2000 -s $((i + 1)) -T "$t" \
			    -f main.sortByRelevance=1.5 "$f"
		else
			"$SIM" -n 2000 -s $((i + 1)) -T "$t" "$f"
		fi
		i=$((i + 1))
	done
	touch "$d/stamp-$n"
}

# genprof points of the small pair's size, the bad variant from 70% on.
make_big() {
	n=$1 d=$OUT/series-big
	[ -f "$d/stamp-$n" ] && return 0
	mkdir -p "$d"
	i=0
	while [ "$i" -lt "$n" ]; do
		f=$(printf '%s/p-%05d.pb.gz' "$d" "$i")
		if [ "$i" -ge $((n * 7 / 10)) ]; then
			"$GEN" -b -s 1 -S $((i + 1)) -n 18000 -f 3000 -l 15000 "$f"
		else
			"$GEN" -s 1 -S $((i + 1)) -n 18000 -f 3000 -l 15000 "$f"
		fi
		i=$((i + 1))
	done
	touch "$d/stamp-$n"
}

# The median over RUNS of "wall_s maxrss_kb" of a series of the first
# n files of directory d, given rep times over (default 1); prints
# "wall rss changes".
measure() {
	d=$1 n=$2 rep=${3:-1}
	: >"$TMP/files"
	while [ "$rep" -gt 0 ]; do
		ls "$d"/p-*.pb.gz | head -n "$n" >>"$TMP/files"
		rep=$((rep - 1))
	done
	r=0
	: >"$TMP/m"
	while [ "$r" -lt "$RUNS" ]; do
		# shellcheck disable=SC2046
		"$RUSAGE" -o "$TMP/m" "$PD" series -q -f json -n 0 \
		    $(cat "$TMP/files") >"$TMP/out.json"
		r=$((r + 1))
	done
	sort -n "$TMP/m" | awk -v k=$(((RUNS + 1) / 2)) 'NR == k {
	    printf "%s %s", $1, $2 }'
	printf ' %s\n' "$(grep -c '"verdict"' "$TMP/out.json" || true)"
}

row() {
	kind=$1 d=$2 n=$3 rep=${4:-1}
	set -- $(measure "$d" "$n" "$rep")
	n=$((n * rep))
	awk -v k="$kind" -v n="$n" -v w="$1" -v r="$2" -v c="$3" 'BEGIN {
	    printf "| %s | %d | %.3f | %.2f | %.1f | %d |\n", k, n, w,
	    w * 1000 / n, r / 1024, c }'
}

make_sim "$(max "$STEPS")"
make_big "$(max "$BIG_STEPS")"
{
	echo "# profdiff series at scale"
	echo
	echo "Made by \`bench/series.sh\` (\`make bench\`) on $(uname -m)," \
	    "$(nproc) cores, $(date -u +%Y-%m-%d); the median of $RUNS runs."
	echo "Each run is \`profdiff series -q -f json -n 0\` on the first N" \
	    "profiles of one set."
	echo "The load average when it started was" \
	    "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown):" \
	    "wall times on a shared machine are inflated by the other work."
	echo
	echo "| points | N | wall s | ms a point | peak RSS MB | changes |"
	echo "|---|---|---|---|---|---|"
	for n in $STEPS; do
		row "simprof (65 functions, 2000 samples)" "$OUT/series" "$n"
	done
	for n in $BIG_STEPS; do
		row "genprof (3000 functions, 18,000 samples)" \
		    "$OUT/series-big" "$n"
	done
	# 1,000 points of that size without a gigabyte of files: the
	# largest set given BIG_REPEAT times over, once (it takes minutes).
	n=$(max "$BIG_STEPS")
	RUNS=1 row "genprof, the $n files $BIG_REPEAT times over" \
	    "$OUT/series-big" "$n" "$BIG_REPEAT"
} >"$RESULTS"
cat "$RESULTS"

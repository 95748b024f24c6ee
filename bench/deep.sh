#!/bin/sh
# The depth of a stack (issue 30): wall time and peak RSS of profdiff
# diff and of profdiff series on a stack of D frames against one of
# 2D + 1000, to show both linear in the depth.  D = 32,000 is the
# issue's case, 32,000 frames against 65,000, within the default
# --max-depth (65,536); before, it took 51 s and 1.9 GB.  Run by
# `make bench` after series.sh, or alone:
#
#	BUILD=build sh bench/deep.sh
#
# The profiles are folded stacks, made once under bench/out/deep/
# (delete them to make them again): main;f1;...;fD, 1000 samples, and
# main;other, 1000 samples; in the deep one the chain runs to 2D + 1000
# with 3000 samples.  diff compares the two; series takes four points,
# the shallow one twice, then the deep one twice.  DEEP_STEPS lists the
# D (default 2000 8000 32000), DEEP_RUNS the runs of each (default 3,
# the median kept).  DEEP_BASELINE=path times that binary too, in the
# same rounds (the order turned every other round), up to
# DEEP_BASELINE_MAX frames (default 2000: where the time grows with the
# square or the cube of the depth, it takes minutes beyond), and
# DEEP_BASELINE_NAME says what it is in the results (default its
# path).  Writes $DEEP_RESULTS (default bench/DEEP.md).
set -eu
. "$(dirname "$0")/lib.sh"
BENCH_OK=1		# diff and series exit 1 as a result, not a failure
STEPS=${DEEP_STEPS:-2000 8000 32000}
RUNS=${DEEP_RUNS:-3}
BASE=${DEEP_BASELINE:-}
BASE_MAX=${DEEP_BASELINE_MAX:-2000}
BASE_NAME=${DEEP_BASELINE_NAME:-\`$BASE\`}
OUT=bench/out/deep
RESULTS=${DEEP_RESULTS:-bench/DEEP.md}
if [ -n "$BASE" ] && [ ! -x "$BASE" ]; then
	echo "deep: DEEP_BASELINE=$BASE is not an executable" >&2
	exit 1
fi

# chain FILE DEPTH COUNT: one stack DEPTH frames deep below main, and a
# sibling of it.
chain() {
	awk -v d="$2" -v c="$3" 'BEGIN {
		printf "main"
		for (i = 1; i <= d; i++)
			printf ";f%d", i
		printf " %d\nmain;other 1000\n", c
	}' > "$1"
}

make_pair() {
	d=$1
	[ -f "$OUT/deep-$d.folded" ] && return 0
	mkdir -p "$OUT"
	chain "$OUT/shallow-$d.folded" "$d" 1000
	chain "$OUT/deep-$d.folded" $((2 * d + 1000)) 3000
}

# round R: diff and series of the pair $S, $D once with the current
# binary and, up to BASE_MAX frames, once with the baseline; every
# other round, the baseline first.
round() {
	for b in cur base; do
		if [ $(($1 % 2)) = 1 ]; then
			[ "$b" = cur ] && b=base || b=cur
		fi
		if [ "$b" = cur ]; then
			bench_run "diff-$d" "$PD" diff -q "$S" "$D"
			bench_run "series-$d" "$PD" series -q "$S" "$S" "$D" "$D"
		elif [ -n "$BASE" ] && [ "$d" -le "$BASE_MAX" ]; then
			bench_run "diff-$d.base" "$BASE" diff -q "$S" "$D"
			bench_run "series-$d.base" "$BASE" series -q "$S" "$S" \
			    "$D" "$D"
		fi
	done
}

# row COMMAND D NAME: a row of the table, with the baseline's when it
# was run.
row() {
	set -- "$1" "$2" "$3" $(bench_median "$3")
	if [ -s "$TMP/$3.base" ]; then
		set -- "$@" $(bench_median "$3.base")
	else
		set -- "$@" - -
	fi
	awk -v c="$1" -v d="$2" -v w="$4" -v r="$5" -v bw="$6" -v br="$7" \
	    'BEGIN {
		n = 2 * d + 1000
		printf "| %s | %d / %d | %.3f | %.1f | %.1f |", c, d, n, w,
		    r / 1024, 1000 * w / n * 1000
		if (bw == "-")
			printf " - | - |\n"
		else
			printf " %.3f | %.1f |\n", bw, br / 1024
	}'
}

for d in $STEPS; do
	make_pair "$d"
done
{
	bench_head "profdiff on one deep stack"
	echo "Each pair is a stack D frames deep against one 2D + 1000 deep"
	echo "(bench/out/deep/, folded), and a sibling of it:"
	echo
	echo '    profdiff diff -q $S $D'
	echo '    profdiff series -q $S $S $D $D'
	echo
	if [ -n "$BASE" ]; then
		echo "Baseline: $BASE_NAME, up to $BASE_MAX frames."
		echo
	fi
	echo "| command | frames (base / new) | wall s | peak RSS MB |" \
	    "µs per frame | baseline wall s | baseline RSS MB |"
	echo "|---|---|---:|---:|---:|---:|---:|"
} > "$TMP/out.md"
for d in $STEPS; do
	S=$OUT/shallow-$d.folded
	D=$OUT/deep-$d.folded
	echo "deep: $d frames" >&2
	bench_rounds round "diff-$d" "series-$d" "diff-$d.base" \
	    "series-$d.base"
	row "diff" "$d" "diff-$d" >> "$TMP/diff.md"
	row "series" "$d" "series-$d" >> "$TMP/series.md"
done
cat "$TMP/diff.md" "$TMP/series.md" >> "$TMP/out.md"
mkdir -p "$(dirname "$RESULTS")"
cp "$TMP/out.md" "$RESULTS"
cat "$RESULTS"

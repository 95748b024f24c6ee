#!/bin/sh
# bench/run.sh: time profdiff against the decompression floor (zcat) and
# go tool pprof on the pairs under bench/out/, and write bench/RESULTS.md.
# Run by `make bench` (bench/bench.mk), which builds the tools and the
# profiles first.  Every step runs BENCH_RUNS times (default 5) and the
# median is reported; go tool pprof runs once on the medium pair (it
# takes minutes) and on the large pair only with BENCH_PPROF_LARGE=1.
# Times and peak RSS come from bench/rusage.c (fork, exec, wait4).
# BENCH_PROFDIFF_PAR=path also times `diff` with that binary (a build
# whose cmd_diff.c loads the two sides with side_load_pair()).
set -eu

BUILD=${BUILD:-build}
SIZES=${BENCH_SIZES:-small medium large}
RUNS=${BENCH_RUNS:-5}
PPROF_RUNS=${BENCH_PPROF_RUNS:-1}
OUT=bench/out
RESULTS=${BENCH_RESULTS:-bench/RESULTS.md}
PROFDIFF=$BUILD/profdiff
RUSAGE=$BUILD/bench/rusage
TMP=$OUT/run.tmp
mkdir -p "$TMP"

# median FILE: median wall time and median peak RSS (KB) of the lines
# "wall maxrss status" in FILE.
median() {
	w=$(cut -d' ' -f1 "$1" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	m=$(cut -d' ' -f2 "$1" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	echo "$w $m"
}

# measure NAME RUNS CMD...: run CMD RUNS times (stdout to /dev/null),
# leave "wall rss" in $TMP/NAME.med.  Exit status 0 and 1 are results.
measure() {
	name=$1; n=$2; shift 2
	: > "$TMP/$name.raw"
	i=0
	while [ "$i" -lt "$n" ]; do
		st=0
		"$RUSAGE" -o "$TMP/$name.raw" "$@" > /dev/null 2> "$TMP/$name.err" || st=$?
		if [ "$st" -gt 1 ]; then
			echo "bench: $name failed with status $st:" >&2
			cat "$TMP/$name.err" >&2
			exit 1
		fi
		i=$((i + 1))
	done
	median "$TMP/$name.raw" > "$TMP/$name.med"
}

wall() { cut -d' ' -f1 "$TMP/$1.med"; }
rss() { cut -d' ' -f2 "$TMP/$1.med"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

have_go=0
if command -v go > /dev/null 2>&1 && go tool pprof -h > /dev/null 2>&1; then
	have_go=1
fi

cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
mem=$(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)

{
	echo "# profdiff benchmark results"
	echo
	echo "Written by \`make bench\` (bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC')."
	echo "Machine: $cores cores, ${cpu:-unknown CPU}, ${mem:-? memory};"
	echo "$(uname -sr), $(${CC:-cc} --version 2>/dev/null | head -1)."
	[ "$have_go" = 1 ] && echo "pprof: $(go version)."
	echo
	echo "Times are medians of $RUNS runs (go tool pprof: $PPROF_RUNS run)"
	echo "of wall-clock time; RSS is the peak resident set (ru_maxrss)."
	echo "Ratios compare with the steps measured in this same run: the"
	echo "floor is \`zcat\` of the same input files to /dev/null, pprof is"
	echo "\`go tool pprof -top\` (for top) or \`-top -diff_base\` (for diff)."
	echo
	echo "Commands (\$G, \$B: the good and bad profile of a pair):"
	echo
	echo '    zcat $G $B > /dev/null              # floor for diff and check'
	echo '    zcat $B > /dev/null                 # floor for top'
	echo '    profdiff top $B'
	echo '    profdiff diff $G $B'
	echo '    profdiff check-significance $G $B'
	echo '    go tool pprof -top $B'
	echo '    go tool pprof -top -diff_base $G $B'
	echo
	echo "| pair | input (gz / raw MB) | step | wall s | × floor | × pprof | peak RSS MB | RSS ÷ raw input |"
	echo "|---|---|---|---:|---:|---:|---:|---:|"
} > "$TMP/results.md"

for size in $SIZES; do
	G=$OUT/$size-good.pb.gz
	B=$OUT/$size-bad.pb.gz
	[ -f "$G" ] && [ -f "$B" ] || { echo "bench: $G or $B missing (make bench-data)" >&2; exit 1; }
	echo "bench: $size pair" >&2
	gzmb=$(ls -l "$G" "$B" | awk '{ s += $5 } END { printf "%.1f", s / 1048576 }')
	rawg=$(zcat "$G" | wc -c)
	rawb=$(zcat "$B" | wc -c)
	rawmb=$(awk -v a="$rawg" -v b="$rawb" 'BEGIN { printf "%.1f", (a + b) / 1048576 }')
	rawbkb=$((rawb / 1024))
	rawkb=$(((rawg + rawb) / 1024))

	measure "$size.zcat2" "$RUNS" sh -c 'zcat "$1" "$2" > /dev/null' sh "$G" "$B"
	measure "$size.zcat1" "$RUNS" sh -c 'zcat "$1" > /dev/null' sh "$B"
	measure "$size.top" "$RUNS" "$PROFDIFF" top "$B"
	measure "$size.diff" "$RUNS" "$PROFDIFF" diff "$G" "$B"
	measure "$size.check" "$RUNS" "$PROFDIFF" check-significance "$G" "$B"
	# A build whose cmd_diff.c calls side_load_pair() (both sides at once).
	if [ -n "${BENCH_PROFDIFF_PAR:-}" ]; then
		measure "$size.pdiffpar" "$RUNS" "$BENCH_PROFDIFF_PAR" diff "$G" "$B"
	fi

	pp=0
	if [ "$have_go" = 1 ]; then
		if [ "$size" != large ] || [ "${BENCH_PPROF_LARGE:-0}" = 1 ]; then
			pp=1
			prun=$PPROF_RUNS
			[ "$size" = small ] && prun=$RUNS
			echo "bench: $size pair: go tool pprof ($prun run)" >&2
			measure "$size.ptop" "$prun" go tool pprof -top "$B"
			measure "$size.pdiff" "$prun" go tool pprof -top -diff_base "$G" "$B"
		fi
	fi

	row() {	# step-label name floor pprof rawkb
		w=$(wall "$2"); r=$(rss "$2")
		f=$(ratio "$w" "$(wall "$3")")
		if [ -n "$4" ] && [ "$pp" = 1 ]; then p=$(ratio "$w" "$(wall "$4")"); else p="-"; fi
		echo "| $size | $gzmb / $rawmb | $1 | $w | $f | $p | $(mb "$r") | $(ratio "$r" "$5") |"
	}
	{
		row "zcat both" "$size.zcat2" "$size.zcat2" "" "$rawkb"
		row "zcat bad" "$size.zcat1" "$size.zcat1" "" "$rawbkb"
		row "profdiff top" "$size.top" "$size.zcat1" "$size.ptop" "$rawbkb"
		row "profdiff diff" "$size.diff" "$size.zcat2" "$size.pdiff" "$rawkb"
		row "profdiff check-significance" "$size.check" "$size.zcat2" "$size.pdiff" "$rawkb"
		if [ -n "${BENCH_PROFDIFF_PAR:-}" ]; then
			row "profdiff diff, sides in parallel" "$size.pdiffpar" "$size.zcat2" "$size.pdiff" "$rawkb"
		fi
		if [ "$pp" = 1 ]; then
			row "pprof -top" "$size.ptop" "$size.zcat1" "" "$rawbkb"
			row "pprof -top -diff_base" "$size.pdiff" "$size.zcat2" "" "$rawkb"
			echo "| $size | | pprof -diff_base ÷ profdiff diff: time, memory | $(ratio "$(wall "$size.pdiff")" "$(wall "$size.diff")")× | | | $(ratio "$(rss "$size.pdiff")" "$(rss "$size.diff")")× | |"
		elif [ "$have_go" = 1 ]; then
			echo "| $size | | pprof skipped (BENCH_PPROF_LARGE=1 runs it) | | | | | |"
		else
			echo "| $size | | pprof skipped: go is not installed | | | | | |"
		fi
	} >> "$TMP/results.md"
done

if [ -f bench/FINDINGS.md ]; then
	echo >> "$TMP/results.md"
	cat bench/FINDINGS.md >> "$TMP/results.md"
fi
mv "$TMP/results.md" "$RESULTS"
cat "$RESULTS"

#!/bin/sh
# bench/run.sh: time profdiff against the decompression floor (zcat) and
# go tool pprof on the pairs under bench/out/, and write bench/RESULTS.md.
# Run by `make bench` (bench/bench.mk), which builds the tools and the
# profiles first.  Every step runs BENCH_RUNS times (default 5), in
# rounds of one run of each, and the median is reported; go tool pprof
# runs once on the medium pair (it takes minutes) and on the large pair
# only with BENCH_PPROF_LARGE=1.
# Times and peak RSS come from bench/rusage.c (fork, exec, wait4).
# BENCH_BASELINE=path (say, a build of the commit a branch started
# from) times every profdiff step once more with that binary, in the
# same rounds, next to the current one, and RESULTS.md gets a table of
# the two side by side with their ratio.  (BENCH_PROFDIFF_PAR, which
# timed `diff` alone with a second binary, is read as BENCH_BASELINE.)
# BENCH_PPROF=0 skips go tool pprof.  BENCH_MANY=N (N small profiles per
# side under bench/out/many/, made by bench.mk) times top and diff on
# BENCH_MANY_STEPS profiles per side, BENCH_MANY_RUNS times each
# (default 3); BENCH_MANY=0 skips it.  With gnuplot installed, the
# times are also drawn against the input size into bench/scaling.svg
# (BENCH_PLOT=0 skips it).
set -eu

BUILD=${BUILD:-build}
SIZES=${BENCH_SIZES:-small medium large}
RUNS=${BENCH_RUNS:-5}
PPROF_RUNS=${BENCH_PPROF_RUNS:-1}
OUT=bench/out
RESULTS=${BENCH_RESULTS:-bench/RESULTS.md}
PROFDIFF=$BUILD/profdiff
BASELINE=${BENCH_BASELINE:-${BENCH_PROFDIFF_PAR:-}}
RUSAGE=$BUILD/bench/rusage
MANY=${BENCH_MANY:-0}
MANY_STEPS=${BENCH_MANY_STEPS:-25 50 100 200}
MANY_RUNS=${BENCH_MANY_RUNS:-3}
PLOT=${BENCH_PLOT:-1}
PLOT_OUT=${BENCH_PLOT_OUT:-bench/scaling.svg}
TMP=$OUT/run.tmp.$$
mkdir -p "$TMP" "$(dirname "$RESULTS")"
trap 'rm -rf "$TMP"' EXIT
# One line per measured point of the plot: series, input MB, wall s.
: > "$TMP/plot.dat"
# The rows of the baseline's table, when there is a baseline.
: > "$TMP/baseline.md"
if [ -n "$BASELINE" ] && [ ! -x "$BASELINE" ]; then
	echo "bench: BENCH_BASELINE=$BASELINE is not an executable" >&2
	exit 1
fi

# median FILE: median wall time and median peak RSS (KB) of the lines
# "wall maxrss status" in FILE.
median() {
	w=$(cut -d' ' -f1 "$1" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	m=$(cut -d' ' -f2 "$1" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	echo "$w $m"
}

# run1 NAME CMD...: run CMD once (stdout to /dev/null), adding "wall rss"
# to $TMP/NAME.raw.  Exit status 0 and 1 are results.
run1() {
	name=$1; shift
	st=0
	"$RUSAGE" -o "$TMP/$name.raw" "$@" > /dev/null 2> "$TMP/$name.err" || st=$?
	if [ "$st" -gt 1 ]; then
		echo "bench: $name failed with status $st:" >&2
		cat "$TMP/$name.err" >&2
		exit 1
	fi
}

# measure NAME RUNS CMD...: run CMD RUNS times in a row, leave "wall rss"
# in $TMP/NAME.med.  For go tool pprof, whose runs take minutes.
measure() {
	name=$1; n=$2; shift 2
	: > "$TMP/$name.raw"
	i=0
	while [ "$i" -lt "$n" ]; do
		run1 "$name" "$@"
		i=$((i + 1))
	done
	median "$TMP/$name.raw" > "$TMP/$name.med"
}

# rounds RUNS PREFIX STEP...: RUNS rounds, each running every step once,
# in turn, then "wall rss" in each $TMP/PREFIX.NAME.med.  A step is its
# NAME, a space and a command for sh -c.  Run in turns, the floor and
# profdiff share whatever the machine does meanwhile; run in blocks
# (five runs of one step, then five of the next), the ratios drifted on
# a machine that slowed down by a third over a few minutes.  Every
# other round runs the steps in the reverse order, so that no step is
# always the one after another (a baseline and the current binary
# take the first place in turn).
rounds() {
	n=$1; prefix=$2; shift 2
	for step in "$@"; do : > "$TMP/$prefix.${step%% *}.raw"; done
	i=0
	while [ "$i" -lt "$n" ]; do
		if [ $((i % 2)) = 0 ]; then
			for step in "$@"; do
				run1 "$prefix.${step%% *}" sh -c "${step#* }"
			done
		else
			j=$#
			while [ "$j" -gt 0 ]; do
				eval "step=\${$j}"
				run1 "$prefix.${step%% *}" sh -c "${step#* }"
				j=$((j - 1))
			done
		fi
		i=$((i + 1))
	done
	for step in "$@"; do
		median "$TMP/$prefix.${step%% *}.raw" > "$TMP/$prefix.${step%% *}.med"
	done
}

# rounds_steps RUNS PREFIX: rounds() of the steps in $TMP/steps, one a
# line (the paths in them have no newline).
rounds_steps() {
	rs_n=$1; rs_p=$2
	set -f
	IFS='
'
	# shellcheck disable=SC2046
	set -- $(cat "$TMP/steps")
	unset IFS
	set +f
	rounds "$rs_n" "$rs_p" "$@"
}

wall() { cut -d' ' -f1 "$TMP/$1.med"; }
rss() { cut -d' ' -f2 "$TMP/$1.med"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

# base_steps NAME CMD...: "NAME exec PROFDIFF CMD..." and, with a
# baseline, "NAME.base exec BASELINE CMD..." right after it, for
# rounds(); CMD is one string.
base_steps() {
	set -- "$1 exec $PROFDIFF $2" ${BASELINE:+"$1.base exec $BASELINE $2"}
	for s in "$@"; do printf '%s\n' "$s"; done
}

# base_row LABEL1 LABEL2 NAME: a row of the baseline's table for step
# NAME (its .raw files hold one line per round, in the same order):
# both medians, the current one's ratio to the baseline's, the median
# of the ratios of each round, how many rounds the current binary was
# faster in, and both peaks.
base_row() {
	[ -n "$BASELINE" ] || return 0
	cur=$TMP/$3.raw; old=$TMP/$3.base.raw
	per=$(paste -d' ' "$cur" "$old" | awk '{ print $1 / $4 }' |
	    sort -n | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] }')
	won=$(paste -d' ' "$cur" "$old" | awk '$1 < $4 { n++ } END { print n + 0 }')
	nr=$(wc -l < "$cur")
	echo "| $1 | $2 | $(wall "$3.base") | $(wall "$3") | $(awk -v a="$(wall "$3")" -v b="$(wall "$3.base")" 'BEGIN { printf "%.3f", a / b }') | $per | $won of $nr | $(mb "$(rss "$3.base")") | $(mb "$(rss "$3")") |" >> "$TMP/baseline.md"
}

# describe BINARY: the commit of the worktree a binary was built in.
describe() {
	d=$(dirname "$1")
	if git -C "$d" log -1 --format='%h %s' 2>/dev/null; then
		git -C "$d" diff --quiet HEAD 2>/dev/null ||
		    echo "with changes not committed"
	else
		echo "not in a git worktree"
	fi | paste -sd';' - | sed 's/;/; /'
}

have_go=0
if [ "${BENCH_PPROF:-1}" = 1 ] && command -v go > /dev/null 2>&1 &&
    go tool pprof -h > /dev/null 2>&1; then
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
	echo "The runs go in rounds, each running zcat and the profdiff steps"
	echo "once in turn, so that the floor and profdiff share whatever the"
	echo "machine does meanwhile."
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

	# Each profdiff step, and the baseline's run of it next to it.
	{
		echo "zcat2 zcat $G $B > /dev/null"
		echo "zcat1 zcat $B > /dev/null"
		base_steps top "top $B"
		base_steps diff "diff $G $B"
		base_steps check "check-significance $G $B"
	} > "$TMP/steps"
	rounds_steps "$RUNS" "$size"

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
		if [ "$pp" = 1 ]; then
			row "pprof -top" "$size.ptop" "$size.zcat1" "" "$rawbkb"
			row "pprof -top -diff_base" "$size.pdiff" "$size.zcat2" "" "$rawkb"
			echo "| $size | | pprof -diff_base ÷ profdiff diff: time, memory | $(ratio "$(wall "$size.pdiff")" "$(wall "$size.diff")")× | | | $(ratio "$(rss "$size.pdiff")" "$(rss "$size.diff")")× | |"
		elif [ "$have_go" = 1 ]; then
			echo "| $size | | pprof skipped (BENCH_PPROF_LARGE=1 runs it) | | | | | |"
		elif [ "${BENCH_PPROF:-1}" != 1 ]; then
			echo "| $size | | pprof skipped (BENCH_PPROF=0) | | | | | |"
		else
			echo "| $size | | pprof skipped: go is not installed | | | | | |"
		fi
	} >> "$TMP/results.md"
	base_row "$size" "profdiff top" "$size.top"
	base_row "$size" "profdiff diff" "$size.diff"
	base_row "$size" "profdiff check-significance" "$size.check"
	rawbmb=$(awk -v b="$rawb" 'BEGIN { printf "%.2f", b / 1048576 }')
	{
		echo "zcat $rawmb $(wall "$size.zcat2")"
		echo "top $rawbmb $(wall "$size.top")"
		echo "diff $rawmb $(wall "$size.diff")"
	} >> "$TMP/plot.dat"
done

# Many profiles per side, merged: top on the bad ones, diff of the good
# ones against the bad ones.
if [ "$MANY" -gt 0 ]; then
	{
		echo
		echo "Merging many profiles: N profiles per side, each a window of the"
		echo "same program (the small pair's sizes, \`genprof -s 1 -S i\`)."
		echo "Medians of $MANY_RUNS runs, in rounds.  The floor of top is \`zcat\` of its N"
		echo "files, that of diff \`zcat\` of all 2N.  With two profiles or more"
		echo "per side, diff also keeps one aggregate per profile for the test"
		echo "between replicates."
		echo
		echo "    profdiff top B1 ... BN"
		echo "    profdiff diff G1 ... GN -- B1 ... BN"
		echo
		echo "| N per side | input (gz / raw MB) | step | wall s | × floor | ms per profile | peak RSS MB | RSS ÷ raw input |"
		echo "|---:|---|---|---:|---:|---:|---:|---:|"
	} >> "$TMP/results.md"
	for k in $MANY_STEPS; do
		[ "$k" -le "$MANY" ] || continue
		G=""; B=""
		i=1
		while [ "$i" -le "$k" ]; do
			n=$(printf %03d "$i")
			G="$G $OUT/many/good-$n.pb.gz"
			B="$B $OUT/many/bad-$n.pb.gz"
			i=$((i + 1))
		done
		echo "bench: $k profiles per side" >&2
		# shellcheck disable=SC2086
		{
			gzmb=$(ls -l $G $B | awk '{ s += $5 } END { printf "%.1f", s / 1048576 }')
			rawg=$(zcat $G | wc -c)
			rawb=$(zcat $B | wc -c)
			{
				echo "zcat2 zcat $G $B > /dev/null"
				echo "zcat1 zcat $B > /dev/null"
				base_steps top "top $B"
				base_steps diff "diff $G -- $B"
			} > "$TMP/steps"
			rounds_steps "$MANY_RUNS" "many$k"
		}
		rawmb=$(awk -v a="$rawg" -v b="$rawb" 'BEGIN { printf "%.1f", (a + b) / 1048576 }')
		rawbmb=$(awk -v b="$rawb" 'BEGIN { printf "%.1f", b / 1048576 }')
		mrow() {	# label name floor rawkb nprofiles
			w=$(wall "$2"); r=$(rss "$2")
			per=$(awk -v w="$w" -v n="$5" 'BEGIN { printf "%.1f", 1000 * w / n }')
			echo "| $k | $gzmb / $rawmb | $1 | $w | $(ratio "$w" "$(wall "$3")") | $per | $(mb "$r") | $(ratio "$r" "$4") |"
		}
		{
			mrow "zcat all" "many$k.zcat2" "many$k.zcat2" $(((rawg + rawb) / 1024)) $((2 * k))
			mrow "zcat bad" "many$k.zcat1" "many$k.zcat1" $((rawb / 1024)) "$k"
			mrow "profdiff top" "many$k.top" "many$k.zcat1" $((rawb / 1024)) "$k"
			mrow "profdiff diff" "many$k.diff" "many$k.zcat2" $(((rawg + rawb) / 1024)) $((2 * k))
		} >> "$TMP/results.md"
		base_row "$k per side" "profdiff top" "many$k.top"
		base_row "$k per side" "profdiff diff" "many$k.diff"
		{
			echo "zcat-many $rawmb $(wall "many$k.zcat2")"
			echo "top-many $rawbmb $(wall "many$k.top")"
			echo "diff-many $rawmb $(wall "many$k.diff")"
		} >> "$TMP/plot.dat"
	done
fi

# The baseline against the current binary, step by step.
if [ -n "$BASELINE" ]; then
	{
		echo
		echo "Baseline and current, in the same rounds (each step run by"
		echo "both, one after the other, the order turned every other round):"
		echo
		echo "- baseline: \`$BASELINE\` ($(describe "$BASELINE"))"
		echo "- current: \`$PROFDIFF\` ($(describe "$PROFDIFF"))"
		echo
		echo "The ratio is current ÷ baseline of the median wall times; per"
		echo "round, the median of each round's ratio.  Over 1 is slower."
		echo
		echo "| pair | step | baseline wall s | current wall s | ratio | per round | current faster | baseline RSS MB | current RSS MB |"
		echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
		cat "$TMP/baseline.md"
		awk -F' [|] ' '{ r = $5 + 0; if (r > m) { m = r; w = $1 ", " $2 } }
		    END { sub(/^[|] /, "", w); printf "\nSlowest step against the baseline: %s, %.3f×.\n", w, m }' \
		    "$TMP/baseline.md"
	} >> "$TMP/results.md"
fi

# The plot: wall time against inflated input, log-log, so that linear
# scaling is a line of slope 1 and the distance to zcat is the ratio.
if [ "$PLOT" = 1 ]; then
	echo >> "$TMP/results.md"
	if command -v gnuplot > /dev/null 2>&1; then
		# series, then its title and style; series without points
		# (BENCH_MANY=0) are left out.
		plots=""
		while IFS="|" read -r series style title; do
			awk -v s="$series" '$1 == s { print $2, $3 }' "$TMP/plot.dat" |
			    sort -n > "$TMP/plot-$series.dat"
			[ -s "$TMP/plot-$series.dat" ] || continue
			plots="$plots${plots:+, }\"$TMP/plot-$series.dat\" with linespoints $style title \"$title\""
		done <<-EOF
		zcat|lw 2 pt 7|zcat, pairs (the floor)
		top|lw 2 pt 5|profdiff top, one profile
		diff|lw 2 pt 9|profdiff diff, pairs
		zcat-many|lw 1 dt 2 pt 6|zcat, N profiles per side
		top-many|lw 1 dt 2 pt 4|profdiff top, N profiles
		diff-many|lw 1 dt 2 pt 8|profdiff diff, N per side
		EOF
		{
			echo 'set terminal svg size 800,520 dynamic font "sans,12" background "#ffffff"'
			echo "set output \"$PLOT_OUT\""
			echo 'set title "profdiff: wall time against input size (bench/run.sh)"'
			echo 'set xlabel "inflated input (MB, log scale)"'
			echo 'set ylabel "wall time (s, log scale)"'
			echo 'set logscale xy'
			echo 'set grid'
			echo 'set key top left'
			echo "plot $plots"
		} > "$TMP/plot.gp"
		if gnuplot "$TMP/plot.gp" 2> "$TMP/plot.err"; then
			link=$PLOT_OUT
			[ "$(dirname "$PLOT_OUT")" = "$(dirname "$RESULTS")" ] &&
			    link=$(basename "$PLOT_OUT")
			echo "Plot of these times against the input size: [$(basename "$PLOT_OUT")]($link)." >> "$TMP/results.md"
		else
			echo "Plot skipped: gnuplot failed: $(head -1 "$TMP/plot.err")" >> "$TMP/results.md"
		fi
	else
		echo "Plot skipped: gnuplot is not installed (Debian: apt-get install gnuplot-nox)." >> "$TMP/results.md"
	fi
fi

if [ -f bench/FINDINGS.md ]; then
	echo >> "$TMP/results.md"
	cat bench/FINDINGS.md >> "$TMP/results.md"
fi
mv "$TMP/results.md" "$RESULTS"
cat "$RESULTS"

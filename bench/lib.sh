# bench/lib.sh: what deep.sh, perfscript.sh, spans.sh and symbolize.sh
# share, sourced after their `set -eu`:
#
#	. "$(dirname "$0")/lib.sh"
#
# It sets BENCH (the script's name, for its messages), BUILD (default
# build), PD and RUSAGE (the binaries under it) and TMP (a scratch
# folder, removed on exit); the script sets RUNS before it calls
# bench_rounds or bench_head.  POSIX sh, like the scripts.  run.sh and
# series.sh keep their own loops: run.sh runs steps in turns with a
# per-step error file, and series.sh keeps the wall time and the RSS of
# one run, the median by wall time, not the median of each.

BENCH=$(basename "$0" .sh)
BUILD=${BUILD:-build}
PD=$BUILD/profdiff
RUSAGE=$BUILD/bench/rusage
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# bench_run NAME CMD...: one run of CMD, its output thrown away, its
# "wall rss status" line (bench/rusage.c) added to $TMP/NAME.  An exit
# status above BENCH_OK (default 0; deep.sh sets 1, which diff and
# series give as a result) stops the script with CMD's errors.
bench_run() {
	br_name=$1
	shift
	br_st=0
	"$RUSAGE" -o "$TMP/$br_name" "$@" > /dev/null 2> "$TMP/err" ||
	    br_st=$?
	if [ "$br_st" -gt "${BENCH_OK:-0}" ]; then
		echo "$BENCH: $br_name failed with status $br_st:" >&2
		cat "$TMP/err" >&2
		exit 1
	fi
}

# bench_rounds FN NAME...: empty $TMP/NAME for each NAME, then call FN
# RUNS times with the round's number (0 first).  FN runs each command
# once (bench_run), so that the commands take turns and share whatever
# the machine does meanwhile.
bench_rounds() {
	bro_fn=$1
	shift
	for bro_name in "$@"; do
		: > "$TMP/$bro_name"
	done
	bro_r=0
	while [ "$bro_r" -lt "$RUNS" ]; do
		"$bro_fn" "$bro_r"
		bro_r=$((bro_r + 1))
	done
}

# bench_median NAME: the median wall time (s) and the median peak RSS
# (KB) of the runs in $TMP/NAME, each the median of its own column.
bench_median() {
	echo "$(bench_mid 1 "$1") $(bench_mid 2 "$1")"
}

bench_mid() {
	cut -d' ' -f"$1" "$TMP/$2" | sort -n | awk '{ a[NR] = $1 }
	    END { print a[int((NR + 1) / 2)] }'
}

# bench_head TITLE: the first lines of a results page: its title, what
# made it, on what machine and when, the runs, and the load the machine
# was under, which inflates wall times.
bench_head() {
	echo "# $1"
	echo
	echo "Made by \`bench/$BENCH.sh\` (\`make bench\`) on $(uname -m)," \
	    "$(nproc) cores, $(date -u +%Y-%m-%d); the median of $RUNS runs."
	echo "The load average when it started was" \
	    "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)."
}

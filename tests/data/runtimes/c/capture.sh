#!/bin/sh
# Capture the C (gperftools) CPU profiles of this folder and write
# MANIFEST.tsv: runs of quotesvc.c with no change and with one known
# change injected into named functions, one process at a time, each with
# its own seed.  It needs gcc, Debian's google-perftools and
# libgoogle-perftools-dev (libprofiler), libc6-dbg (glibc's symbols) and
# golang-go (go tool pprof converts the profiles); it took 17 minutes on
# a shared, loaded 2-core machine.
#
#	sh tests/data/runtimes/c/capture.sh [OUTDIR]
#
# OUTDIR defaults to this folder; the .pb.gz files in it are replaced.
#
# The script first measures how many requests a second the program serves
# unpaced (the median of three 2-second -calibrate runs) and paces every
# run at RATE_SHARE (default 0.5) of that, unless RATE is set.  Every run
# is a process of 6 seconds, profiled from start to end by gperftools at
# CPUPROFILE_FREQUENCY=250 (FREQ); the saturated runs are not paced
# (-rate 0).  250 is the most this machine gives: gperftools' timer
# (ITIMER_PROF) counts CPU time, which Linux checks once per tick, and
# this kernel ticks 250 times a second (CONFIG_HZ=250), so FREQ=1000 still
# gives 250 samples a second of CPU, each written as 1 ms of it instead of 4.
# gperftools writes a legacy profile of addresses; the script converts
# each into a symbolized pprof protobuf with
#
#	PPROF_BINARY_PATH=DIR go tool pprof -proto BINARY RAW > FILE.pb.gz
#
# where DIR holds glibc's detached debug files (from libc6-dbg) under the
# names of the libraries they belong to: go tool pprof reads symbols from
# a file's own symbol table, which Debian strips from libc.so.6 and
# libm.so.6, and finds them there.  Only the .pb.gz files are kept.
#
# The variants are interleaved round by round, so that a drift in the
# machine's load falls on all of them alike.  Every run is started in a
# session of its own whose autogroup has the nice value PRIORITY (default
# -12; see prio below), after waiting (at most WAIT seconds, default 3)
# for a second in which IDLE hundredths of a core (default 150) were
# idle; and a run is tried again (at most TRIES times in all, default 3;
# the last try is kept) when it was held back by other work: a paced run
# that served fewer than 97% of the requests its rate allows in its window
# (as the program measured it, less 50 ms), an unpaced one sampled for less
# than 90% of its window.  RUNS.tsv records every
# kept run: its tries, the load average before it, its requests, samples
# and CPU utilization.
set -eu
WAIT=${WAIT:-3}
IDLE=${IDLE:-150}
PRIORITY=${PRIORITY--12}
TRIES=${TRIES:-3}
ROUNDS=${ROUNDS:-5}
RATE_SHARE=${RATE_SHARE:-0.5}
FREQ=${FREQ:-250}
SECONDS_=6

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/capture-c.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

# -fno-reorder-functions keeps main out of .text.startup: otherwise the
# compile unit's code is two ranges and go tool pprof leaves main
# unnamed.
gcc -O2 -g -fno-reorder-functions -Wall -o "$tmp/quotesvc" \
    "$here/quotesvc.c" -lprofiler -lm

# The debug files of the shared libraries the program runs with.
mkdir "$tmp/debug"
for lib in $(ldd "$tmp/quotesvc" | awk '$3 ~ /^\// && $1 ~ /^lib(c|m)\.so/ { print $3 }'); do
	id=$(readelf -n "$lib" | sed -n 's/.*Build ID: //p')
	dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
	if [ ! -f "$dbg" ]; then
		echo "capture: no debug file for $lib ($dbg): apt-get install libc6-dbg" >&2
		exit 1
	fi
	ln -s "$dbg" "$tmp/debug/$(basename "$lib")"
done
rm -f "$out"/*.pb.gz

# idle_cores: how many hundredths of a core were idle over the last second.
idle_cores() {
	a=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	sleep 1
	b=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	echo "$a $b" | awk -v n="$(nproc)" '{ printf "%d\n", 100 * n * ($3 - $1) / ($4 - $2) }'
}

wait_quiet() {
	w=0
	while [ "$(idle_cores)" -lt "$IDLE" ] && [ $w -lt "$WAIT" ]; do
		w=$((w + 1))
	done
}

# prio CMD...: runs CMD in a session of its own whose autogroup has the
# nice value PRIORITY.  Linux shares the cores between sessions first
# (sched_autogroup), so on a machine shared with other sessions a
# process's own nice value does not get it the cores it asks for, and its
# profile is distorted; the autogroup's does.  Lowering it needs root;
# PRIORITY= (empty) runs CMD as it is.
prio() {
	if [ -n "$PRIORITY" ] && [ -e /proc/self/autogroup ]; then
		setsid -w sh -c 'echo "$0" 2>/dev/null >/proc/$$/autogroup; exec "$@"' \
		    "$PRIORITY" "$@"
	else
		"$@"
	fi
}

if [ -z "${RATE:-}" ]; then
	for i in 1 2 3; do
		wait_quiet
		prio "$tmp/quotesvc" -calibrate -duration 2
	done | sort -n | sed -n 2p >"$tmp/cal"
	RATE=$(awk -v s="$RATE_SHARE" '{ printf "%d\n", $1 * s }' "$tmp/cal")
	echo "capture: the program serves $(cat "$tmp/cal") requests a second;" \
	    "pacing it at $RATE" >&2
fi

# The function(s) each change enters, as profdiff names them: regress
# and improve columns of the manifest.
regress() {
	case $1 in
	none)		echo - ;;
	new)		echo audit_trail ;;
	leaf25|leaf10)	echo apply_discounts ;;
	spread)		echo group_facets ;;
	helper)		echo hash_key ;;
	caller)		echo price_bundle ;;
	recursion)	echo walk_category ;;
	two)		echo 'match_terms;escape_text' ;;
	mixed)		echo score_features ;;
	saturated)	echo build_snippet ;;
	alloc)		echo search_catalog ;;
	esac
}
improve() {
	case $1 in
	mixed)	echo format_price ;;
	*)	echo - ;;
	esac
}

manifest=$out/MANIFEST.tsv
printf 'file\truntime\tkind\trun\tseed\tvariant\tregress\timprove\tindexes\tseconds\tsamples\n' >"$tmp/manifest"
printf 'file\trun\tseed\tvariant\ttries\tload1\trate\trequests\tseconds\tsamples\tutilization\n' >"$tmp/runs"
seed=4000

# try FILE VARIANT: one process of the variant, its profile converted into
# FILE; sets requests, secs, samples and util (the CPU seconds sampled per
# second of window).
try() {
	rate=$RATE
	[ "$2" = saturated ] && rate=0
	wait_quiet
	load1=$(cut -d' ' -f1 /proc/loadavg)
	rm -f "$tmp/raw.prof"
	prio env CPUPROFILE_FREQUENCY=$FREQ "$tmp/quotesvc" -seed "$seed" -inject "$2" \
	    -duration $SECONDS_ -rate "$rate" -cpuprofile "$tmp/raw.prof" \
	    2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	prio env PPROF_BINARY_PATH="$tmp/debug" go tool pprof -proto \
	    "$tmp/quotesvc" "$tmp/raw.prof" >"$out/$1" 2>"$tmp/conv" ||
	    { cat "$tmp/conv" >&2; exit 1; }
	requests=$(sed -n 's/.*: \([0-9]*\) requests in .*/\1/p' "$tmp/err")
	secs=$(sed -n 's/.* requests in \([0-9.]*\)s$/\1/p' "$tmp/err")
	# The samples: the sum of the first value (samples/count) of every
	# sample, as go tool pprof -raw prints them.
	samples=$(go tool pprof -raw "$out/$1" 2>/dev/null | awk '
		/^Samples:$/ { s = 1; getline; next }
		/^Locations$/ { s = 0 }
		s && /:/ { n += $1 }
		END { print n + 0 }')
	util=$(awk -v n="$samples" -v s="$secs" -v f="$FREQ" \
	    'BEGIN { printf "%.2f\n", n / f / s }')
}

# good: whether the last try ran undisturbed: a paced run served 97% of
# the requests its rate allows in its window (less 50 ms), an unpaced one
# was sampled for 90% of its window.
good() {
	awk -v q="$requests" -v r="$rate" -v s="$secs" -v u="$util" 'BEGIN {
		exit !(r == 0 ? u >= 0.9 : q >= 0.97 * r * (s - 0.05))
	}'
}

# capture VARIANT N: the Nth process of the variant, tried up to TRIES
# times until it runs undisturbed; the last try is kept.
capture() {
	v=$1
	file=$(printf 'cpu-%s-%02d.pb.gz' "$v" "$2")
	seed=$((seed + 1))
	tries=0
	while :; do
		tries=$((tries + 1))
		try "$file" "$v"
		echo "capture: $file: seed $seed, try $tries: $requests requests" \
		    "in ${secs}s, $samples samples, load $load1" >&2
		if good || [ $tries -ge "$TRIES" ]; then
			break
		fi
	done
	run=$(printf r%02d "$2")
	printf '%s\tc-gperftools\tcpu\t%s\t%s\t%s\t%s\t%s\tsamples,cpu\t%s\t%s\n' \
	    "$file" "$run" "$seed" "$v" "$(regress "$v")" "$(improve "$v")" \
	    "$secs" "$samples" >>"$tmp/manifest"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "$run" \
	    "$seed" "$v" "$tries" "$load1" "$rate" "$requests" "$secs" \
	    "$samples" "$util" >>"$tmp/runs"
}

capture none 1
nn=1
i=1
while [ $i -le "$ROUNDS" ]; do
	for v in new leaf25 leaf10 spread helper caller; do
		capture $v $i
	done
	nn=$((nn + 1))
	capture none $nn
	for v in recursion two mixed saturated alloc; do
		capture $v $i
	done
	nn=$((nn + 1))
	capture none $nn
	i=$((i + 1))
done
nn=$((nn + 1))
capture none $nn
mv "$tmp/manifest" "$manifest"
mv "$tmp/runs" "$out/RUNS.tsv"
echo "capture: $(($(wc -l <"$manifest") - 1)) profiles," \
    "$(du -cb "$out"/*.pb.gz | tail -1 | cut -f1) bytes" >&2

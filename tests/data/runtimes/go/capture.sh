#!/bin/sh
# Capture the Go CPU profiles of this folder and write MANIFEST.tsv: runs
# of quotesvc (main.go, standard library only) with no change and with one
# known change injected into named functions, one process at a time, each
# with its own seed.  It needs Debian's golang-go (go build and go tool
# pprof); it took 9 minutes on a shared 2-core machine.
#
#	sh tests/data/runtimes/go/capture.sh [OUTDIR]
#
# OUTDIR defaults to this folder; the .pb.gz files in it are replaced.
#
# The script first measures how many requests a second one unpaced
# worker serves (the median of three 2-second -calibrate runs) and paces
# each of the two workers of every run at RATE_SHARE (default 0.55) of
# that, unless RATE is set.  Every run is a process of 6 seconds
# (GOMAXPROCS=2), profiled from start to end at HZ samples a second of CPU
# (quotesvc -hz; default 250, runtime/pprof's own rate is 100: Linux fires
# a CPU-time timer at most once per tick, and this kernel ticks 250 times a
# second, so a higher HZ gives no more samples and a period that
# undercounts their time); the saturated runs use one
# unpaced worker instead (-workers 1 -rate 0).  The variants are
# interleaved round by round, so that a drift in the machine's load falls
# on all of them alike.
#
# Go profiles taken while other processes compete for the cores are
# distorted (the README says how), so every run is started in a session
# of its own whose autogroup has the nice value PRIORITY (default -12;
# see prio below), after waiting (at most WAIT seconds, default 3) for a
# second in which IDLE hundredths of a core (default 150, of the 200 of
# two cores) were idle; and a run is tried again (at most TRIES times in
# all, default 3; the last try is kept) when runtime.asyncPreempt has
# PREEMPT_MAX percent (default 8) or more of its samples, or when a paced
# run served fewer than 97% of the requests its rate allows in its window
# (as the program measured it, less 50 ms).  RUNS.tsv
# records every kept run: its tries, the load average before it, its
# requests, samples, CPU utilization and runtime.asyncPreempt's share.
set -eu
WAIT=${WAIT:-3}
IDLE=${IDLE:-150}
PRIORITY=${PRIORITY--12}
TRIES=${TRIES:-3}
PREEMPT_MAX=${PREEMPT_MAX:-8}
ROUNDS=${ROUNDS:-5}
RATE_SHARE=${RATE_SHARE:-0.55}
HZ=${HZ:-250}
SECONDS_=6

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/capture-go.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

(cd "$here" && go build -trimpath -o "$tmp/quotesvc" .)
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
		prio env GOMAXPROCS=2 "$tmp/quotesvc" -calibrate -duration 2s
	done | sort -n | sed -n 2p >"$tmp/cal"
	RATE=$(awk -v s="$RATE_SHARE" '{ printf "%d\n", $1 * s }' "$tmp/cal")
	echo "capture: one worker serves $(cat "$tmp/cal") requests a second;" \
	    "pacing each worker at $RATE" >&2
fi

# The function(s) each change enters, as profdiff names them: regress
# and improve columns of the manifest.
regress() {
	case $1 in
	none)		echo - ;;
	new)		echo main.auditTrail ;;
	leaf25|leaf10)	echo main.applyDiscounts ;;
	spread)		echo main.groupFacets ;;
	helper)		echo main.hashKey ;;
	caller)		echo main.priceBundle ;;
	recursion)	echo main.walkCategory ;;
	two)		echo 'main.matchTerms;main.escapeText' ;;
	mixed)		echo main.scoreFeatures ;;
	saturated)	echo main.buildSnippet ;;
	alloc)		echo main.searchCatalog ;;
	esac
}
improve() {
	case $1 in
	mixed)	echo main.formatPrice ;;
	*)	echo - ;;
	esac
}

manifest=$out/MANIFEST.tsv
printf 'file\truntime\tkind\trun\tseed\tvariant\tregress\timprove\tindexes\tseconds\tsamples\n' >"$tmp/manifest"
printf 'file\trun\tseed\tvariant\ttries\tload1\tworkers\trate\trequests\tseconds\tsamples\tutilization\tasync_preempt\n' >"$tmp/runs"
seed=3000

# try FILE VARIANT: one process of the variant, profiled into FILE; sets
# requests, secs, samples, util (the CPU seconds sampled per second of
# window) and preempt (runtime.asyncPreempt's flat share, in percent).
try() {
	if [ "$2" = saturated ]; then
		workers=1 rate=0
	else
		workers=2 rate=$RATE
	fi
	wait_quiet
	load1=$(cut -d' ' -f1 /proc/loadavg)
	prio env GOMAXPROCS=2 "$tmp/quotesvc" -seed "$seed" -inject "$2" \
	    -duration ${SECONDS_}s -cpuprofile "$out/$1" -hz "$HZ" \
	    -workers $workers -rate $rate 2>"$tmp/err" ||
	    { cat "$tmp/err" >&2; exit 1; }
	requests=$(sed -n 's/.*: \([0-9]*\) requests in .*/\1/p' "$tmp/err")
	secs=$(sed -n 's/.* requests in \([0-9.]*\)s$/\1/p' "$tmp/err")
	# The samples: the sum of the first value (samples/count) of every
	# sample, as go tool pprof -raw prints them.
	samples=$(go tool pprof -raw "$out/$1" 2>/dev/null | awk '
		/^Samples:$/ { s = 1; getline; next }
		/^Locations$/ { s = 0 }
		s && /:/ { n += $1 }
		END { print n + 0 }')
	util=$(awk -v n="$samples" -v s="$secs" -v f="$HZ" \
	    'BEGIN { printf "%.2f\n", n / f / s }')
	preempt=$(go tool pprof -top -nodecount=100000 "$out/$1" 2>/dev/null |
	    awk '$6 == "runtime.asyncPreempt" { sub(/%/, "", $2); p = $2 }
		END { printf "%.1f\n", p + 0 }')
}

# good: whether the last try ran undisturbed: runtime.asyncPreempt at
# under PREEMPT_MAX percent of the samples, and a paced run keeping to its
# schedule (97% of the requests its rate allows in its window, less 50 ms,
# served).
good() {
	awk -v p="$preempt" -v max="$PREEMPT_MAX" -v q="$requests" \
	    -v w=$workers -v r=$rate -v s="$secs" 'BEGIN {
		exit !(p < max && (r == 0 || q >= 0.97 * w * r * (s - 0.05)))
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
		    "in ${secs}s, $samples samples, asyncPreempt $preempt%," \
		    "load $load1" >&2
		if good || [ $tries -ge "$TRIES" ]; then
			break
		fi
	done
	run=$(printf r%02d "$2")
	printf '%s\tgo\tcpu\t%s\t%s\t%s\t%s\t%s\tcpu,samples\t%s\t%s\n' "$file" \
	    "$run" "$seed" "$v" "$(regress "$v")" "$(improve "$v")" "$secs" \
	    "$samples" >>"$tmp/manifest"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$file" \
	    "$run" "$seed" "$v" "$tries" "$load1" "$workers" "$rate" \
	    "$requests" "$secs" "$samples" "$util" "$preempt" >>"$tmp/runs"
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

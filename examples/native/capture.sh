#!/bin/sh
# Capture the profiles of examples/native/captures from the committed
# prog (build.sh builds it), one process a run, each with its own seed,
# and write captures/MANIFEST.tsv for tests/native.sh and
# captures/RUNS.tsv (the load average before each run):
#
#	perf-SHAPE-NN.data.gz  perf record -F 999 -e cpu-clock -g, gzipped
#	                       (profdiff inflates it, then runs perf script)
#	perf-SHAPE-NN.txt.gz   that perf.data through perf script with the
#	                       fields profdiff asks perf for, gzipped
#	gperf-SHAPE-NN.prof.gz gperftools' legacy CPU profile of another run
#	                       (CPUPROFILE_FREQUENCY=250, LD_PRELOAD of
#	                       libprofiler.so), addresses only, gzipped
#	gperf-SHAPE-NN.pb.gz   that profile symbolized by go tool pprof
#	                       -proto prog
#
# SHAPE is none (RUNS_NONE runs, default 12) or new, leaf25, libc
# (RUNS_CHANGED each, default 5); the shapes are interleaved round by
# round, so that a drift in the machine's load falls on all alike.
# REQUESTS (default 6000) sets each run's work, about 1.5 s of CPU.
# Needs perf (linux-perf) with kernel.perf_event_paranoid at most 2,
# google-perftools and libgoogle-perftools-dev, and golang-go.
#
#	sh examples/native/capture.sh
set -eu
RUNS_NONE=${RUNS_NONE:-12}
RUNS_CHANGED=${RUNS_CHANGED:-5}
REQUESTS=${REQUESTS:-6000}
FIELDS=comm,pid,tid,time,event,ip,sym,symoff,dso,period
here=$(cd "$(dirname "$0")" && pwd)
out=$here/captures
prog=$here/prog
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/capture-native.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
lib=$(ldconfig -p | sed -n 's/.*libprofiler\.so\.0.* => //p' | head -1)
[ -n "$lib" ] || { echo "capture: no libprofiler.so.0" >&2; exit 2; }

printf 'file\truntime\tkind\trun\tseed\tvariant\tregress\timprove\tindexes\tseconds\tsamples\n' \
    >"$tmp/manifest"
printf 'file\tload1\n' >"$tmp/runs"
regress() {
	case $1 in
	none) echo - ;;
	new) echo log_audit ;;
	leaf25) echo mix_hash ;;
	libc) echo sort_records ;;
	esac
}
seed=5000
one() {	# one SHAPE N
	shape=$1 n=$(printf %02d "$2")
	seed=$((seed + 1))
	load=$(cut -d' ' -f1 /proc/loadavg)
	base=perf-$shape-$n
	perf record -q -F 999 -e cpu-clock -g -o "$tmp/p.data" -- \
	    "$prog" "$shape" "$seed" "$REQUESTS" >/dev/null 2>&1
	gzip -n -9 <"$tmp/p.data" >"$out/$base.data.gz"
	perf script -F "$FIELDS" -i "$tmp/p.data" 2>/dev/null |
	    gzip -n -9 >"$out/$base.txt.gz"
	samples=$(perf script -F period -i "$tmp/p.data" 2>/dev/null | wc -l)
	secs=$(perf script -F time -i "$tmp/p.data" 2>/dev/null |
	    awk 'NR == 1 { a = $1 + 0 } { b = $1 + 0 } END { printf "%.3f", b - a }')
	r=$(regress "$shape")
	printf '%s\tperf-data\tcpu\tr%s\t%s\t%s\t%s\t-\tcpu-clock,samples\t%s\t%s\n' \
	    "$base.data.gz" "$n" "$seed" "$shape" "$r" "$secs" "$samples" >>"$tmp/manifest"
	printf '%s\tperf-script\tcpu\tr%s\t%s\t%s\t%s\t-\tcpu-clock,samples\t%s\t%s\n' \
	    "$base.txt.gz" "$n" "$seed" "$shape" "$r" "$secs" "$samples" >>"$tmp/manifest"
	printf '%s\t%s\n' "$base.data.gz" "$load" >>"$tmp/runs"

	seed=$((seed + 1))
	load=$(cut -d' ' -f1 /proc/loadavg)
	base=gperf-$shape-$n
	CPUPROFILE=$tmp/g.prof CPUPROFILE_FREQUENCY=250 LD_PRELOAD=$lib \
	    "$prog" "$shape" "$seed" "$REQUESTS" >/dev/null 2>&1
	gzip -n -9 <"$tmp/g.prof" >"$out/$base.prof.gz"
	go tool pprof -proto "$prog" "$tmp/g.prof" 2>/dev/null >"$out/$base.pb.gz"
	samples=$(go tool pprof -raw "$out/$base.pb.gz" 2>/dev/null |
	    awk '/^Samples:/ { on = 1; next } on && /^ *[0-9]+ /{ n += $1 } /^Locations/ { on = 0 } END { print n + 0 }')
	printf '%s\tgperf-raw\tcpu\tr%s\t%s\t%s\t%s\t-\tsamples,cpu\t-\t%s\n' \
	    "$base.prof.gz" "$n" "$seed" "$shape" "$r" "$samples" >>"$tmp/manifest"
	printf '%s\tgperf-pprof\tcpu\tr%s\t%s\t%s\t%s\t-\tsamples,cpu\t-\t%s\n' \
	    "$base.pb.gz" "$n" "$seed" "$shape" "$r" "$samples" >>"$tmp/manifest"
	printf '%s\t%s\n' "$base.prof.gz" "$load" >>"$tmp/runs"
}
i=1
while [ "$i" -le "$RUNS_NONE" ]; do
	one none "$i"
	if [ "$i" -le "$RUNS_CHANGED" ]; then
		for s in new leaf25 libc; do
			one "$s" "$i"
		done
	fi
	echo "round $i done" >&2
	i=$((i + 1))
done
mv "$tmp/manifest" "$out/MANIFEST.tsv"
mv "$tmp/runs" "$out/RUNS.tsv"

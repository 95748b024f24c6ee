#!/bin/sh
# Record the perf script fixtures of tests/data/perf from prog.c, as a
# user of Linux perf would: build it with frame pointers, run it under
# perf record -g (cpu-clock at 999 Hz, so that it works in a VM without
# hardware counters), and keep what perf script prints, gzipped:
#
#   base.txt.gz, base2.txt.gz  two runs of "prog base": a no-change pair
#   changed.txt.gz             "prog changed": apply_discount() is new
#   fields.txt.gz              base's perf.data through perf script -F
#                              comm,pid,tid,time,period,event,ip,sym,
#                              symoff,dso: the same samples, other fields
#   events.txt.gz              "prog base" with two events, cpu-clock
#                              and task-clock
#   nochain.txt.gz             "prog base" recorded without -g
#   changed.pb.gz              changed.txt.gz as profdiff reads it,
#                              written as a pprof protobuf by
#                              tests/tools/topprof, for the mixed diffs
#
# The samples differ from run to run: regenerate the goldens of
# tests/cli/perfscript-* afterwards (UPDATE=1 sh tests/run.sh) and review
# them.  Needs perf (Debian: linux-perf) and the right to use it (root,
# or kernel.perf_event_paranoid at most 2 for user-space samples; the
# kernel frames need 1 or less).  Run from the repository root, with a
# built profdiff in $BUILD (default build):
# sh tests/data/perf/capture.sh
set -eu
out=tests/data/perf
build=${BUILD:-build}
tmp=$(mktemp -d /tmp/profdiff-perf.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
cc -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -pthread \
    -o "$tmp/prog" "$out/prog.c"
make -s "BUILD=$build" "$build/tests/topprof"

record() {	# record NAME PERF-RECORD-OPTIONS... -- PROG-ARGS
	name=$1
	shift
	perf record -q -o "$tmp/$name.data" "$@" 2>/dev/null
	perf script -i "$tmp/$name.data" 2>/dev/null | gzip -n -9 >"$out/$name.txt.gz"
}

record base -F 999 -e cpu-clock -g -- "$tmp/prog" base
record base2 -F 999 -e cpu-clock -g -- "$tmp/prog" base
record changed -F 999 -e cpu-clock -g -- "$tmp/prog" changed
record events -F 999 -e cpu-clock,task-clock -g -- "$tmp/prog" base
record nochain -F 999 -e cpu-clock -- "$tmp/prog" base
perf script -i "$tmp/base.data" \
    -F comm,pid,tid,time,period,event,ip,sym,symoff,dso 2>/dev/null |
    gzip -n -9 >"$out/fields.txt.gz"
"$build/tests/topprof" "$out/changed.txt.gz" "$out/changed.pb.gz"
for f in base base2 changed events nochain fields; do
	printf '%s: ' "$f.txt.gz"
	"$build/profdiff" top -q -n 1 "$out/$f.txt.gz" | sed -n 2p
done

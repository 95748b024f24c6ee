#!/bin/sh
# Regenerate the perf-based folded-stack fixtures perf-good.folded and
# perf-bad.folded: build work.c, sample it with perf record at 999 Hz
# with DWARF call graphs (frame pointers alone lose the callers inside
# glibc's qsort), user space only so that it works at
# perf_event_paranoid 2, and fold the stacks with perf's own script,
# perf script report stackcollapse.  The counts differ from run to run:
# regenerate the goldens tests/cli/folded-* afterwards and review them.
# Run from the repository root: sh tests/data/folded/src/make.sh
set -eu
out=tests/data/folded
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cc -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
    -o "$tmp/work" "$out/src/work.c"
for run in good bad; do
	perf record -q -F 999 -e cpu-clock:u --call-graph dwarf \
	    -o "$tmp/perf.data" "$tmp/work" "$run"
	# The report script reads ./perf.data whatever -i says.
	(cd "$tmp" && perf script report stackcollapse) \
	    >"$out/perf-$run.folded"
done

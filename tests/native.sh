#!/bin/sh
# profdiff's judgement on native code through every form a native
# profile reaches it in (issue 31, item 5): the runs of
# examples/native/prog (examples/native/README.md; captured by
# examples/native/capture.sh), no change and three shapes of change,
# cross-paired by tests/runtimes.sh, one form at a time:
#
#	perf-data    perf record's perf.data, gzipped: profdiff runs
#	             perf script on it (skipped, with a message, where
#	             perf is not installed)
#	perf-script  the same recordings through perf script, committed
#	gperf-raw    gperftools' legacy CPU profile of other runs, as
#	             written (addresses only): profdiff names its frames
#	             from examples/native/prog when it has --binary-path
#	             (given then), else reads it unnamed
#	gperf-pprof  those profiles symbolized by go tool pprof -proto prog
#
#	sh tests/native.sh BUILD_DIR
#
# The no-change pairs count check-significance's exit 1 and diff's
# findings; each shape (new: log_audit() is new; leaf25: mix_hash() does
# 25% more; libc: sort_records() sorts twice, in libc's qsort and
# memcpy) counts the pairs whose regression finding names the injected
# function with exit 1.  runtimes.sh's checks and tables are printed
# per form, then "native: N passed, N failed".
#
# Knobs: NATIVE_FORMS (default all four), NATIVE_FAST=1 (the subset make
# check runs: one profile a side, at most NATIVE_MAX_PAIRS pairs a cell,
# default 8), and runtimes.sh's own (RUNTIMES_SIDE, RUNTIMES_JOBS, ...).
set -u

if [ $# -ne 1 ]; then
	echo "usage: sh tests/native.sh BUILD_DIR" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
PD=$1/profdiff
case $PD in /*) ;; *) PD=$(pwd)/$PD ;; esac
if [ ! -x "$PD" ]; then
	echo "native: $PD: not found (make)" >&2
	exit 2
fi
data=$root/examples/native/captures
if [ ! -f "$data/MANIFEST.tsv" ]; then
	echo "# skip: $data/MANIFEST.tsv: none (examples/native/capture.sh)"
	echo "native: 0 passed, 0 failed"
	exit 0
fi
FORMS=${NATIVE_FORMS:-perf-data perf-script gperf-raw gperf-pprof}
if [ "${NATIVE_FAST:-0}" = 1 ]; then
	export RUNTIMES_SIDE=${RUNTIMES_SIDE:-1}
	export RUNTIMES_MAX_PAIRS=${NATIVE_MAX_PAIRS:-8}
	export RUNTIMES_KINDS=cpu
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/native.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

pass=0
fail=0
for form in $FORMS; do
	args=${RUNTIMES_ARGS:-}
	case $form in
	perf-data)
		if ! command -v perf >/dev/null 2>&1; then
			echo "# skip: $form: no perf on the PATH (Debian: linux-perf); the perf-script form is the same recordings"
			continue
		fi ;;
	gperf-raw)
		if "$PD" --help 2>&1 | grep -q -- --binary-path; then
			args="$args --binary-path $root/examples/native"
			echo "# $form: with --binary-path examples/native"
		else
			echo "# $form: read unnamed (this profdiff has no --binary-path)"
		fi ;;
	esac
	RUNTIMES_DATA=$data RUNTIMES_ONLY=$form RUNTIMES_ARGS=$args \
	    sh "$root/tests/runtimes.sh" "$(dirname "$PD")" >"$tmp/out" 2>&1
	rc=$?
	# runtimes.sh takes the folder of the binary.
	sed "s/^runtimes:/$form:/" "$tmp/out"
	line=$(grep '^runtimes:' "$tmp/out" | tail -1)
	if [ -z "$line" ] || [ $rc -eq 2 ]; then
		echo "FAIL - $form: tests/runtimes.sh printed no summary (exit $rc)"
		fail=$((fail + 1))
		continue
	fi
	p=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p')
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-0}))
done
echo "native: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

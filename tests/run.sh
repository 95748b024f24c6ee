#!/bin/sh
# The test runner: unit tests, CLI golden tests, conformance against
# pprof's own output, the invariants every diff report holds in every
# format, a sweep of the shared corpus, and lint of the man page, for
# each build folder in $BUILDS (default: $BUILD or "build");
# then, once, the boundaries between the rooms (doc/ARCHITECTURE.md),
# and with TSAN_BUILD set (a folder built with SANITIZE=thread) the
# threaded code under ThreadSanitizer.
# It ends with one line: "N passed, N failed".
#
# CLI cases live in tests/cli/NAME.cmd: one shell command line, run from
# the repository root with $PROFDIFF set, whose standard output, standard
# error and exit status must equal NAME.stdout, NAME.stderr and NAME.exit.
# UPDATE=1 rewrites those goldens; review the diff before committing.
# ONLY=tsan runs just the ThreadSanitizer part (on TSAN_BUILD, default
# build-tsan: make SANITIZE=thread all tests).
# ONLY=cli runs just those cases, and PROFDIFF_WRAP runs profdiff under
# a wrapper (make check-valgrind).
#
# JOBS=N (default: the processors online) runs N parts of the suite at
# a time: a part is one stage of one build, or a slice of its CLI cases
# (see parts() below).  What is printed is the same as with JOBS=1,
# line for line and in the same order: each part's messages go to a
# file, printed once it and every part before it have finished (what a
# part writes on standard error goes there too, in the order written,
# so that a log of both streams reads as before).
# RUN_TIMES=FILE adds a line to FILE for each part: the part, its wall
# seconds, and the user and system CPU time of its commands.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
BUILDS=${BUILDS:-${BUILD:-build}}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

ok() { pass=$((pass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok $*"; return 0; }
not_ok() { fail=$((fail + 1)); echo "FAIL $*"; }

run_unit() {
	b=$1
	for t in "$b"/tests/t_*; do
		[ -x "$t" ] || continue
		"$t" >"$tmp/unit.out" 2>&1
		rc=$?
		n_ok=$(grep -c '^ok ' "$tmp/unit.out")
		n_bad=$(grep -c '^not ok ' "$tmp/unit.out")
		pass=$((pass + n_ok))
		fail=$((fail + n_bad))
		if [ "$n_bad" -gt 0 ] || [ $rc -ne 0 ]; then
			echo "FAIL $b: $(basename "$t") (exit $rc)"
			grep -A2 '^not ok' "$tmp/unit.out" | head -20
			[ "$n_bad" -eq 0 ] && fail=$((fail + 1))
			tail -5 "$tmp/unit.out"
		fi
	done
}

# The threaded code under ThreadSanitizer (make check-all builds
# build-tsan and names it in TSAN_BUILD): the unit tests, where the
# spread's readings and the tests of a family of 4,096 hypotheses or
# more take two threads; then diff, check-significance, top and series
# on the runtimes corpus, three profiles a side (a side's feed thread,
# and the new side's loading on a thread of its own).  A race stops the
# run with exit 66 and ThreadSanitizer's report on stderr.
run_tsan() {
	b=$1
	TSAN_OPTIONS="halt_on_error=1 exitcode=66"
	export TSAN_OPTIONS
	run_unit "$b"
	# A generated pair of 5,000 functions: the tests of more than
	# 4,096 hypotheses on two threads, and edge tables that grow while
	# the other side's do (mremap(), which ThreadSanitizer does not
	# follow, made it report a race here until compat.c copied instead).
	if [ -x "$b/bench/genprof" ] &&
	    "$b/bench/genprof" -s 1 -n 30000 -f 5000 -l 20000 \
	    "$tmp/tsan-good.pb.gz" 2>"$tmp/tsan.err" &&
	    "$b/bench/genprof" -b -s 1 -n 30000 -f 5000 -l 20000 \
	    "$tmp/tsan-bad.pb.gz" 2>>"$tmp/tsan.err"; then
		ok "$b: genprof"
	else
		not_ok "$b: no pair from $b/bench/genprof" \
		    "(make SANITIZE=thread $b/bench/genprof)"
		cat "$tmp/tsan.err"
	fi
	# Names of their own: the parts run in one shell with JOBS=1.
	tg=tests/data/runtimes/go
	tn=tests/data/runtimes/node
	tc=tests/data/runtimes/c
	tsan_run "$b" diff -q $tg/cpu-none-01.pb.gz $tg/cpu-none-02.pb.gz \
	    $tg/cpu-none-03.pb.gz -- $tg/cpu-spread-01.pb.gz \
	    $tg/cpu-spread-02.pb.gz $tg/cpu-spread-03.pb.gz
	tsan_run "$b" check-significance -q $tg/cpu-none-04.pb.gz \
	    $tg/cpu-none-05.pb.gz -- $tg/cpu-two-01.pb.gz $tg/cpu-two-02.pb.gz
	tsan_run "$b" diff -q -f json $tn/pprof-none-01.wall.pb.gz \
	    $tn/pprof-none-02.wall.pb.gz $tn/pprof-none-03.wall.pb.gz -- \
	    $tn/pprof-new-01.wall.pb.gz $tn/pprof-new-02.wall.pb.gz \
	    $tn/pprof-new-03.wall.pb.gz
	tsan_run "$b" diff -q $tn/datadog-none-01.heap.pb.gz \
	    $tn/datadog-none-02.heap.pb.gz -- $tn/datadog-alloc-01.heap.pb.gz \
	    $tn/datadog-alloc-02.heap.pb.gz
	tsan_run "$b" diff -q $tc/cpu-none-01.pb.gz $tc/cpu-none-02.pb.gz \
	    $tc/cpu-none-03.pb.gz -- $tc/cpu-recursion-01.pb.gz \
	    $tc/cpu-recursion-02.pb.gz $tc/cpu-recursion-03.pb.gz
	tsan_run "$b" top -q $tg/cpu-none-01.pb.gz $tg/cpu-none-02.pb.gz \
	    $tg/cpu-none-03.pb.gz
	tsan_run "$b" series -q $tg/cpu-none-01.pb.gz $tg/cpu-none-02.pb.gz \
	    $tg/cpu-none-03.pb.gz $tg/cpu-leaf25-01.pb.gz \
	    $tg/cpu-leaf25-02.pb.gz $tg/cpu-leaf25-03.pb.gz
	tsan_run "$b" diff -q "$tmp/tsan-good.pb.gz" "$tmp/tsan-bad.pb.gz"
	tsan_run "$b" check-significance -q -f json "$tmp/tsan-good.pb.gz" \
	    "$tmp/tsan-good.pb.gz" "$tmp/tsan-bad.pb.gz" -- \
	    "$tmp/tsan-bad.pb.gz"
	unset TSAN_OPTIONS
}

# One run of build $1's profdiff with the rest as its arguments, from
# the repository root: a ThreadSanitizer report, or an exit other than
# 0, 1 or 3, fails it.
tsan_run() {
	tb=$1
	shift
	(cd "$root" && "$root/$tb/profdiff" "$@") >/dev/null 2>"$tmp/tsan.err"
	rc=$?
	if [ $rc -eq 66 ] ||
	    grep -q 'WARNING: ThreadSanitizer' "$tmp/tsan.err"; then
		not_ok "$tb: profdiff $*: ThreadSanitizer reports"
		head -40 "$tmp/tsan.err"
	elif [ $rc -eq 2 ] || [ $rc -gt 3 ]; then
		not_ok "$tb: profdiff $*: exit $rc"
		head -5 "$tmp/tsan.err"
	else
		ok "$tb: profdiff $* under ThreadSanitizer"
	fi
}

# A PATH whose perf reads a perf.data's kernel frames without the
# running kernel's symbols (perf script --kallsyms=/dev/null).  perf
# names them from /proc/kallsyms only on a machine that runs the kernel
# they were recorded on, so the goldens would hold one machine's names
# and another's "[kernel.kallsyms]: N addresses unnamed"; without them,
# every machine reads the same.  Made once, before the CLI cases run in
# slices side by side.
perf_path=$PATH
if real=$(command -v perf); then
	mkdir -p "$tmp/perfbin"
	{
		echo '#!/bin/sh'
		echo 'if [ "$1 $2" = "--no-pager script" ]; then'
		echo '	shift 2'
		echo "	exec $real --no-pager script --kallsyms=/dev/null \"\$@\""
		echo 'fi'
		echo "exec $real \"\$@\""
	} >"$tmp/perfbin/perf"
	chmod +x "$tmp/perfbin/perf"
	perf_path=$tmp/perfbin:$PATH
fi

# The CLI cases of build $1, or with $2 "I/N" the I-th of N slices of
# them (I from 1); $3 is a wrapper of profdiff (default $PROFDIFF_WRAP).
run_cli() {
	# The label in messages; not $b, which the callers go on using.
	lb=$1
	wrap=${3-${PROFDIFF_WRAP:-}}
	[ -n "$wrap" ] && lb="$1 (valgrind)"
	PROFDIFF="$wrap $root/$1/profdiff"
	export PROFDIFF
	first=1 last=999999999
	case ${2:--} in
	*/*)
		k=$(cli_count)
		first=$((k * (${2%/*} - 1) / ${2#*/} + 1))
		last=$((k * ${2%/*} / ${2#*/})) ;;
	esac
	i=0
	for c in tests/cli/*.cmd; do
		[ -f "$c" ] || continue
		i=$((i + 1))
		[ "$i" -lt "$first" ] && continue
		[ "$i" -gt "$last" ] && break
		base=${c%.cmd}
		name=$(basename "$base")
		# Cases on the shared corpus (licenses that keep its files
		# out of this tree) run where it is checked out beside us.
		# Cases marked "# needs perf" run perf script (perf.data).
		cpath=$PATH
		case $(cat "$c") in
		*"# needs perf"*)
			if ! command -v perf >/dev/null 2>&1; then
				echo "# skip $lb: cli $name (no perf: Debian's linux-perf)"
				continue
			fi
			cpath=$perf_path ;;
		esac
		case $(cat "$c") in
		*../shared/corpus/*)
			if [ ! -d "$root/../shared/corpus" ]; then
				echo "# skip $lb: cli $name (no ../shared/corpus)"
				continue
			fi ;;
		esac
		(cd "$root" && PATH=$cpath sh -c "$(cat "$c")") \
		    >"$tmp/out" 2>"$tmp/err" </dev/null
		echo $? >"$tmp/exit"
		# Messages name the binary's path only through $PROFDIFF.
		if [ -n "${UPDATE:-}" ] && [ "$lb" = build ]; then
			cp "$tmp/out" "$base.stdout"
			cp "$tmp/err" "$base.stderr"
			cp "$tmp/exit" "$base.exit"
		fi
		bad=""
		cmp -s "$tmp/out" "$base.stdout" || bad="$bad stdout"
		cmp -s "$tmp/err" "$base.stderr" || bad="$bad stderr"
		cmp -s "$tmp/exit" "$base.exit" || bad="$bad exit"
		if [ -z "$bad" ]; then
			ok "$lb: cli $name"
		else
			not_ok "$lb: cli $name:$bad differ"
			for f in stdout stderr exit; do
				case $f in
				stdout) got=$tmp/out ;;
				stderr) got=$tmp/err ;;
				exit) got=$tmp/exit ;;
				esac
				diff -u "$base.$f" "$got" 2>&1 | head -15
			done
		fi
	done
}

cli_count() {
	set -- tests/cli/*.cmd
	[ -f "$1" ] || set --
	echo $#
}

# Every SVG the CLI goldens hold (flame graphs) and the committed example
# is well-formed XML (xmllint, when installed) and has sound geometry
# (tests/tools/svgcheck.c: children inside their parent, widths adding
# up, no frame under the minimum drawn width).
run_svg() {
	b=$1
	for f in tests/cli/*.stdout examples/*.svg; do
		[ -f "$f" ] || continue
		head -c 5 "$f" | grep -q '^<?xml' || continue
		if command -v xmllint >/dev/null 2>&1; then
			if xmllint --noout "$f" >"$tmp/xml" 2>&1; then
				ok "$b: xmllint $f"
			else
				not_ok "$b: xmllint $f"
				head -5 "$tmp/xml"
			fi
		fi
		if "$b/tests/svgcheck" "$f" >"$tmp/svg" 2>&1; then
			ok "$b: svgcheck $f"
		else
			not_ok "$b: svgcheck $f"
			head -5 "$tmp/svg"
		fi
	done
	# The committed example is what profdiff draws today.
	if "$b/profdiff" diff -q -f svg examples/good.pb.gz examples/bad.pb.gz |
	    cmp -s - examples/pricing-diff.svg; then
		ok "$b: examples/pricing-diff.svg is current"
	else
		not_ok "$b: examples/pricing-diff.svg is stale (make demo writes build/pricing-diff.svg)"
	fi
	if "$b/profdiff" series -q -f svg examples/good.pb.gz,examples/good2.pb.gz \
	    examples/good3.pb.gz examples/bad.pb.gz,examples/bad2.pb.gz \
	    examples/bad3.pb.gz | cmp -s - examples/pricing-series.svg; then
		ok "$b: examples/pricing-series.svg is current"
	else
		not_ok "$b: examples/pricing-series.svg is stale (examples/README.md, step 9, makes it with -f svg)"
	fi
}

# Add the counts of a sub-suite's "NAME: N passed, N failed" line, whose
# output is in $2 and whose failure lines start with $3.
add_summary() {
	label=$1 out=$2 failpat=$3 name=$4
	grep "$failpat" "$out" | head -20
	line=$(grep "^$name:" "$out" | tail -1)
	if [ -z "$line" ]; then
		not_ok "$label: $name printed no summary"
		tail -5 "$out"
		return
	fi
	p=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p')
	# A stage that stopped on an error prints its reason, no counts.
	if [ -z "$p" ] && [ -z "$f" ]; then
		not_ok "$label: $line"
		return
	fi
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-0}))
	echo "$label: $line"
}

run_conformance() {
	[ -f tests/conformance.sh ] || return 0
	sh tests/conformance.sh "$root/$1/profdiff" >"$tmp/conf" 2>&1
	add_summary "$1" "$tmp/conf" '^FAIL' conformance
}

# What every diff report says agrees with itself and across formats
# (tests/invariants.sh): each CLI case's diff or check-significance and
# each conformance pair, rerun in every format.  On every build, so that
# the sanitizers see each format written.
run_invariants() {
	[ -f tests/invariants.sh ] || return 0
	sh tests/invariants.sh "$root/$1/profdiff" >"$tmp/inv" 2>&1
	add_summary "$1" "$tmp/inv" '^FAIL' invariants
}

# The statistics on simulated profiles whose answer is known (null, power,
# paths, replicates): tests/sim.sh.  On the first build only; the
# sanitizer build adds nothing to what it measures.
run_sim() {
	[ -x "$1/tests/simprof" ] || return 0
	sh tests/sim.sh "$root/$1" >"$tmp/sim" 2>&1
	add_summary "$1" "$tmp/sim" '^not ok' sim
}

# profdiff series on simulated series with known change points:
# tests/sim-series.sh.  On the first build only, as sim.sh.
run_sim_series() {
	[ -x "$1/tests/simprof" ] || return 0
	sh tests/sim-series.sh "$root/$1" >"$tmp/simser" 2>&1
	add_summary "$1" "$tmp/simser" '^not ok' sim-series
}

# The statistics on the real profiles of tests/data/pricing-runs, whose
# answer is known (false alarms, power, the findings that name the
# injected function): tests/real.sh.  On the first build only, as sim.sh.
run_real() {
	[ -d tests/data/pricing-runs ] || return 0
	sh tests/real.sh "$root/$1" >"$tmp/real" 2>&1
	add_summary "$1" "$tmp/real" '^not ok' real
}

# False alarms and power on the runs of examples/types (tests/types.sh):
# one profile a side for allocations, heap in use, goroutines and the
# delta profiles; two a side for mutex and block profiles, whose targets
# profdiff meets only with replicates.  With one a side their no-change
# pairs' diff findings (leads, which check-significance does not fail
# on) exceed the bound, since those processes' rates differ between runs
# by more than their counts can show (doc/statistics.md, section 1's
# caveats); sh tests/types.sh build measures that.
run_types() {
	[ -d tests/data/types ] || return 0
	TYPES_ONLY="allocs heap goroutine" sh tests/types.sh "$root/$1" \
	    >"$tmp/types" 2>&1
	add_summary "$1" "$tmp/types" '^not ok' types
}

# The two-a-side half of run_types, a part of its own.
run_types2() {
	[ -d tests/data/types ] || return 0
	TYPES_SIDE=2 TYPES_ONLY="mutex block" sh tests/types.sh "$root/$1" \
	    >"$tmp/types2" 2>&1
	add_summary "$1 (two a side)" "$tmp/types2" '^not ok' types
}

# profdiff spans on the Go captures of tests/data/spans, whose answers
# are known (tests/spans.sh).  On the first build only, as sim.sh.
run_spans() {
	[ -d tests/data/spans ] || return 0
	sh tests/spans.sh "$root/$1" >"$tmp/spans" 2>&1
	add_summary "$1" "$tmp/spans" '^not ok' spans
}

# profdiff's judgement across runtimes, kinds and shapes of change, on
# the fast subset of tests/runtimes.sh (make eval-runtimes runs it all).
# On the first build only, as sim.sh.
#
# Gated here: that no pair is refused or fails, on any runtime, and that
# check-significance's false alarms on no-change pairs stay in bound (the
# CI gate's promise).  The other targets of issue 29 (diff's findings on
# no-change pairs, power, one finding per change) are measured and
# printed as "# not gated" lines, not counted: they are not all met yet
# (README, "Runtimes").
run_runtimes() {
	[ -f tests/runtimes.sh ] || return 0
	RUNTIMES_FAST=1 sh tests/runtimes.sh "$root/$1" >"$tmp/rt" 2>&1
	# Gated: every pair read, and CI's false alarms where the runs give
	# the dispersion (three a side).  One profile a side reads how much
	# processes differ from the spread of their functions, which holds
	# C's and Node.js's no-change pairs within alpha; Go's has a few
	# functions far wilder than the rest (memmove, a hot loop at half
	# its share in two of twelve processes), which no spread shared by
	# the functions tells from a change: printed, not gated.
	gate='(no pair refused or failed|3 a side, no change: check-significance exits 1)'
	if ! grep -q '^runtimes:' "$tmp/rt"; then
		not_ok "$1: runtimes printed no summary"
		tail -5 "$tmp/rt"
		return
	fi
	grep -E "^FAIL - .*$gate" "$tmp/rt" | head -20
	grep -E "^FAIL - .*1 a side, no change: check-significance" "$tmp/rt" |
	    sed 's/^FAIL - /# not gated: /'
	p=$(grep -cE "^ok - .*$gate" "$tmp/rt")
	f=$(grep -cE "^FAIL - .*$gate" "$tmp/rt")
	n=$(grep -E '^FAIL - ' "$tmp/rt" | grep -cvE "$gate")
	pass=$((pass + p))
	fail=$((fail + f))
	echo "$1: runtimes: $p passed, $f failed (gated); $n targets of issue 29 not met (# not gated)"
}

# profdiff on native code through every form of its profiles (perf.data,
# perf script, gperftools raw and symbolized by pprof), on the fast
# subset of tests/native.sh (make eval-native runs it all): one profile
# a side, at most 6 pairs a cell, the first sample type, the shapes new
# and leaf25 (runtimes.sh's fast subset).  On the first
# build only, as sim.sh.  Gated as runtimes is: every pair read, and
# check-significance's false alarms on no-change pairs in bound; power
# (found) is printed as "# not gated", with the counts (README, "Native
# code: perf and gperftools").
run_native() {
	[ -f tests/native.sh ] || return 0
	NATIVE_FAST=1 RUNTIMES_FAST=1 NATIVE_MAX_PAIRS=6 \
	    sh tests/native.sh "$root/$1" >"$tmp/nat" 2>&1
	gate='(no pair refused or failed|no change: check-significance exits 1)'
	if ! grep -q '^native:' "$tmp/nat"; then
		not_ok "$1: native printed no summary"
		tail -5 "$tmp/nat"
		return
	fi
	grep '^# skip' "$tmp/nat"
	grep -E "^FAIL - .*$gate" "$tmp/nat" | head -20
	grep -E '^FAIL - ' "$tmp/nat" | grep -vE "$gate" |
	    sed 's/^FAIL - /# not gated: /'
	p=$(grep -cE "^ok - .*$gate" "$tmp/nat")
	f=$(grep -cE "^FAIL - .*$gate" "$tmp/nat")
	pass=$((pass + p))
	fail=$((fail + f))
	echo "$1: native: $p passed, $f failed (gated)"
}

# Every profile in the shared corpus is either read or refused with one
# line on stderr naming the file, and exit status 2; never a crash.
run_corpus_sweep() {
	b=$1
	corpus=$root/../shared/corpus
	[ -d "$corpus" ] || return 0
	for f in "$corpus"/*.pb* "$corpus"/bad/*; do
		[ -f "$f" ] || continue
		"$root/$b/profdiff" top -n 3 "$f" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		lines=$(grep -vc '^profdiff: .*: \(only\|CPU utilization\|duration_nanos\)' "$tmp/err")
		case $rc in
		0) ok "$b: corpus $f" ;;
		2)
			if [ "$lines" -eq 1 ] && grep -q "^profdiff: $f: " "$tmp/err"; then
				ok "$b: corpus $f"
			else
				not_ok "$b: corpus $f: exit 2 without one clear line"
				cat "$tmp/err"
			fi ;;
		*) not_ok "$b: corpus $f: exit $rc"; head -5 "$tmp/err" ;;
		esac
		# A bad file may be read only if pprof reads it too (the legacy
		# formats, which MANIFEST.tsv marks "go tool pprof -raw ACCEPTS").
		case $f in
		*/bad/*) [ $rc -eq 2 ] || grep -q "^bad/${f##*/}	.*go tool pprof -raw ACCEPTS" \
		    "$corpus/MANIFEST.tsv" 2>/dev/null ||
		    not_ok "$b: corpus $f was accepted" ;;
		esac
	done
}

# One fuzz target (replay_$2) on the given seeds and every crasher found
# so far for it; $3 names the inputs, $4 the target in a failure.
replay_target() {
	rb=$1 target=$2 inputs=$3 what=$4
	shift 4
	for f in tests/fuzz/crashers/"$target"-*; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	if "$rb/tests/replay_$target" "$@" >"$tmp/replay" 2>&1; then
		ok "$rb: fuzz replay of $# $inputs"
	else
		not_ok "$rb: fuzz replay ($what)"
		tail -20 "$tmp/replay"
	fi
}

# The fuzz targets on every seed and every crasher found so far.
run_replay() {
	b=$1
	[ -x "$b/tests/replay_pprof" ] || return 0
	replay_target "$b" pprof "decoder inputs" decoder \
	    tests/data/corpus/* tests/data/good/* tests/data/bad/* \
	    examples/*.pb.gz tests/data/pprof-testdata/* \
	    tests/data/legacy-bad/*
	replay_target "$b" options "option inputs" options \
	    tests/fuzz/seeds-options/*
	replay_target "$b" twice "decoder inputs read from files" \
	    "files read twice" \
	    tests/data/corpus/* tests/data/good/* tests/data/bad/* \
	    examples/*.pb.gz
	replay_target "$b" folded "folded-stack inputs" "folded stacks" \
	    tests/fuzz/seeds-folded/* tests/data/folded/*.folded* \
	    tests/data/folded/bad/* tests/data/bad/*.txt
	replay_target "$b" perfscript "perf script inputs" "perf script" \
	    tests/fuzz/seeds-perfscript/* tests/data/perf/fields/* \
	    tests/data/perf/bad/* tests/data/folded/*.folded
	replay_target "$b" legacy "legacy inputs" "legacy formats" \
	    tests/fuzz/seeds-legacy/* tests/data/legacy-bad/* \
	    tests/data/pprof-testdata/*
	replay_target "$b" series "series of folded points" "series" \
	    tests/fuzz/seeds-series/*
	replay_target "$b" trace "trace inputs" "traces" \
	    tests/fuzz/seeds-trace/* tests/data/spans/bad/* \
	    tests/data/spans/*.json*
	# Whole runs of this build's profdiff, in a folder of their own.
	PROFDIFF_FUZZ_BIN=$root/$b/profdiff
	export PROFDIFF_FUZZ_BIN
	replay_target "$b" cli "command lines" "command lines" \
	    tests/fuzz/seeds-cli/*
}

# Byte-identical output in every format, whatever the environment's size
# (no uninitialized bytes, no hash order, no locale).
run_determinism() {
	b=$1
	big=$(awk 'BEGIN { while (i++ < 4000) printf "xxxxxxxxxxxxxxxxxxxxxxxx" }')
	for args in "top -n 0 -f text" "top -n 0 -f json" "top -n 0 -f csv" \
	    "diff -n 0 -f text" "diff -n 0 -f json" "diff -n 0 -f csv" \
	    "diff -n 0 -f markdown"; do
		case $args in
		top*) files=examples/bad.pb.gz ;;
		*) files="examples/good.pb.gz examples/bad.pb.gz" ;;
		esac
		# shellcheck disable=SC2086
		env -i PATH="$PATH" "$b/profdiff" $args $files >"$tmp/d1" 2>&1
		# shellcheck disable=SC2086
		env BIG="$big" LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8 \
		    "$b/profdiff" $args $files >"$tmp/d2" 2>&1
		if cmp -s "$tmp/d1" "$tmp/d2"; then
			ok "$b: deterministic $args"
		else
			not_ok "$b: output of '$args' depends on the environment"
		fi
	done
}

# The usage lines of --help are the SYNOPSIS of the man page, word for word.
run_usage_man() {
	b=$1
	command -v mandoc >/dev/null 2>&1 || return 0
	mandoc -Tascii man/profdiff.1 | sed 's/.\x08//g' |
	    sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | grep 'profdiff' |
	    sed 's/^ *//; s/  */ /g' >"$tmp/syn.man"
	"$b/profdiff" --help | sed -n 's/^usage: //p' >"$tmp/syn.help"
	if cmp -s "$tmp/syn.man" "$tmp/syn.help"; then
		ok "$b: --help matches SYNOPSIS"
	else
		not_ok "$b: --help differs from the man page SYNOPSIS"
		diff "$tmp/syn.man" "$tmp/syn.help"
	fi
}

# Every long option of every subcommand's --help is documented in the
# man page and in the README.
run_options_doc() {
	b=$1
	for c in top diff check-significance series check-series; do
		"$b/profdiff" help "$c"
	done | sed -n 's/^ *\(-., \)\{0,1\}--\([a-z-]*\).*/\2/p' | sort -u >"$tmp/opts"
	missing=
	while read -r o; do
		grep -q -- "Fl \\\\-$o\\b" man/profdiff.1 || missing="$missing man:--$o"
		grep -q -- "--$o\\b" README.md || missing="$missing README:--$o"
	done <"$tmp/opts"
	if [ -z "$missing" ] && [ -s "$tmp/opts" ]; then
		ok "$b: all $(wc -l <"$tmp/opts") long options are in the man page and README"
	else
		not_ok "$b: options not documented:$missing"
	fi
}

# The examples the documentation shows are what profdiff prints.  In
# README.md and examples/README.md, a line "<!-- output: stdout -->" (or
# stderr) right before a code block marks it: the block's first line is
# "$ profdiff ARGS", and the rest is that stream of the command, byte for
# byte, run from the repository root with this build's profdiff first on
# the PATH.  A marked block in a list item is indented as its marker is,
# and that indentation is not part of the output.
run_doc_examples() {
	b=$1
	for doc in README.md examples/README.md; do
		[ -f "$doc" ] || continue
		rm -rf "$tmp/ex"
		mkdir "$tmp/ex"
		awk -v dir="$tmp/ex" '
		function bad(why) {
			print FILENAME ":" NR ": " why > (dir "/errors")
		}
		# This line without the indentation of the block, if it has it.
		function strip(s) {
			if (substr(s, 1, length(pad)) == pad)
				return substr(s, length(pad) + 1)
			return s
		}
		mark != "" {
			if (strip($0) !~ /^```/) {
				bad("no code block after the output marker")
				mark = ""
				next
			}
			n++
			printf "%s\n", mark > (dir "/" n ".stream")
			printf "%d\n", NR > (dir "/" n ".line")
			printf "" > (dir "/" n ".want")
			mark = ""
			inblock = 1
			first = 1
			next
		}
		/^ *<!-- output: (stdout|stderr) -->$/ {
			pad = $0
			sub(/<.*/, "", pad)
			mark = $3
			next
		}
		inblock && strip($0) ~ /^```$/ {
			inblock = 0
			next
		}
		inblock && first {
			first = 0
			if (strip($0) !~ /^\$ profdiff /)
				bad("an output block must start with \"$ profdiff \"")
			print substr(strip($0), 3) > (dir "/" n ".cmd")
			next
		}
		inblock {
			print strip($0) > (dir "/" n ".want")
		}
		END {
			if (inblock)
				bad("the last output block is not closed")
		}' "$doc"
		if [ -s "$tmp/ex/errors" ]; then
			not_ok "$b: $doc: output markers"
			cat "$tmp/ex/errors"
			continue
		fi
		i=1
		while [ -f "$tmp/ex/$i.cmd" ]; do
			cmd=$(cat "$tmp/ex/$i.cmd")
			line=$(cat "$tmp/ex/$i.line")
			(cd "$root" && PATH="$root/$b:$PATH" sh -c "$cmd") \
			    >"$tmp/ex/out" 2>"$tmp/ex/err" </dev/null
			case $(cat "$tmp/ex/$i.stream") in
			stdout) got=$tmp/ex/out ;;
			*) got=$tmp/ex/err ;;
			esac
			if cmp -s "$tmp/ex/$i.want" "$got"; then
				ok "$b: $doc:$line: $cmd"
			else
				not_ok "$b: $doc:$line: the output of '$cmd' is not the block's"
				diff -u "$tmp/ex/$i.want" "$got" | head -15
			fi
			i=$((i + 1))
		done
		if [ "$i" -eq 1 ] && [ "$doc" = README.md ]; then
			not_ok "$b: README.md marks no example output"
		fi
	done
}

# The binary links ISA-L exactly when its build folder says it was built
# with it ($b/isal, written by the Makefile): a build with ISAL=no must
# not pick libisal up, even where libisal-dev is installed.
run_isal() {
	b=$1
	command -v ldd >/dev/null 2>&1 || return 0
	if [ ! -f "$b/isal" ]; then
		not_ok "$b: $b/isal is missing (make writes it)"
		return
	fi
	want=$(cat "$b/isal")
	if ldd "$b/profdiff" | grep -q 'libisal'; then got=yes; else got=no; fi
	if [ "$got" = "$want" ]; then
		ok "$b: linked with ISA-L: $got, as built"
	else
		not_ok "$b: built with ISA-L: $want, but ldd says linked: $got"
		ldd "$b/profdiff" | grep libisal
	fi
	# libcurl is loaded by the first URL (fetch.c), never linked.
	if ldd "$b/profdiff" | grep -q 'libcurl'; then
		not_ok "$b: profdiff links libcurl, which fetch.c loads itself"
	else
		ok "$b: libcurl not linked: loaded by the first URL"
	fi
}

# The boundaries doc/ARCHITECTURE.md states (tests/boundaries.sh), and
# that each of its checks can fail (tests/boundaries-mutants.sh).  On
# the sources, once: no build is needed.
run_boundaries() {
	sh tests/boundaries.sh >"$tmp/bnd" 2>&1
	add_summary source "$tmp/bnd" '^FAIL' boundaries
	sh tests/boundaries-mutants.sh >"$tmp/bndm" 2>&1
	add_summary source "$tmp/bndm" '^FAIL' boundaries-mutants
}

run_man() {
	if command -v mandoc >/dev/null 2>&1; then
		if mandoc -Tlint -W warning man/profdiff.1 >"$tmp/lint" 2>&1; then
			ok "mandoc -Tlint"
		else
			not_ok "mandoc -Tlint man/profdiff.1"
			cat "$tmp/lint"
		fi
	fi
}

# The valgrind pass (VALGRIND_CLI=1, make check-all): the CLI cases once
# more under memcheck, on the plain build only, as before.  build-san
# needs none: ASan (with its leak checker) and UBSan already fail its
# cases on an invalid access, a leak or undefined behaviour, which
# -fno-sanitize-recover makes fatal.  build-noisal is the plain build's
# code but for the inflater (zlib for ISA-L, gunzip.c): what memcheck
# alone finds, a read of memory never written, lies in code the plain
# build runs.  Not "possibly lost": glibc keeps the stacks of joined
# threads, which memcheck reports so when an exit skips their release.
VALGRIND="valgrind -q --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect \
    --show-leak-kinds=definite,indirect"

# Slices of the CLI cases: of a plain or sanitized pass (seconds), and of
# the valgrind pass (most of the suite's time: a case takes a few
# seconds under memcheck), so that JOBS workers end together.
CLI_SLICES=8
VALGRIND_SLICES=24

# The parts of the suite, one a line, in the order of their messages:
# "STAGE BUILD SLICE" (SLICE "I/N" or "-").  Each is run by run_part().
parts() {
	if [ "${ONLY:-}" = tsan ]; then
		tsan_part "${TSAN_BUILD:-build-tsan}"
		return
	fi
	for b in $BUILDS; do
		if [ ! -x "$b/profdiff" ]; then
			echo "unbuilt $b -"
			continue
		fi
		if [ "${ONLY:-}" = cli ]; then
			slices cli "$b" "$CLI_SLICES"
			echo "svg $b -"
			continue
		fi
		echo "isal $b -"
		echo "unit $b -"
		slices cli "$b" "$CLI_SLICES"
		echo "svg $b -"
		echo "conformance $b -"
		echo "invariants $b -"
		if [ "$b" = "${BUILDS%% *}" ]; then
			echo "sim $b -"
			echo "sim_series $b -"
			echo "real $b -"
			echo "types $b -"
			echo "types2 $b -"
			echo "runtimes $b -"
			echo "native $b -"
			echo "spans $b -"
		fi
		for s in corpus_sweep usage_man options_doc doc_examples \
		    replay determinism; do
			echo "$s $b -"
		done
	done
	if [ "${ONLY:-}" != cli ]; then
		echo "man - -"
		echo "boundaries - -"
		[ -z "${TSAN_BUILD:-}" ] || tsan_part "$TSAN_BUILD"
	fi
	if [ -n "${VALGRIND_CLI:-}" ] && command -v valgrind >/dev/null 2>&1; then
		slices valgrind build "$VALGRIND_SLICES"
	fi
}

tsan_part() {
	if [ -x "$1/profdiff" ]; then
		echo "tsan $1 -"
	else
		echo "unbuilt $1 -"
	fi
}

slices() {
	j=1
	while [ "$j" -le "$3" ]; do
		echo "$1 $2 $j/$3"
		j=$((j + 1))
	done
}

run_part() {
	case $1 in
	unbuilt) not_ok "$2/profdiff is not built" ;;
	cli) run_cli "$2" "$3" ;;
	valgrind) run_cli "$2" "$3" "$VALGRIND" ;;
	man) run_man ;;
	boundaries) run_boundaries ;;
	*) "run_$1" "$2" ;;
	esac
}

# The order in which the workers take the parts: the longest first (so
# that none is left running alone at the end), by the CPU seconds each
# took on a two-core machine (RUN_TIMES), the sanitized build's twice
# the plain one's; the rest in the list's order.
part_cost() {
	case $1 in
	sim) c=135 ;;
	real) c=130 ;;
	types) c=120 ;;
	runtimes) c=60 ;;
	tsan) c=60 ;;
	native) c=60 ;;
	sim_series|boundaries) c=55 ;;
	conformance) c=50 ;;
	invariants) c=15 ;;
	types2) c=45 ;;
	valgrind) c=23 ;;
	unit) c=10 ;;
	cli) c=5 ;;
	svg|corpus_sweep) c=4 ;;
	*) c=1 ;;
	esac
	case $2 in
	*-san*) c=$((c * 2)) ;;
	esac
	echo "$c"
}

# A worker: run part $1 of the list in $RUN_PARTS, its messages and
# counts into that folder.
if [ $# -eq 1 ] && [ -n "${RUN_PARTS:-}" ]; then
	exec >"$RUN_PARTS/$1.out" 2>&1
	start=$(date +%s)
	run_part $(sed -n "$1p" "$RUN_PARTS/list")
	echo "$pass $fail" >"$RUN_PARTS/$1.count"
	if [ -n "${RUN_TIMES:-}" ]; then
		times >"$tmp/times"
		echo "$(sed -n "$1p" "$RUN_PARTS/list")" \
		    "$(($(date +%s) - start)) $(tail -1 "$tmp/times")" \
		    >>"$RUN_TIMES"
	fi
	: >"$RUN_PARTS/$1.done"
	exit 0
fi

JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
# UPDATE=1 rewrites the goldens that later parts compare against.
[ -n "${UPDATE:-}" ] && JOBS=1
parts >"$tmp/list"
if [ "$JOBS" -le 1 ]; then
	# The list on a descriptor of its own: no stage reads it.
	while read -r stage b slice <&3; do
		run_part "$stage" "$b" "$slice"
	done 3<"$tmp/list"
else
	d=$tmp/parts
	mkdir "$d"
	cp "$tmp/list" "$d/list"
	while read -r stage b slice; do
		part_cost "$stage" "$b"
	done <"$d/list" | awk '{ print $1, NR }' | sort -k1,1nr -k2,2n |
	    awk '{ print $2 }' >"$d/order"
	(RUN_PARTS=$d xargs -n 1 -P "$JOBS" sh "$root/tests/run.sh" \
	    <"$d/order"; : >"$d/all") &
	n=$(wc -l <"$d/list")
	i=1
	while [ "$i" -le "$n" ]; do
		while [ ! -f "$d/$i.done" ] && [ ! -f "$d/all" ]; do
			[ -d "$d" ] || exit 1
			sleep 1
		done
		if [ -f "$d/$i.done" ]; then
			cat "$d/$i.out"
			read -r p f <"$d/$i.count"
			pass=$((pass + p))
			fail=$((fail + f))
		else
			not_ok "part $i ($(sed -n "${i}p" "$d/list")) did not finish"
			tail -20 "$d/$i.out" 2>/dev/null
		fi
		i=$((i + 1))
	done
	wait
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

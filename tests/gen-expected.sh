#!/bin/sh
# gen-expected.sh: regenerate the conformance goldens in tests/expected/
# from `go tool pprof`, the reference implementation.
#
# A maintainer tool: it needs Go, and no test runs it.  tests/conformance.sh
# reads what it writes.  Review the diff it produces before committing, and
# keep the pprof version in tests/expected/README.md in step with it.
#
# For every profile (tests/data/corpus/*, google/pprof's own test profiles in
# tests/data/pprof-testdata/, examples/*.pb.gz, the top level of
# ../shared/corpus and the TYPES_FILES of tests/data/types below; the
# first one found wins when names repeat) and every
# sample type index of it, it writes
#   tests/expected/top/<file>.<index>.txt
# and for a few files with inlined frames and line numbers also
#   tests/expected/top/<file>.<index>.<gran>.txt
# (gran = lines, files, addresses, filefunctions or noinlines); for the diff
# pairs below it writes
#   tests/expected/diff/<base>--<new>.<index>.txt
# Files pprof rejects get no golden; they are listed in the README.
#
# Usage: sh tests/gen-expected.sh        (from anywhere; needs go in PATH)

set -eu

cd "$(dirname "$0")/.."

# pprof prints "Time:" in the local zone; fix it, and the locale, so that
# two runs anywhere produce the same bytes.
TZ=UTC
LC_ALL=C
export TZ LC_ALL

PPROF="go tool pprof"
COMMON="-top -nodecount=100000 -nodefraction=0 -edgefraction=0 -symbolize=none"
OUT=tests/expected
SHARED=../shared/corpus
# google/pprof's test profiles, most of them in the legacy formats: pprof
# reads them itself (never a -proto conversion of them), and each also gets
# the granularities below, which show the addresses and Java's lines.
PPROF_DATA=tests/data/pprof-testdata
PPROF_GRANS="addresses lines"

# Files that get one golden per granularity as well.  They have inlined
# frames and line numbers, except the Java one: line numbers only (no file
# names, no inlined frames), as Java profiles come.
GRAN_FILES="go-cpu-fib.pb.gz ebpf-parca-agent-labels.pb.gz java-cpu-jfr-kafka-0.pb.gz bad.pb.gz"
GRANS="lines files addresses filefunctions noinlines"

# base:new pairs for `-diff_base=base new`.
DIFF_PAIRS="good.pb.gz:bad.pb.gz
good.pb.gz:good2.pb.gz
go-heap-before.pb:go-heap-after.pb
go-block-before.pb:go-block-after.pb
go-heap-series-t0.pb.gz:go-heap-series-t9.pb.gz
go-heap-stress-before.pb:go-heap-stress-after.pb
java-cpu-jfr-kafka-0.pb.gz:java-cpu-jfr-kafka-1.pb.gz
allocs-none-01.base.pb.gz:allocs-none-01.pb.gz
mutex-none-01.base.pb.gz:mutex-none-01.pb.gz
allocs-none-01.pb.gz:allocs-more-01.pb.gz
mutex-none-01.pb.gz:mutex-hold5-01.pb.gz
goroutine-none-01.pb.gz:goroutine-park4-01.pb.gz"

# Profiles of tests/data/types (issue 18: every Go profile type, from
# examples/types) that get goldens too: one run of each type, a cumulative
# snapshot and the later one, and runs with a change injected.  The folder
# has 145 profiles; these are enough to check profdiff's reading of each
# kind.  The delta heap profiles (heap-*.delta.pb.gz, with negative
# in-use values) are left out: pprof's "of Z total" is the sum of |value|
# where profdiff's total is the sum, so their inuse goldens fail until
# profdiff gives negative values documented semantics (issue 18, item 5);
# add heap-none-01.delta.pb.gz then.
TYPES=tests/data/types
TYPES_FILES="allocs-none-01.pb.gz allocs-none-01.base.pb.gz heap-leak-01.pb.gz
mutex-none-01.pb.gz mutex-hold5-01.pb.gz block-none-01.pb.gz
goroutine-none-01.pb.gz goroutine-park4-01.pb.gz"

command -v go >/dev/null 2>&1 || { echo "gen-expected: go not found" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

# locate NAME: print the path of profile NAME, searched in the same order
# as tests/conformance.sh; fail if it is nowhere.
locate() {
	for d in tests/data/corpus "$PPROF_DATA" examples "$SHARED" "$TYPES"; do
		if [ -f "$d/$1" ]; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}

# unitflag UNIT: the -unit value that makes pprof print values of a sample
# type with unit UNIT as exact integers in that same unit.
#
# pprof (internal/measurement) knows byte, time and GCU units.  It
# lowercases a unit, drops one trailing "s" when it is longer than two
# characters, and looks the result up in its alias lists.  Converting a
# known unit to itself is exact (factor 1, or x*f/f with an integer result),
# and ScaledLabel prints "%.2f" with ".00" trimmed, so integers come out
# whole, followed by pprof's canonical suffix (B, ns, us, ...).  Any unit it
# does not know (count, samples, objects, the empty unit) is never scaled,
# and -unit=count adds no suffix.  -unit=count on a known unit would NOT be
# safe: pprof would convert to the default unit (seconds, bytes), so the
# mapping below must stay in step with measurement.go.
unitflag() {
	u=$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')
	if [ ${#u} -gt 2 ]; then
		u=${u%s}
	fi
	case $u in
	b|byte)				echo b ;;
	kb|kbyte|kilobyte)		echo kb ;;
	mb|mbyte|megabyte)		echo mb ;;
	gb|gbyte|gigabyte)		echo gb ;;
	tb|tbyte|terabyte)		echo tb ;;
	pb|pbyte|petabyte)		echo pb ;;
	ns|nanosecond)			echo ns ;;
	us|μs|microsecond)		echo us ;;
	ms|millisecond)			echo ms ;;
	s|sec|second)			echo s ;;
	hour|hr)			echo hr ;;
	nanogcu|microgcu|milligcu|gcu|kilogcu|megagcu|gigagcu|teragcu|petagcu)
					echo "$u" ;;
	*)				echo count ;;
	esac
}

# units FILE: the unit of each sample type of FILE, one a line, in index
# order, read from the "Samples:" header of `pprof -raw`.  A sample type
# prints there as type/unit, with "[dflt]" after the default one.
units() {
	$PPROF -raw -symbolize=none "$1" 2>/dev/null |
	    awk 'f == 1 { for (i = 1; i <= NF; i++) { t = $i
	                      sub(/\[dflt\]$/, "", t); sub(/^.*\//, "", t)
	                      print t }
	                  f = 2 }
	         /^Samples:$/ && f == 0 { f = 1 }
	         { }'
}

# check GOLDEN: every value pprof printed must be an integer with at most
# a unit suffix, and nothing may have been dropped or cut off.
check() {
	awk -v f="$1" '
	function bad(what) { printf "gen-expected: %s: %s\n", f, what > "/dev/stderr"; err = 1 }
	/^Showing nodes accounting for / {
		s = $0
		sub(/^Showing nodes accounting for /, "", s)
		split(s, a, ", ")
		t = s; sub(/^.* of /, "", t); sub(/ total$/, "", t)
		if (a[1] !~ /^-?[0-9]+[^0-9.,]*$/ || t !~ /^-?[0-9]+[^0-9.,]*$/)
			bad("total not an integer: " $0)
	}
	/^Dropped |^Showing top / { bad("pprof dropped nodes: " $0) }
	hdr && NF >= 6 && $2 ~ /%$/ && $3 ~ /%$/ && $5 ~ /%$/ {
		if ($1 !~ /^-?[0-9]+[^0-9.]*$/ || $4 !~ /^-?[0-9]+[^0-9.]*$/)
			bad("value not an integer: " $0)
		rows++
	}
	/^ +flat +flat% +sum% +cum +cum%$/ { hdr = 1 }
	END {
		if (!hdr) bad("no table header")
		exit err
	}' "$1"
}

# run GOLDEN ARGS...: run pprof, keep its stdout as GOLDEN when it succeeds;
# on failure remember pprof's message for the README.
run() {
	golden=$1
	shift
	# $PPROF and $COMMON are word lists on purpose.
	# shellcheck disable=SC2086
	if $PPROF $COMMON "$@" >"$tmp/out" 2>"$tmp/err"; then
		# Under "|| true" set -e is off in here: exit by hand.
		check "$tmp/out" || exit 1
		mv "$tmp/out" "$golden"
		return 0
	fi
	msg=$(grep -v '^Main binary filename not available\.$' "$tmp/err" |
	    tr '\n' ' ' | sed 's/ *$//')
	printf '%s\t%s\n' "${golden#"$OUT"/}" "$msg" >>"$tmp/rejected"
	return 1
}

rm -rf "$OUT/top" "$OUT/diff"
mkdir -p "$OUT/top" "$OUT/diff"
: >"$tmp/rejected"
: >"$tmp/units"

# The profiles, deduplicated by name.
for p in tests/data/corpus/*.pb tests/data/corpus/*.pb.gz "$PPROF_DATA"/* \
    examples/*.pb.gz "$SHARED"/*.pb "$SHARED"/*.pb.gz; do
	[ -f "$p" ] || continue
	case ${p##*/} in
	PROVENANCE.tsv|LICENSE|README.md)	continue ;;
	esac
	echo "${p##*/}"
done >"$tmp/names.all"
for n in $TYPES_FILES; do
	[ -f "$TYPES/$n" ] && echo "$n"
done >>"$tmp/names.all"
sort -u "$tmp/names.all" >"$tmp/names"

while read -r name; do
	path=$(locate "$name")
	units "$path" >"$tmp/u"
	if [ ! -s "$tmp/u" ]; then
		# Let pprof say why.
		run "$OUT/top/$name.0.txt" -sample_index=0 "$path" || true
		continue
	fi
	i=0
	while read -r unit; do
		flag=$(unitflag "$unit")
		printf '%s\t%s\t%s\t%s\n' "$name" "$i" "$unit" "$flag" >>"$tmp/units"
		run "$OUT/top/$name.$i.txt" -sample_index=$i -unit="$flag" "$path" || true
		case " $GRAN_FILES " in
		*" $name "*)
			for g in $GRANS; do
				run "$OUT/top/$name.$i.$g.txt" -sample_index=$i \
				    -unit="$flag" -"$g" "$path" || true
			done
			;;
		esac
		case $path in
		"$PPROF_DATA"/large.cpu)	;;
		"$PPROF_DATA"/*)
			for g in $PPROF_GRANS; do
				run "$OUT/top/$name.$i.$g.txt" -sample_index=$i \
				    -unit="$flag" -"$g" "$path" || true
			done
			;;
		esac
		i=$((i + 1))
	done <"$tmp/u"
done <"$tmp/names"

echo "$DIFF_PAIRS" | while IFS=: read -r base new; do
	bpath=$(locate "$base") || { echo "gen-expected: skip diff, no $base" >&2; continue; }
	npath=$(locate "$new") || { echo "gen-expected: skip diff, no $new" >&2; continue; }
	units "$npath" >"$tmp/u"
	i=0
	while read -r unit; do
		flag=$(unitflag "$unit")
		run "$OUT/diff/$base--$new.$i.txt" -sample_index=$i -unit="$flag" \
		    -diff_base="$bpath" "$npath" || true
		i=$((i + 1))
	done <"$tmp/u"
done

# The filter cases: tests/filter-cases.tsv, one golden each.
mkdir -p "$OUT/filter"
rm -f "$OUT"/filter/*.txt
grep -v '^#' tests/filter-cases.tsv | while IFS='	' read -r name file index pflags dflags; do
	path=$(locate "$file") || { echo "gen-expected: skip filter $name, no $file" >&2; continue; }
	flag=$(units "$path" | sed -n "$((index + 1))p")
	flag=$(unitflag "$flag")
	# shellcheck disable=SC2086
	run "$OUT/filter/$name.txt" -sample_index="$index" -unit="$flag" \
	    $pflags "$path" || true
done

# The README: versions first, then the unit choices and the rejected files.
{
	echo "# Conformance goldens"
	echo
	echo "Generated by \`sh tests/gen-expected.sh\` with $(go version | sed 's/^go version //')"
	echo "(\`go tool pprof\`, the pprof vendored in that Go release)."
	echo
	echo "Do not edit these files by hand: regenerate them and review the diff."
	echo "\`sh tests/conformance.sh PROFDIFF\` compares profdiff's JSON output with them."
	echo
	echo "## Layout"
	echo
	echo "Every golden is the stdout of"
	echo
	echo "    go tool pprof $COMMON \\"
	echo "        -sample_index=<index> -unit=<u> [-<gran>] [-diff_base=<base>] <file>"
	echo
	echo "run with TZ=UTC:"
	echo
	echo "- \`top/<file>.<index>.txt\`: one per sample type of every profile."
	echo "- \`top/<file>.<index>.<gran>.txt\`: the same with \`-<gran>\` (one of"
	echo "  $(echo "$GRANS" | sed 's/ /, /g')) for $(echo "$GRAN_FILES" | sed 's/ /, /g'),"
	echo "  and with -$(echo "$PPROF_GRANS" | sed 's/ /, -/g') for the profiles of $PPROF_DATA/"
	echo "  but large.cpu."
	echo "- \`diff/<base>--<new>.<index>.txt\`: the same with \`-diff_base=<base> <new>\`."
	echo "- \`filter/<name>.txt\`: the same with the filter flags of case <name> in"
	echo "  tests/filter-cases.tsv (-focus, -ignore, -hide, -show, -tagfocus, -tagignore,"
	echo "  -relative_percentages), which also lists profdiff's flags for the case."
	echo
	echo "\`<file>\` is looked up in tests/data/corpus/, $PPROF_DATA/, examples/,"
	echo "../shared/corpus/ and tests/data/types/, in that order.  Of"
	echo "tests/data/types (the runs of examples/types) only these have goldens:"
	# shellcheck disable=SC2086
	echo $TYPES_FILES. | sed 's/ /, /g' | fold -s -w 76 | sed 's/ *$//; s/^/  /'
	echo "Goldens whose profile is only in ../shared/corpus/ (licenses that do not allow"
	echo "copying it here) are checked only where that folder exists."
	echo
	echo "## -unit"
	echo
	echo "\`-unit\` is the sample type's own unit in pprof's spelling, so that pprof"
	echo "prints every value as an exact integer in that unit.  pprof's formatter is"
	echo "\`%.2f\` with \`.00\` trimmed, applied after a unit conversion, and converting a"
	echo "unit to itself is exact: nanoseconds -> \`-unit=ns\` (printed \`123ns\`),"
	echo "microseconds -> \`-unit=us\` (\`123us\`), bytes -> \`-unit=b\` (\`123B\`).  Units pprof"
	echo "does not know (count, samples, the empty unit) are never scaled, and"
	echo "\`-unit=count\` prints them with no suffix.  (\`-unit=count\` on a known unit"
	echo "would convert it to seconds or bytes; \`-unit=ns\` on a count prints \`123ns\`.)"
	echo "gen-expected.sh fails if any value in any golden is not an integer."
	echo
	echo "| unit in profile | -unit | sample types |"
	echo "|---|---|---|"
	awk -F'\t' '{ k = "`" ($3 == "" ? "(empty)" : $3) "` | `" $4 "`"; n[k]++ }
	    END { for (k in n) print "| " k " | " n[k] " |" }' "$tmp/units" | sort
	echo
	echo "## Reading pprof's table"
	echo
	echo "- Header lines (File, Build ID, profile comments, Type, Time, Duration) come"
	echo "  before \`Showing nodes accounting for X, Y% of Z total\` and the column line."
	echo "  Type is missing when the sample type is empty, Time and Duration when the"
	echo "  profile has none."
	echo "- A row is \`%10s %s %s %10s %s  NAME\`: values wider than 10 characters push"
	echo "  the columns right, and NAME starts after exactly two spaces."
	echo "- NAME may be followed by \` (inline)\` (every caller reaches the node through"
	echo "  an inlined frame) or \` (partial-inline)\` (some do): a label, not part of the"
	echo "  name.  Names may contain spaces, and in edge-invalid-utf8 a newline and NUL"
	echo "  bytes, so one row can span two lines."
	echo "- Zero prints as \`0\`, without a unit suffix."
	echo "- Nodes whose flat and cum are both 0 are never printed (in a diff, nodes"
	echo "  whose changes cancel out disappear)."
	echo "- Z is the sum of |value| over all samples; in a diff it is the base"
	echo "  profile's total, and Duration is the sum of both durations."
	echo "- With \`-files\`, pprof keys nodes by file and the function's start line and"
	echo "  object file, so one file name can appear on several rows."
	echo
	echo "## Profiles pprof rejects"
	echo
	if [ -s "$tmp/rejected" ]; then
		echo "These have no golden.  pprof's message:"
		echo
		awk -F'\t' '{ print "- `" $1 "`: " $2 }' "$tmp/rejected"
	else
		echo "None: pprof read every profile."
	fi
} >"$OUT/README.md"

echo "gen-expected: wrote $(find "$OUT/top" "$OUT/diff" -type f | wc -l | tr -d ' ') goldens" >&2

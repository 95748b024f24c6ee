#!/bin/sh
# conformance.sh: compare profdiff with go tool pprof, the reference, on
# the goldens in tests/expected/ (written by tests/gen-expected.sh).
#
# For tests/expected/top/<file>.<index>[.<gran>].txt it runs
#   PROFDIFF top -n 0 -i <index> [--granularity <gran>] [--noinlines] \
#       --format json <file>
# and for tests/expected/diff/<base>--<new>.<index>.txt
#   PROFDIFF diff -n 0 -i <index> --format json <base> <new>
# and for tests/expected/filter/<name>.txt, with the flags of case <name>
# in tests/filter-cases.tsv,
#   PROFDIFF top -n 0 -i <index> <flags> --format json <file>
# where each profile is looked up in tests/data/corpus/,
# tests/data/pprof-testdata/ (google/pprof's own test profiles, most in the
# legacy formats), examples/, ../shared/corpus/ and tests/data/types/
# (relative to the repository root), in that order.
# Goldens whose profile is in none of them are skipped and counted.
#
# What must agree:
#  - every row pprof prints exists in profdiff's rows with the same flat and
#    cum (for diff: new - base), after converting both to one integer unit;
#  - every profdiff row pprof does not print has flat and cum (for diff:
#    both differences) equal to 0;
#  - the "of Z total" in pprof's header equals profiles[0].total (top) or,
#    when profdiff prints it, base.total (diff: Z is the base's total).
# Row names are compared with NUL bytes spelled \x00, as profdiff prints
# them (a C string cannot hold one), and without pprof's " (inline)" and
# " (partial-inline)" suffixes: they say whether all or some of a node's
# callers reach it through inlined calls, and are not part of its name.  When pprof prints one
# name on several rows (its -files nodes are also keyed by the function's
# start line) and profdiff prints it once, profdiff's flat must be their
# sum and its cum must lie between their largest cum and their sum.
#
# Output: one line per case, "ok <case>" or "FAIL <case>: <first mismatch>",
# then "conformance: N passed, N failed, N skipped".  Exit 1 if any case
# failed, 2 on a usage error.  Needs only POSIX sh and jq (1.6 or later).
#
# Usage: sh tests/conformance.sh PROFDIFF_BINARY

set -u

if [ $# -ne 1 ]; then
	echo "usage: sh tests/conformance.sh PROFDIFF_BINARY" >&2
	exit 2
fi

# Resolve the binary before leaving the caller's directory.
case $1 in
/*)	PROFDIFF=$1 ;;
*/*)	PROFDIFF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") ;;
*)	PROFDIFF=$(command -v "$1") || { echo "conformance: $1: not found" >&2; exit 2; } ;;
esac
if [ ! -x "$PROFDIFF" ]; then
	echo "conformance: $PROFDIFF: not executable" >&2
	exit 2
fi
command -v jq >/dev/null 2>&1 || { echo "conformance: jq not found" >&2; exit 2; }

cd "$(dirname "$0")/.." || exit 2
LC_ALL=C
export LC_ALL

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

# The comparison, in jq.  Inputs: $exp, the golden as raw text; $got, the
# slurped profdiff output; $mode, "top" or "diff".  Prints "ok" or the first
# mismatch.  (Single quotes on purpose: the $ are jq's.)
# shellcheck disable=SC2016
COMPARE='
def strip_inline: sub(" \\((partial-)?inline\\)$"; "") | gsub("\u0000"; "\\x00");

# A profile unit ("nanoseconds", "bytes", "count") to [class, factor to
# the class base unit], with the lookup rules of pprof
# (internal/measurement): lowercase, drop one trailing "s" if longer than
# two characters, then match an alias.  Unknown units are [null, 1].
def unitinfo:
	ascii_downcase as $l
	| (if ($l | length) > 2 then ($l | sub("s$"; "")) else $l end) as $u
	| if   $u == "b" or $u == "byte" then ["bytes", 1]
	  elif $u == "kb" or $u == "kbyte" or $u == "kilobyte" then ["bytes", 1024]
	  elif $u == "mb" or $u == "mbyte" or $u == "megabyte" then ["bytes", 1048576]
	  elif $u == "gb" or $u == "gbyte" or $u == "gigabyte" then ["bytes", 1073741824]
	  elif $u == "tb" or $u == "tbyte" or $u == "terabyte" then ["bytes", 1099511627776]
	  elif $u == "pb" or $u == "pbyte" or $u == "petabyte" then ["bytes", 1125899906842624]
	  elif $u == "ns" or $u == "nanosecond" then ["time", 1]
	  elif $u == "us" or $u == "μs" or $u == "microsecond" then ["time", 1000]
	  elif $u == "ms" or $u == "millisecond" then ["time", 1000000]
	  elif $u == "s" or $u == "sec" or $u == "second" then ["time", 1000000000]
	  elif $u == "hr" or $u == "hour" then ["time", 3600000000000]
	  else [null, 1] end;

# The suffixes pprof puts after a value (its canonical unit names), longest
# match first, with [class, factor].  A value with no suffix is in the
# profile unit.
def SUFFIX: {"hrs": ["time", 3600000000000], "ns": ["time", 1], "us": ["time", 1000],
	"ms": ["time", 1000000], "s": ["time", 1000000000], "kB": ["bytes", 1024],
	"MB": ["bytes", 1048576], "GB": ["bytes", 1073741824],
	"TB": ["bytes", 1099511627776], "PB": ["bytes", 1125899906842624], "B": ["bytes", 1]};
def SUFFIXES: "hrs", "ns", "us", "ms", "s", "kB", "MB", "GB", "TB", "PB", "B";

# A value pprof printed ("0", "2974", "-230000000ns", "87244800B") in the
# base unit of the profile unit whose unitinfo is $pu.  (No regex here:
# jq 1.6 compiles one per call, which is slow on the large goldens.)
def pval($pu):
	. as $s
	| (first(SUFFIXES as $x | select($s | endswith($x)) | $x) // "") as $u
	| $s[:($s | length) - ($u | length)] as $n
	# Digits only, so tonumber cannot fail.  (No "try": in jq 1.6 a try
	# also catches errors raised after it in the same pipeline.)
	| if ($n | ltrimstr("-") | explode | length > 0 and all(.[]; . >= 48 and . <= 57)) | not then
		error("pprof value \($s | tojson) is not an integer")
	  else ($n | tonumber) end
	| . as $v
	| if $u == "" then $v * $pu[1]
	  elif SUFFIX[$u][0] != $pu[0] then
		error("pprof value \($s | tojson) does not convert to the profile unit")
	  else $v * SUFFIX[$u][1] end;

# A value profdiff printed, in the base unit of $pu.
def dval($pu; $what):
	if type != "number" or . != floor then
		error("profdiff \($what) \(tojson) is not an integer")
	else . * $pu[1] end;

def ROW: "^ *(?<flat>\\S+) +(?<fp>\\S+%) +(?<sp>\\S+%) +(?<cum>\\S+) +(?<cp>\\S+%)  (?<name>.*)$";

def main:
	($got | if length != 1 then error("profdiff printed \(length) JSON values, not 1") else .[0] end) as $g
	# top output names its profile in profiles[0]; diff output may name
	# the two in base and new instead.
	| ($g.profiles[0].unit // $g.base.unit // $g.new.unit // "") as $unit
	| ($unit | unitinfo) as $pu
	| ($exp | split("\n") | if length > 0 and .[-1] == "" then .[:-1] else . end) as $lines
	| ([range(0; $lines | length) | select($lines[.] | test("^ +flat +flat% +sum% +cum +cum%$"))][0]
	    // error("golden has no table header")) as $h

	# pprof rows, in table order.  A line that is not a row continues the
	# previous name (names may contain newlines).  The reduce is slow in
	# jq 1.6, so it only runs when there is such a line.
	| ([$lines[$h + 1:][] | (capture(ROW) // {cont: .})]
	   | if any(.[]; has("cont")) then
		reduce .[] as $r ([];
			if ($r | has("cont")) | not then .[length] = $r
			elif length > 0 then .[-1].name = .[-1].name + "\n" + $r.cont
			else error("golden line \($r.cont | tojson) is not a row") end)
	     else . end
	   | map({key: (.name | strip_inline), name, flat: (.flat | pval($pu)), cum: (.cum | pval($pu))})
	  ) as $prows

	# profdiff rows, keyed the same way.
	| ($g.rows // error("profdiff output has no rows")
	   | map(. as $r
		| if ($r.name | type) != "string" then error("profdiff row without a name: \($r | tojson)") else . end
		| {key: ($r.name | strip_inline), name: $r.name}
		  + if $mode == "diff" then
			{flat: (($r.new_flat | dval($pu; "new_flat")) - ($r.base_flat | dval($pu; "base_flat"))),
			 cum: (($r.new_cum | dval($pu; "new_cum")) - ($r.base_cum | dval($pu; "base_cum")))}
		    else
			{flat: ($r.flat | dval($pu; "flat")), cum: ($r.cum | dval($pu; "cum"))}
		    end)
	  ) as $drows

	# (Not .[k] += [x]: in jq 1.6 that copies the whole object each time.)
	| (reduce $prows[] as $r ({}; .[$r.key] = (.[$r.key] // []) + [$r])) as $pby
	| (reduce $drows[] as $r ({}; .[$r.key] = (.[$r.key] // []) + [$r])) as $dby
	| (if $mode == "diff" then "new - base " else "" end) as $d

	# Every pprof row, in table order.
	| (reduce $prows[] as $r (null;
		if . != null then . else
		$pby[$r.key] as $p | $dby[$r.key] as $q
		| if $q == null then
			"row \($r.name | tojson) (\($d)flat \($r.flat), cum \($r.cum)) missing from profdiff"
		  elif ($p | length) == ($q | length) then
			if ($p | map([.flat, .cum]) | sort) == ($q | map([.flat, .cum]) | sort) then null
			elif ($p | length) == 1 then
				if $p[0].flat != $q[0].flat then
					"row \($r.name | tojson): \($d)flat pprof \($p[0].flat) != profdiff \($q[0].flat)"
				else
					"row \($r.name | tojson): \($d)cum pprof \($p[0].cum) != profdiff \($q[0].cum)"
				end
			else
				"rows named \($r.key | tojson): \($d)[flat, cum] pprof \($p | map([.flat, .cum]) | sort | tojson) != profdiff \($q | map([.flat, .cum]) | sort | tojson)"
			end
		  elif ($q | length) == 1 then
			($p | map(.flat) | add) as $fs
			| ($p | map(.cum) | add) as $cs
			| ($p | map(.cum) | max) as $cm
			| if $q[0].flat != $fs then
				"\($p | length) pprof rows named \($r.key | tojson): \($d)flat sum \($fs) != profdiff \($q[0].flat)"
			  elif $q[0].cum < $cm or $q[0].cum > $cs then
				"\($p | length) pprof rows named \($r.key | tojson): profdiff \($d)cum \($q[0].cum) outside [\($cm), \($cs)]"
			  else null end
		  else
			"\($p | length) pprof rows but \($q | length) profdiff rows named \($r.key | tojson)"
		  end
		end)) as $m1

	# Every profdiff row pprof does not print must be zero.
	| (first($drows[] | select($pby[.key] == null and (.flat != 0 or .cum != 0))
		| "profdiff row \(.name | tojson) (\($d)flat \(.flat), cum \(.cum)) is not in pprof and not zero") // null) as $m2

	# The total.  pprof sums |value| over all samples; in a diff it prints
	# the base total, checked when profdiff names the base (base.total).
	| (if $mode == "filter" then $g.total // error("profdiff output has no total")
	   elif $mode == "top" then $g.profiles[0].total // error("profdiff output has no profiles[0].total")
	   else $g.base.total end) as $dtotal
	| (if $dtotal == null then null else
		($lines[:$h] | map(capture("^Showing nodes accounting for .*, .* of (?<t>[^ ]*) total$") | .t)[0]
		    // error("golden has no total")) as $t
		| if ($t | pval($pu)) != ($dtotal | dval($pu; "total")) then
			"total: pprof \($t) != profdiff \($dtotal) \($unit)"
		  else null end
	   end) as $m3

	| $m1 // $m2 // $m3 // "ok";

try main catch ("" + (if type == "string" then . else tojson end))
'

GRANS=" lines files addresses filefunctions noinlines "
npass=0
nfail=0
nskip=0

# find NAME: the path of profile NAME, or nothing.
find_profile() {
	for d in tests/data/corpus tests/data/pprof-testdata examples ../shared/corpus tests/data/types; do
		if [ -f "$d/$1" ]; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}

# result CASE MESSAGE: print and count one case.
result() {
	if [ "$2" = ok ]; then
		printf 'ok %s\n' "$1"
		npass=$((npass + 1))
	else
		printf 'FAIL %s: %s\n' "$1" "$2"
		nfail=$((nfail + 1))
	fi
}

# check CASE GOLDEN MODE ARGS...: run profdiff with ARGS and compare.
check() {
	case_=$1
	golden=$2
	mode=$3
	shift 3
	"$PROFDIFF" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -ne 0 ]; then
		result "$case_" "profdiff exited $st: $(head -n 1 "$tmp/err")"
		return
	fi
	if ! msg=$(jq -n -r --arg mode "$mode" --rawfile exp "$golden" \
	    --slurpfile got "$tmp/out" "$COMPARE" 2>&1); then
		msg="jq could not read the output: $(printf '%s\n' "$msg" | head -n 1)"
	fi
	result "$case_" "$(printf '%s\n' "$msg" | head -n 1)"
}

for golden in tests/expected/top/*.txt; do
	[ -f "$golden" ] || continue
	b=${golden##*/}
	b=${b%.txt}
	gran=
	case $GRANS in
	*" ${b##*.} "*)	gran=${b##*.}; b=${b%.*} ;;
	esac
	index=${b##*.}
	file=${b%.*}
	if ! path=$(find_profile "$file"); then
		nskip=$((nskip + 1))
		continue
	fi
	case $gran in
	"")		set -- ;;
	noinlines)	set -- --noinlines ;;
	*)		set -- --granularity "$gran" ;;
	esac
	check "top/${golden##*/}" "$golden" top \
	    top -n 0 -i "$index" "$@" --format json "$path"
done

for golden in tests/expected/diff/*.txt; do
	[ -f "$golden" ] || continue
	b=${golden##*/}
	b=${b%.txt}
	index=${b##*.}
	pair=${b%.*}
	base=${pair%%--*}
	new=${pair#*--}
	if ! bpath=$(find_profile "$base") || ! npath=$(find_profile "$new"); then
		nskip=$((nskip + 1))
		continue
	fi
	check "diff/${golden##*/}" "$golden" diff \
	    diff -n 0 -i "$index" --format json "$bpath" "$npath"
done

# The filter cases: pprof's total is then the denominator of its
# percentages (of the filtered samples with -relative_percentages), which
# profdiff prints as "total".
grep -v '^#' tests/filter-cases.tsv > "$tmp/cases"
while IFS='	' read -r name file index pflags dflags; do
	golden=tests/expected/filter/$name.txt
	[ -f "$golden" ] || continue
	if ! path=$(find_profile "$file"); then
		nskip=$((nskip + 1))
		continue
	fi
	# shellcheck disable=SC2086
	check "filter/$name" "$golden" filter \
	    top -n 0 -i "$index" $dflags --format json "$path"
done < "$tmp/cases"

echo "conformance: $npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ]

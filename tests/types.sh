#!/bin/sh
# Acceptance test on real profiles of every type Go writes besides CPU,
# whose answer is known: the runs of examples/types in tests/data/types
# (its README says how they were made), cross-paired, one profile a
# side.  Per type and sample index:
#
# 1. False alarms: every ordered pair of distinct no-change runs.
#    Counted: check-significance exits 1 (a regression finding), and
#    diff -f json -n 0 has any finding.
# 2. Power: every (no-change, changed) pair, for each change made for
#    that type.  Counted as found: a regression finding of diff names the
#    injected function: it is the finding's function or on its path, or
#    the first of the calls its line "under it" lists (JSON under), where
#    a change of the function's cum went; the wrong way: an improvement
#    finding names it; and check-significance's exit 1.  The pairs found
#    only through "under it" are counted beside.
# 3. Negative values: profdiff top and diff on the delta heap profiles
#    (net/http/pprof's /debug/pprof/heap?seconds=2, whose in-use values
#    fall where memory was freed), alone (top) and paired with the one
#    before (diff).  profdiff must refuse them (exit 2, one line on
#    standard error naming the file) or read them and never print a share
#    beyond +-100%: no percentage of top's table, and no change of share
#    or end of its interval in diff's JSON.  Their allocations only grow:
#    on alloc_objects and alloc_space, every ordered pair of the
#    no-change deltas must be read (no exit 2), and check-significance's
#    exit 1 and diff's findings are false alarms, held to the bound of 1.
# 4. Allocation windows from delta profiles, tests/data/types-delta
#    (TYPES_DELTA names another folder like it): its no-change pairs held
#    to the bound of 1, and each change against the no-change runs found
#    and named as in 2 (allocs-bigger on alloc_objects held to the bound).
#
#	sh tests/types.sh BUILD_DIR
#
# The types, their sample indexes, and the changes (MANIFEST.tsv's
# variant) whose power is measured:
#
#	allocs     alloc_objects alloc_space   allocs-more, allocs-bigger
#	heap       inuse_objects inuse_space   heap-leak
#	mutex      contentions delay           mutex
#	block      contentions delay           block
#	goroutine  goroutine                   goroutines
#
# The checks are issue 18's targets: no-change pairs exit 1 and have a
# finding at most 5% of the time each (the rate measured may exceed 5%
# by 3 binomial standard errors of its count, as tests/real.sh and
# tests/sim.sh allow); each change is found and named in at least 80% of
# its pairs; and no pair is refused (exit 2), except the delta profiles,
# which may be.  One change is the other way round: allocs-bigger makes
# main.buildIndex's objects twice as big and no more numerous, so on
# alloc_objects a regression finding naming it is a false alarm, held to
# the no-change bound.  Pairs share runs, so the rates are less certain
# than their counts suggest.
#
# Allocations, mutex and block profiles are cumulative over the
# process's life: each run's window is the profile less its snapshot
# taken 3 s before (--base, as pprof's -base), the way two windows of a
# running service are compared.  TYPES_WINDOWS=0 compares the cumulative
# profiles whole instead.
#
# TYPES_SIDE=N (1 to 9; default 1) compares N profiles a side instead:
# the no-change pairs are every ordered pair of disjoint windows of N
# consecutive no-change runs (cyclically), the power pairs every window
# of N no-change runs against every window of N changed ones.  Each
# profile subtracts its own snapshot (--base once per profile).
#
# TYPES_DATA names another folder with a MANIFEST.tsv of the same
# columns (tests/data/types/capture.sh writes one); TYPES_ONLY=TYPE runs
# one type, TYPES_ONLY="TYPE ..." several; TYPES_ARGS="OPTION ..." adds
# options to the pairs' check-significance and diff (sections 1 and 2),
# to measure another --min-effect, say.  Each check prints "ok - ..."
# or "not ok - ..."; "# " lines are information.  The last line is
# "types: N passed, N failed"; the exit status is 1 if a check failed, 2
# on a usage error or when a report does not parse.
set -u

if [ $# -ne 1 ]; then
	echo "usage: sh tests/types.sh BUILD_DIR" >&2
	exit 2
fi
PD=$1/profdiff
case $PD in /*) ;; *) PD=$(pwd)/$PD ;; esac
if [ ! -x "$PD" ]; then
	echo "types: $PD: not found (make)" >&2
	exit 2
fi
DATA=${TYPES_DATA:-$(dirname "$0")/data/types}
DATA=$(cd "$DATA" && pwd) || exit 2
MAN=$DATA/MANIFEST.tsv
ONLY=${TYPES_ONLY:-}
ARGS=${TYPES_ARGS:-}
SIDE=${TYPES_SIDE:-1}
case $SIDE in [1-9]) ;; *) echo "types: TYPES_SIDE: $SIDE is not 1 to 9" >&2; exit 2 ;; esac
command -v jq >/dev/null 2>&1 || { echo "types: needs jq" >&2; exit 2; }
[ -f "$MAN" ] || { echo "types: $MAN: not found" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/types.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
pass=0
fail=0
start=$(date +%s)
die() { echo "types: $*" >&2; exit 2; }
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; }
# check COND MESSAGE...: COND is an awk expression.
check() {
	_c=$1
	shift
	if awk "BEGIN { exit !($_c) }"; then ok "$*"; else not_ok "$*"; fi
}

# The sample indexes and changes of each type, as in the header.
indexes() {
	case $1 in
	allocs)		echo "alloc_objects alloc_space" ;;
	heap)		echo "inuse_objects inuse_space" ;;
	mutex | block)	echo "contentions delay" ;;
	goroutine)	echo "goroutine" ;;
	esac
}
changes() {
	case $1 in
	allocs)		echo "allocs-more allocs-bigger" ;;
	heap)		echo "heap-leak" ;;
	mutex)		echo "mutex" ;;
	block)		echo "block" ;;
	goroutine)	echo "goroutines" ;;
	esac
}
TYPES="allocs heap mutex block goroutine"
[ -z "$ONLY" ] || TYPES=$ONLY
# wanted TYPE: is TYPE among those run?
wanted() { case " $TYPES " in *" $1 "*) return 0 ;; esac; return 1; }
for t in $TYPES; do
	[ -n "$(indexes "$t")" ] || die "TYPES_ONLY: $t is not a type"
done

# jobs.tsv: id, type, index, category (null or the change), the injected
# function, base file, new file.  Only the end-of-run profiles (kind
# "end"): the .base snapshots and .delta profiles are for other tests.
awk -F'\t' 'NR > 1 && $5 == "end" { print $1 "\t" $2 "\t" $3 "\t" $4 }' \
    "$MAN" >"$tmp/runs"
: >"$tmp/jobs.tsv"
for t in $TYPES; do
	for ix in $(indexes "$t"); do
		awk -F'\t' -v t="$t" -v ix="$ix" -v ch="$(changes "$t")" \
		    -v side="$SIDE" '
		$2 == t { v = $3; run[v, ++n[v]] = $1; fn = $4 }
		# The runs i, i + 1, ... of variant v, side of them, cyclically.
		function runs(v, i,    k, s) {
			s = run[v, i]
			for (k = 1; k < side; k++)
				s = s " " run[v, (i - 1 + k) % n[v] + 1]
			return s
		}
		END {
			if (side > 1) {
				# Null: every ordered pair of disjoint windows
				# of side runs; power: every window of side
				# no-change runs against every one of changed.
				for (i = 1; i <= n["none"]; i++)
					for (d = side; d <= n["none"] - side; d++)
						printf "%s\t%s\tnull\t%s\t%s\t%s\n", t,
						    ix, fn, runs("none", i),
						    runs("none", (i - 1 + d) % n["none"] + 1)
				k = split(ch, c, " ")
				for (x = 1; x <= k; x++)
					for (i = 1; i <= n["none"]; i++)
						for (j = 1; j <= n[c[x]]; j++)
							printf "%s\t%s\t%s\t%s\t%s\t%s\n",
							    t, ix, c[x], fn, runs("none", i),
							    runs(c[x], j)
				exit
			}
			for (i = 1; i <= n["none"]; i++)
				for (j = 1; j <= n["none"]; j++)
					if (i != j)
						printf "%s\t%s\tnull\t%s\t%s\t%s\n", t, ix,
						    fn, run["none", i], run["none", j]
			k = split(ch, c, " ")
			for (x = 1; x <= k; x++)
				for (i = 1; i <= n["none"]; i++)
					for (j = 1; j <= n[c[x]]; j++)
						printf "%s\t%s\t%s\t%s\t%s\t%s\n", t, ix,
						    c[x], fn, run["none", i], run[c[x], j]
		}' "$tmp/runs" >>"$tmp/jobs.tsv"
	done
done
njobs=$(wc -l <"$tmp/jobs.tsv")
[ "$njobs" -gt 0 ] || die "$MAN: no runs"
echo "# $njobs comparisons, $SIDE profile(s) a side, in $DATA"

mkdir "$tmp/d"
cd "$DATA" || exit 2
i=0
while IFS='	' read -r t ix cat fn base new; do
	i=$((i + 1))
	# A cumulative profile's window: less its snapshot 3 s before.
	# Each profile its own, in the operands' order.
	win=""
	if [ "${TYPES_WINDOWS:-1}" = 1 ]; then
		for f in $base $new; do
			if [ ! -f "${f%.pb.gz}.base.pb.gz" ]; then
				win=""
				break
			fi
			win="$win --base ${f%.pb.gz}.base.pb.gz"
		done
	fi
	# shellcheck disable=SC2086
	"$PD" check-significance -q -f json -n 0 -i "$ix" $ARGS $win $base \
	    -- $new >"$tmp/d/c$i.json" 2>"$tmp/d/c$i.err"
	cs=$?
	# shellcheck disable=SC2086
	"$PD" diff -q -f json -n 0 -i "$ix" $ARGS $win $base -- $new \
	    >"$tmp/d/d$i.json" 2>"$tmp/d/d$i.err"
	ds=$?
	printf '%d\t%s\t%s\t%s\t%s\t%d\t%d\n' $i "$t" "$ix" "$cat" "$fn" \
	    $cs $ds >>"$tmp/status"
done <"$tmp/jobs.tsv"
cd - >/dev/null || exit 2

# Per diff report that exists (diff exited 0): regression findings,
# improvement findings, whether a regression finding names the function
# and whether an improvement does, and the findings as verdict:path.
: >"$tmp/diff.tsv"
for f in "$tmp"/d/d*.json; do
	[ -s "$f" ] || continue
	jq -r --arg fn "$(awk -F'\t' -v id="$(basename "$f" .json | tr -d d)" \
	    '$1 == id { print $5 }' "$tmp/status")" '
	    def names($f; $t): any(($f.path + [$f.function])[]; . == $t);
	    def named($v; $t): if any(.findings[]; .verdict == $v and names(.; $t))
	        then 1 else 0 end;
	    [(input_filename | sub(".*/d"; "") | sub("[.]json$"; "")),
	    ([.findings[] | select(.verdict == "regressed")] | length),
	    ([.findings[] | select(.verdict == "improved")] | length),
	    named("regressed"; $fn), named("improved"; $fn),
	    ([.findings[] | .verdict + ":" + (.path | join(">"))] |
	        join(" ")),
	    (if any(.rows[]; .name == $fn and .under_min_effect and
	        .delta > 0) then 1 else 0 end),
	    (if any(.findings[]; .verdict == "regressed" and
	        (.under // [])[0].name == $fn) then 1 else 0 end)] |
	    @tsv' "$f" >>"$tmp/diff.tsv" ||
	    die "diff wrote a report that does not parse: $f"
done
# results.tsv: id, type, index, category, function, check-significance
# exit, diff exit, regression findings, improvement findings, found,
# the wrong way, the findings (verdict:path, the path from the root down
# to the finding's function), whether the function's row rose and is
# marked under --min-effect's points, and whether it is the first call
# under a regression finding (its "under it" line).
awk -F'\t' -v OFS='\t' 'FILENAME == ARGV[1] { d[$1] = $0; next }
{ split(d[$1], x, "\t")
  if (!($1 in d)) { x[2] = x[3] = x[4] = x[5] = x[7] = x[8] = 0; x[6] = "" }
  print $1, $2, $3, $4, $5, $6, $7, x[2], x[3], x[4], x[5], x[6], x[7],
      x[8] }' \
    "$tmp/diff.tsv" "$tmp/status" >"$tmp/results.tsv"

# rate TYPE INDEX CAT COND: "k n" for the pairs where the awk condition
# COND holds.
rate() {
	awk -F'\t' -v t="$1" -v ix="$2" -v c="$3" '
	    $2 == t && $3 == ix && $4 == c { n++; if ('"$4"') k++ }
	    END { printf "%d %d\n", k, n }' "$tmp/results.tsv"
}
fmt() { echo "$1" | awk '{ if ($2) printf "%d/%d (%.1f%%)", $1, $2, 100 * $1 / $2;
    else printf "none" }'; }
# findings_of TYPE INDEX CAT: the findings of those pairs, most frequent
# first.
findings_of() {
	awk -F'\t' -v t="$1" -v ix="$2" -v c="$3" \
	    '$2 == t && $3 == ix && $4 == c && $12 != "" { print $12 }' \
	    "$tmp/results.tsv" | tr ' ' '\n' | awk 'NF { n[$0]++ }
	    END { for (x in n) print n[x] "\t" x }' | sort -k1,1nr -k2,2 |
	    head -3 | awk -F'\t' '{ printf "#       %4d %s\n", $1, $2 }'
}
# refused TYPE INDEX CAT: the first message of a pair that exited 2.
refused() {
	id=$(awk -F'\t' -v t="$1" -v ix="$2" -v c="$3" \
	    '$2 == t && $3 == ix && $4 == c && ($6 == 2 || $7 == 2) { print $1; exit }' \
	    "$tmp/results.tsv")
	[ -n "$id" ] && head -1 "$tmp/d/d$id.err" "$tmp/d/c$id.err" 2>/dev/null |
	    grep -v '^==>' | grep . | head -1
}
bound() { awk -v n="$1" 'BEGIN { if (n < 1) n = 1
    printf "%.3f", 0.05 + 3 * sqrt(0.05 * 0.95 / n) }'; }

# ---------------------------------------------------------------------
echo "# per type and sample index: false alarms of no-change pairs" \
    "(check-significance exit 1; diff has any finding), and per change" \
    "the pairs where a regression finding names the injected function," \
    "where an improvement names it, and where check-significance exits 1"
: >"$tmp/checks"
for t in $TYPES; do
	for ix in $(indexes "$t"); do
		fn=$(awk -F'\t' -v t="$t" '$2 == t { print $4; exit }' "$tmp/runs")
		e1=$(rate "$t" "$ix" null '$6 == 1')
		an=$(rate "$t" "$ix" null '$8 + $9 > 0')
		e2=$(rate "$t" "$ix" null '$6 == 2 || $7 == 2')
		e3=$(rate "$t" "$ix" null '$6 == 3')
		sm=$(rate "$t" "$ix" null '$13 == 1')
		echo "#   $t $ix: no change: exit 1 in $(fmt "$e1"), a finding" \
		    "in $(fmt "$an"), exit 3 in $(fmt "$e3"), refused (exit 2)" \
		    "in $(fmt "$e2"); $fn marked under --min-effect's points" \
		    "in $(fmt "$sm")"
		findings_of "$t" "$ix" null
		r=$(refused "$t" "$ix" null)
		[ -z "$r" ] || echo "#       refused: $r"
		printf 'null\t%s\t%s\t%s\t%s\t%s\n' "$t" "$ix" "$e1" "$an" \
		    "$e2" >>"$tmp/checks"
		for c in $(changes "$t"); do
			hit=$(rate "$t" "$ix" "$c" '$10 == 1 || $14 == 1')
			wr=$(rate "$t" "$ix" "$c" '$11 == 1')
			ce=$(rate "$t" "$ix" "$c" '$6 == 1')
			c2=$(rate "$t" "$ix" "$c" '$6 == 2 || $7 == 2')
			sm=$(rate "$t" "$ix" "$c" '$10 == 0 && $14 == 0 && $13 == 1')
			un=$(rate "$t" "$ix" "$c" '$10 == 0 && $14 == 1')
			echo "#   $t $ix: $c ($fn): found in $(fmt "$hit")," \
			    "the wrong way in $(fmt "$wr"), exit 1 in" \
			    "$(fmt "$ce"), refused in $(fmt "$c2"); not found" \
			    "but marked under --min-effect's points in" \
			    "$(fmt "$sm"); found only as the first call under" \
			    "a regression finding's function in $(fmt "$un")"
			findings_of "$t" "$ix" "$c"
			r=$(refused "$t" "$ix" "$c")
			[ -z "$r" ] || echo "#       refused: $r"
			printf 'power\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$ix" \
			    "$c" "$fn" "$hit" "$c2" >>"$tmp/checks"
		done
	done
done

# ---------------------------------------------------------------------
# Negative values: the delta heap profiles.
if wanted heap; then
	awk -F'\t' 'NR > 1 && $5 == "delta" { print $1 }' "$MAN" \
	    >"$tmp/deltas"
	nd=0 nrefused=0 nread=0 nbad=0 badmsg=""
	prev=""
	cd "$DATA" || exit 2
	while read -r f; do
		for ix in inuse_space alloc_space; do
			for cmd in top diff; do
				if [ "$cmd" = top ]; then
					set -- top -q -n 0 -i "$ix" "$f"
				else
					[ -n "$prev" ] || continue
					set -- diff -q -f json -n 0 -i "$ix" "$prev" "$f"
				fi
				nd=$((nd + 1))
				"$PD" "$@" >"$tmp/neg.json" 2>"$tmp/neg.err"
				st=$?
				if [ $st = 2 ]; then
					# Refused: one line, naming a file.
					if [ "$(wc -l <"$tmp/neg.err")" -eq 1 ] &&
					    grep -q "heap-.*delta" "$tmp/neg.err"; then
						nrefused=$((nrefused + 1))
					else
						nbad=$((nbad + 1))
						badmsg="$*: exit 2 without one line naming the file"
					fi
					continue
				fi
				nread=$((nread + 1))
				if [ "$cmd" = top ]; then
					# The text table: every percentage.
					big=$(grep -oE -- '-?[0-9.]+%' "$tmp/neg.json" |
					    tr -d % | awk '$1 > 100 || $1 < -100 { n++ }
					    END { print n + 0 }')
				else
					big=$(jq -r '[.rows[]? | (.delta_pp // 0,
					    .ci_low_pp // 0, .ci_high_pp // 0) |
					    select(. > 100 or . < -100)] | length' \
					    "$tmp/neg.json" 2>/dev/null) || big=parse
				fi
				if [ "$big" != 0 ]; then
					nbad=$((nbad + 1))
					badmsg="$*: exit $st, $big shares beyond +-100%"
				fi
			done
		done
		prev=$f
	done <"$tmp/deltas"
	cd - >/dev/null || exit 2
	echo "# delta heap profiles: $nd runs of top and diff: refused" \
	    "(exit 2, one line naming the file) $nrefused, read $nread," \
	    "wrong $nbad${badmsg:+; e.g. $badmsg}"
	check "$nd > 0 && $nbad == 0" "delta heap profiles (negative values):" \
	    "refused with one line naming the file, or read with no share" \
	    "beyond +-100%, in $((nd - nbad)) of $nd runs"
fi

# ---------------------------------------------------------------------
# A delta profile's allocations only grow, so they are a window's (2 s,
# its duration_nanos), read whatever its in-use values do.
#
# delta_pairs DIR BASES NEWS INDEX FUNCTION: over every pair of a file
# listed in BASES and a different one in NEWS (of DIR), "n e1 an e2 hit":
# the pairs, check-significance's exits 1, diff's pairs with a finding,
# the pairs refused (exit 2), and those where a regression finding names
# FUNCTION (its function or on its path).
delta_pairs() {
	n=0 e1=0 an=0 e2=0 hit=0
	cd "$1" || exit 2
	while read -r f; do
		while read -r g; do
			[ "$f" = "$g" ] && continue
			n=$((n + 1))
			"$PD" check-significance -q -f json -n 0 -i "$4" \
			    "$f" "$g" >/dev/null 2>&1
			st=$?
			[ $st = 1 ] && e1=$((e1 + 1))
			"$PD" diff -q -f json -n 0 -i "$4" "$f" "$g" \
			    >"$tmp/dd.json" 2>/dev/null
			sd=$?
			{ [ $st = 2 ] || [ $sd = 2 ]; } && e2=$((e2 + 1))
			k=$(jq '.findings | length' "$tmp/dd.json" \
			    2>/dev/null) || k=0
			[ "${k:-0}" -gt 0 ] && an=$((an + 1))
			jq -e --arg fn "$5" '[.findings[]? |
			    select(.verdict == "regressed") |
			    select(.function == $fn or
			    ((.path // []) | index($fn) != null))] | length > 0' \
			    "$tmp/dd.json" >/dev/null 2>&1 && hit=$((hit + 1))
		done <"$3"
	done <"$2"
	cd - >/dev/null || exit 2
	echo "$n $e1 $an $e2 $hit"
}
# delta_null WHAT DIR LIST INDEX: the checks of no-change pairs.
delta_null() {
	set -- "$1" "$2" "$3" "$4" $(delta_pairs "$2" "$3" "$3" "$4" -)
	bd=$(bound "$5")
	check "$5 > 0 && $6 / $5 <= $bd" "$1, $4, no change:" \
	    "check-significance exits 1 in $(fmt "$6 $5"), at most $bd"
	check "$5 > 0 && $7 / $5 <= $bd" "$1, $4, no change: diff has a" \
	    "finding in $(fmt "$7 $5"), at most $bd"
	check "$5 > 0 && $8 == 0" "$1, $4, no change: read, no pair" \
	    "refused (exit 2): $(fmt "$8 $5")"
}
if wanted heap || wanted allocs; then
	awk -F'\t' 'NR > 1 && $5 == "delta" && $3 == "none" { print $1 }' \
	    "$MAN" >"$tmp/nulldeltas"
	for ix in alloc_objects alloc_space; do
		delta_null "delta heap profiles" "$DATA" "$tmp/nulldeltas" "$ix"
	done
	# Windows whose answer is known: tests/data/types-delta.
	DD=${TYPES_DELTA:-$(dirname "$0")/data/types-delta}
	DD=$(cd "$DD" && pwd) || exit 2
	for v in none allocs-more allocs-bigger; do
		awk -F'\t' -v v="$v" 'NR > 1 && $2 == v { print $1 }' \
		    "$DD/MANIFEST.tsv" >"$tmp/dd-$v"
	done
	for ix in alloc_objects alloc_space; do
		delta_null "allocs?seconds=2 windows" "$DD" "$tmp/dd-none" "$ix"
		for v in allocs-more allocs-bigger; do
			set -- $(delta_pairs "$DD" "$tmp/dd-none" "$tmp/dd-$v" \
			    "$ix" main.buildIndex)
			if [ "$v" = allocs-bigger ] && [ "$ix" = alloc_objects ]; then
				bd=$(bound "$1")
				check "$1 > 0 && $5 / $1 <= $bd" "allocs?seconds=2" \
				    "windows, $ix, $v: as many objects, only" \
				    "bigger: a regression finding names" \
				    "main.buildIndex in $(fmt "$5 $1"), at most $bd"
			else
				check "$1 > 0 && $5 / $1 >= 0.80" "allocs?seconds=2" \
				    "windows, $ix, $v: a regression finding names" \
				    "main.buildIndex in $(fmt "$5 $1"), at least 80%"
			fi
			check "$1 > 0 && $4 == 0" "allocs?seconds=2 windows, $ix," \
			    "$v: no pair refused (exit 2): $(fmt "$4 $1")"
		done
	done
fi

# ---------------------------------------------------------------------
# The checks.
while IFS='	' read -r what t ix a b c d; do
	if [ "$what" = null ]; then
		set -- $a
		bd=$(bound "$2")
		check "$2 > 0 && $1 / $2 <= $bd" "$t $ix, no change:" \
		    "check-significance exits 1 in $(fmt "$a"), at most 5%" \
		    "plus 3 binomial standard errors, $bd"
		set -- $b
		check "$2 > 0 && $1 / $2 <= $bd" "$t $ix, no change: diff" \
		    "has a finding in $(fmt "$b"), at most $bd"
		set -- $c
		check "$2 > 0 && $1 == 0" "$t $ix, no change: no pair refused" \
		    "(exit 2): $(fmt "$c")"
		continue
	fi
	# power: a is the change, b the function, c the found rate, d the
	# refused rate.
	set -- $c
	if [ "$a" = allocs-bigger ] && [ "$ix" = alloc_objects ]; then
		bd=$(bound "$2")
		check "$2 > 0 && $1 / $2 <= $bd" "$t $ix, $a: as many" \
		    "objects, only bigger: a regression finding names $b in" \
		    "$(fmt "$c"), at most $bd"
	else
		check "$2 > 0 && $1 / $2 >= 0.80" "$t $ix, $a: a regression" \
		    "finding names $b in $(fmt "$c"), at least 80%"
	fi
	set -- $d
	check "$2 > 0 && $1 == 0" "$t $ix, $a: no pair refused (exit 2):" \
	    "$(fmt "$d")"
done <"$tmp/checks"

echo "# $(($(date +%s) - start)) s"
echo "types: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

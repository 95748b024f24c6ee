#!/bin/sh
# tests/boundaries-mutants.sh: every check of tests/boundaries.sh can
# fail.  A copy of src/, include/ and doc/ gets breaches of each rule
# (profile.pb-c.h from core, a decoder header behind report.h, <stdio.h>
# and a core header in the statistics, an include of a room above,
# another room's private header, a print and an exit below the
# commands, two headers that include each other, a file and a function
# too long, a long function in the commands, a folder that is no room
# and a file straight in src/), and boundaries.sh, run on the copy, must
# name each one, and not a function of exactly the limit.
# The last line is "boundaries-mutants: N passed, N failed".
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 2
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
m=$tmp/tree
mkdir -p "$m"
cp -R src include doc "$m"/

# limit CHECK: the limit the page gives a check.
limit() {
	awk -F'|' -v c="\`$1\`" 'index($2, c) { gsub(/[^0-9]/, "", $5); print $5; exit }' \
	    doc/ARCHITECTURE.md
}
flim=$(limit file-lines)
glim=$(limit function-lines)
rlim=$(limit room-function-lines)

# fn NAME LINES: a function of that many lines, name to closing brace.
fn() {
	awk -v name="$1" -v n="$2" 'BEGIN {
		print "static int"
		print name "(void)"
		print "{"
		print "\tint x = 0;"
		for (i = 0; i < n - 5; i++)
			print "\tx++;"
		print "\treturn x;"
		print "}"
	}'
}

echo '#include "profile.pb-c.h"' >>"$m/src/core/agg.c"
echo '#include "input/pprof_int.h"' >>"$m/src/report/report.h"
echo '#include <stdio.h>' >>"$m/src/stats/stats.c"
echo '#include "core/delta.h"' >>"$m/src/stats/stats_fdr.c"
printf '#include "core/zz_b.h"\n' >"$m/src/core/zz_a.h"
printf '#include "core/zz_a.h"\n' >"$m/src/core/zz_b.h"
echo '#include "cli/cli.h"' >>"$m/src/core/kind.c"
echo '#include "core/agg_int.h"' >>"$m/src/report/report_top.c"
printf 'static void\nzz_say(void)\n{\n\tfputs("x", stderr);\n}\n' >>"$m/src/core/judge.c"
printf 'static void\nzz_quit(void)\n{\n\texit(2);\n}\n' >>"$m/src/load/feed.c"
mkdir -p "$m/src/zz"
echo '/* */' >"$m/src/zz/zz_room.c"
{
	awk -v n="$flim" 'BEGIN { for (i = 0; i <= n; i++) print "/* */" }'
	fn zz_long "$((glim + 1))"
	fn zz_edge "$glim"
} >"$m/src/core/zz_long.c"
echo '/* */' >"$m/src/zz_flat.c"
fn zz_cmd "$((rlim + 1))" >>"$m/src/cli/cmdtab.c"
fl=$(wc -l <"$m/src/core/zz_long.c")

BOUNDARIES_ROOT=$m sh tests/boundaries.sh >"$tmp/out" 2>&1

# want CHECK PATTERN: boundaries.sh named this breach.
want() {
	if grep -q "^FAIL $1: $2" "$tmp/out"; then
		pass=$((pass + 1))
		[ -n "${VERBOSE:-}" ] && echo "ok $1 caught: $2"
	else
		fail=$((fail + 1))
		echo "FAIL boundaries-mutants: $1 missed: $2"
	fi
	return 0
}
want pb-c "src/core/agg.c includes profile.pb-c.h"
want decoder-headers "src/report/report_top.c includes src/input/pprof_int.h (src/report/report_top.c -> src/report/report.h -> src/input/pprof_int.h)"
want pb-c "src/report/report.h includes profile.pb-c.h"
want stats-pure "src/stats/stats.c includes <stdio.h>"
want stats-pure "src/stats/stats_fdr.c includes \"core/delta.h\""
want order "src/stats/stats_fdr.c (room stats) includes src/core/delta.h of room core"
want order "src/core/kind.c (room core) includes src/cli/cli.h of room cli"
want private "src/report/report_top.c (room report) includes src/core/agg_int.h, private to room core"
want prints "src/core/judge.c (room core) prints or exits"
want prints "src/load/feed.c (room load) prints or exits"
want no-cycle "src/core/zz_a.h -> src/core/zz_b.h -> src/core/zz_a.h"
want file-lines "src/core/zz_long.c has $fl lines, over $flim"
want function-lines "src/core/zz_long.c: zz_long() has $((glim + 1)) lines, over $glim"
want room-function-lines "src/cli/cmdtab.c: zz_cmd() has $((rlim + 1)) lines, over $rlim"
want folders "src/zz/zz_room.c is in src/zz/, which is no room"
want folders "src/zz_flat.c is in no room's folder"
# The unchanged tree passes, so each FAIL above is the mutant's.
if BOUNDARIES_ROOT=$here sh tests/boundaries.sh >"$tmp/clean" 2>&1; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL boundaries-mutants: the tree itself fails:"
	grep '^FAIL' "$tmp/clean" | head -5
fi
# A function of exactly the limit is not over it.
if grep -q "zz_edge()" "$tmp/out"; then
	fail=$((fail + 1))
	echo "FAIL boundaries-mutants: a function of $glim lines was called too long"
else
	pass=$((pass + 1))
fi
if tail -1 "$tmp/out" | grep -q '^boundaries: .* passed, .* failed'; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL boundaries-mutants: no summary line"
	tail -5 "$tmp/out"
fi
[ "$fail" -gt 0 ] && sed -n '/^FAIL/p' "$tmp/out" | head -20
echo "boundaries-mutants: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

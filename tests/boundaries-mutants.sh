#!/bin/sh
# tests/boundaries-mutants.sh: every check of tests/boundaries.sh can
# fail.  A copy of src/, include/ and doc/ gets one breach of each rule
# (an include of profile.pb-c.h from agg.c, a decoder header behind
# report.h, <stdio.h> in stats.c, two headers that include each other,
# a file and a function too long, a long function in main.c, a file in
# no room), and boundaries.sh, run on the copy, must name each one, and
# not a function of exactly the limit.
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

echo '#include "profile.pb-c.h"' >>"$m/src/agg.c"
printf '#include "profile.pb-c.h"\n' >"$m/include/pbconv.h"
echo '#include "pbconv.h"' >>"$m/include/report.h"
echo '#include <stdio.h>' >>"$m/src/stats.c"
printf '#include "zz_b.h"\n' >"$m/include/zz_a.h"
printf '#include "zz_a.h"\n' >"$m/include/zz_b.h"
{
	awk -v n="$flim" 'BEGIN { for (i = 0; i <= n; i++) print "/* */" }'
	fn zz_long "$((glim + 1))"
	fn zz_edge "$glim"
} >"$m/src/zz_long.c"
fn zz_cmd "$((rlim + 1))" >>"$m/src/main.c"
fl=$(wc -l <"$m/src/zz_long.c")

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
want pb-c "src/agg.c includes profile.pb-c.h"
want decoder-headers "src/report_top.c includes pbconv.h (report_top.c -> report.h -> pbconv.h)"
want decoder-headers "include/report.h includes profile.pb-c.h"
want stats-pure "src/stats.c includes <stdio.h>"
want no-cycle "zz_a.h -> zz_b.h -> zz_a.h"
want file-lines "src/zz_long.c has $fl lines, over $flim"
want function-lines "src/zz_long.c: zz_long() has $((glim + 1)) lines, over $glim"
want room-function-lines "src/main.c: zz_cmd() has $((rlim + 1)) lines, over $rlim"
want every-file "src/zz_long.c is in no room"
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

#!/bin/sh
# invariants.sh: what every diff report says must agree with itself and
# with the other formats, over every case the suite has (issue 30, "Make
# the class impossible").
#
# For each invocation of profdiff diff or check-significance on profiles
# in a CLI case (tests/cli/*.cmd) and each conformance pair
# (tests/expected/diff/, the profiles looked up as tests/conformance.sh
# does), profdiff runs again with all rows (-n 0) in every format (text,
# markdown, json, csv, svg), and one script asserts:
#  - interval: every row's interval holds its own delta, in the units
#    shown (ci_low <= delta <= ci_high; the flat share's change for a row
#    that only its flat share flagged), and every finding's;
#  - sign: a verdict's sign is its delta's (regressed and crowded in
#    above zero, improved and crowded out below), and no interval is
#    wholly on the other side;
#  - finding: a finding's delta, interval and q are its row's;
#  - agree: text, Markdown, JSON and CSV give the same rows, verdicts
#    and finding numbers, the same findings and exit status; the SVG's
#    frames say the verdict of their own change and are coloured so,
#    and a function drawn as one frame holding all its samples does not
#    go the other way from its row;
#  - svg: the SVG parses as XML;
#  - json: the JSON parses, and its numbers are the text's to the text's
#    printed precision;
#  - csv: the CSV has one column count, and its rows are JSON's.
# tests/tools/invariants.py does the parsing and checking; its comment
# says what each check compares exactly.  Mutants (the contradictions of
# issue 30, items 1, 2, 3 and 7, written into real reports) show that
# each check can fail.
#
# Output: "FAIL CASE: CHECK: ..." lines (VERBOSE=1: "ok" lines and the
# skipped cases too), then "invariants: N passed, N failed, N skipped".
# Exit 1 if any failed, 2 on a usage error.  Needs POSIX sh and python3.
# INVARIANTS_JOBS=N runs N profdiff at a time (default 2);
# INVARIANTS_ONLY=REGEX keeps the cases whose name matches (and then
# runs no mutants).
#
# Usage: sh tests/invariants.sh PROFDIFF_BINARY
set -u

if [ $# -ne 1 ]; then
	echo "usage: sh tests/invariants.sh PROFDIFF_BINARY" >&2
	exit 2
fi
case $1 in
/*)	PROFDIFF=$1 ;;
*/*)	PROFDIFF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") ;;
*)	PROFDIFF=$(command -v "$1") || { echo "invariants: $1: not found" >&2; exit 2; } ;;
esac
if [ ! -x "$PROFDIFF" ]; then
	echo "invariants: $PROFDIFF: not executable" >&2
	exit 2
fi
command -v python3 >/dev/null 2>&1 || {
	echo "invariants: python3 not found (sh tests/setup.sh test)" >&2
	exit 2
}
cd "$(dirname "$0")/.." || exit 2
LC_ALL=C
export LC_ALL
exec python3 tests/tools/invariants.py "$PROFDIFF"

#!/bin/sh
# The functions go tool pprof names in tests/data/symbol/base.prof.gz
# (pprof-top.txt, from capture.sh, so that the tests need no Go) against
# those profdiff names from the same binary: none of pprof's may be
# missing, and those profdiff adds in prog.c and cxx.cpp (inlined
# frames, C++) are listed.  Rows named [file] are a mapping's, not a
# function's.
set -eu
d=tests/data/symbol
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
awk 'NR > 4 && $6 !~ /^\[/ { print $6 }' $d/pprof-top.txt | sort -u >"$t/pprof"
$PROFDIFF top -n 0 --binary-path $d -f json $d/base.prof.gz |
    jq -r '.rows[].name' | sort -u >"$t/profdiff"
$PROFDIFF top -n 0 --binary-path $d --granularity filefunctions -f json \
    $d/base.prof.gz | jq -r '.rows[].name | select(endswith("/prog.c") or
    endswith("/cxx.cpp")) | sub(" [^ ]*$"; "")' | sort -u >"$t/ours"
echo "pprof names: $(tr '\n' ',' <"$t/pprof")"
echo "missing from profdiff: $(comm -23 "$t/pprof" "$t/profdiff" | tr '\n' ',')"
echo "profdiff names in prog.c and cxx.cpp: $(tr '\n' ',' <"$t/ours")"
echo "of them not in pprof: $(comm -13 "$t/pprof" "$t/ours" | tr '\n' ',')"

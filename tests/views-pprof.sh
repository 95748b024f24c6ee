#!/bin/sh
# --list and --peek against go tool pprof's own -list and -peek, whose
# output on the example profiles is committed in tests/expected/views/
# (made in examples/ with go1.19.8, as the file names say):
#	go tool pprof -list 'normalizeWeights|calculateScore' \
#	    -diff_base=good.pb.gz bad.pb.gz >list.txt
#	go tool pprof -noinlines -list ... >list-noinlines.txt
#	go tool pprof -peek 'normalizeWeights|calculateScore|sortByRelevance' \
#	    -diff_base=good.pb.gz bad.pb.gz >peek.txt
# pprof prints new minus base; profdiff's text at --normalize none prints
# the same change in its delta columns.  Each side is reduced to lines
# "function line flat cum" (list) and "function role neighbour change"
# (peek), in nanoseconds, and the two sets must be equal.  Usage:
# sh tests/views-pprof.sh PROFDIFF; prints "ok ..." or the difference
# and exits 1.
set -u
P=${*:?usage: views-pprof.sh PROFDIFF}
cd "$(dirname "$0")/.."
E=tests/expected/views
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
G=examples/good.pb.gz
B=examples/bad.pb.gz

# A pprof or profdiff duration ("-10ms", "+3.17s", ".", "+0") in ns.
NS='function ns(v,  m) {
	if (v == "." || v == "") return 0
	sub(/^\+/, "", v)
	m = 1
	if (v ~ /ns$/) sub(/ns$/, "", v)
	else if (v ~ /us$/) { m = 1e3; sub(/us$/, "", v) }
	else if (v ~ /ms$/) { m = 1e6; sub(/ms$/, "", v) }
	else if (v ~ /s$/) { m = 1e9; sub(/s$/, "", v) }
	return sprintf("%.0f", v * m)
}'

pprof_list() {
	awk "$NS"'
	/^ROUTINE/ { fn = $3; next }
	/^ *[^ ]+ +[^ ]+ +[0-9]+:/ {
		split($0, a, ":"); n = split(a[1], f, " ")
		if (f[1] == "." && f[2] == ".") next
		print fn, f[3], ns(f[1]), ns(f[2])
	}' "$1" | sort
}

profdiff_list() {
	awk "$NS"'
	/^ROUTINE/ { fn = $3; next }
	/ [0-9]+:$/ { print fn, substr($NF, 1, length($NF) - 1), ns($5), ns($6) }
	' | sort
}

pprof_peek() {
	awk "$NS"'
	/^-+\+/ { if (n > 0) flush(); n = 0; c = 0; next }
	/\|/ {
		split($0, a, "|"); t = a[2]; sub(/ \(inline\)$/, "", t)
		split(a[1], f, " ")
		if (t ~ /^   /) { sub(/^ +/, "", t); nb[++n] = t; w[n] = ns(f[1]); at[n] = c }
		else { sub(/^ +/, "", t); fn = t; c = 1 }
	}
	function flush(i) {
		for (i = 1; i <= n; i++)
			print fn, at[i] ? "callee" : "caller", nb[i], w[i]
	}' "$1" | sort
}

profdiff_peek() {
	awk "$NS"'
	/^-+\+/ { if (n > 0) flush(); n = 0; c = 0; next }
	/ \| / {
		split($0, a, " [|] "); t = a[2]; split(a[1], f, " ")
		if (t ~ /^  /) { sub(/^ +/, "", t); nb[++n] = t; w[n] = ns(f[3]); at[n] = c }
		else { sub(/  \(flat .*/, "", t); fn = t; c = 1 }
	}
	function flush(i) {
		for (i = 1; i <= n; i++)
			print fn, at[i] ? "callee" : "caller", nb[i], w[i]
	}' | sort
}

fail=0
check() {
	if cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok $1: $(wc -l <"$tmp/got") values agree with pprof"
	else
		echo "FAIL $1: differs from pprof (< pprof, > profdiff)"
		diff "$tmp/want" "$tmp/got"
		fail=1
	fi
}

RE='normalizeWeights|calculateScore'
pprof_list $E/list.txt >"$tmp/want"
$P diff -q -n 1 --normalize none --list "$RE" $G $B | profdiff_list >"$tmp/got"
check "--list"
pprof_list $E/list-noinlines.txt >"$tmp/want"
$P diff -q -n 1 --normalize none --noinlines --list "$RE" $G $B |
    profdiff_list >"$tmp/got"
check "--list --noinlines"
pprof_peek $E/peek.txt >"$tmp/want"
$P diff -q -n 1 --normalize none --peek "$RE|sortByRelevance" $G $B |
    profdiff_peek >"$tmp/got"
check "--peek"
exit $fail

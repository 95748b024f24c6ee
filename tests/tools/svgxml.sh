#!/bin/sh
# Every SVG is XML, with its text inside the image (tests/cli/svg-xml):
# the SVGs the CLI goldens hold and the committed examples, and SVGs made
# here of what once broke them: a p-value under 1e-300 ("p <1e-300" in
# a <title>), frame names with markup characters, file names and a
# filter too long for a line, and a function name too long for a series
# chart's title.  Run from the repository root with $PROFDIFF set;
# tests/tools/svgxml.py does the checking.  Prints one line per SVG made
# here and one for the goldens; exits 1 if any fails.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

# Folded stacks: 200,000 samples a side, half of them moving, so that
# p is under 1e-300; a name with each of XML's markup characters.
long=$tmp/a-folder-whose-name-goes-on-and-on-for-the-length-of-a-line
long=$long/and-another/quote-service-profile-taken-before-the-deploy
mkdir -p "$(dirname "$long")"
printf '%s\n' 'main;serve;std::vector<int>::push_back 100000' \
    'main;serve;a&b "quoted" '"'"'it'"'"' 100000' >"$long.folded"
printf '%s\n' 'main;serve;std::vector<int>::push_back 190000' \
    'main;serve;a&b "quoted" '"'"'it'"'"' 10000' >"$tmp/new.folded"
fn=main.aFunctionWhoseNameIsLongerThanAnySeriesChartTitleCouldHold
fn=$fn.andThenSomeMoreOfIt
for i in 1 2 3 4 5 6; do
	echo "main;$fn 100" >"$tmp/p$i.folded"
	echo "main;other 900" >>"$tmp/p$i.folded"
done
for i in 7 8 9 10 11 12; do
	echo "main;$fn 600" >"$tmp/p$i.folded"
	echo "main;other 400" >>"$tmp/p$i.folded"
done

svg() {
	name=$1
	shift
	# shellcheck disable=SC2086
	$PROFDIFF "$@" >"$tmp/$name.svg" 2>"$tmp/$name.err"
	code=$?
	if [ "$code" -ne 0 ] && [ "$code" -ne 1 ] && [ "$code" -ne 3 ]; then
		echo "not ok $name: profdiff exits $code"
		head -3 "$tmp/$name.err"
		rc=1
		return
	fi
	if out=$(python3 tests/tools/svgxml.py -q "$tmp/$name.svg"); then
		echo "ok $name"
	else
		echo "$out" | sed "s|$tmp/||"
		rc=1
	fi
}

# What must be in the SVG besides: grep's pattern, and what it shows.
has() {
	if grep -q -- "$2" "$tmp/$1.svg"; then
		echo "ok $1: $3"
	else
		echo "not ok $1: $3"
		rc=1
	fi
}

svg diff diff -q -f svg "$long.folded" "$tmp/new.folded"
has diff 'p &lt;1e-300, q &lt;1e-300' "p under 1e-300, escaped"
has diff 'std::vector&lt;int&gt;::push_back' "a name with < and >, escaped"
has diff 'a&amp;b &quot;quoted&quot; &apos;it&apos;' "a name with & and quotes, escaped"
has diff 'class="h"><title>Differential flame graph: '"$long" \
    "the whole title in a tooltip"
has diff 'Base: .*…' "the base's path elided in the middle"
svg check check-significance -q -f svg "$long.folded" "$tmp/new.folded"
svg filter diff -q -f svg --ignore "$(printf 'x<y&z%.0s' $(seq 60))" \
    "$long.folded" "$tmp/new.folded"
has filter '<text x="23" y="[0-9]*">x&lt;y' "a long filter wrapped, indented"
svg top top -q -f svg "$long.folded"
has top 'class="h"><title>Flame graph: ' "top's whole title in a tooltip"
mv "$tmp/p1.folded" "$tmp/p1&<x>.folded"
svg series series -q -f svg "$tmp/p1&<x>.folded" "$tmp"/p2.folded \
    "$tmp"/p3.folded "$tmp"/p4.folded "$tmp"/p5.folded "$tmp"/p6.folded \
    "$tmp"/p7.folded "$tmp"/p8.folded "$tmp"/p9.folded \
    "$tmp"/p10.folded "$tmp"/p11.folded "$tmp"/p12.folded
has series "<title>regressed: $fn" "the chart's whole title in a tooltip"
has series '<title>.*p1&amp;&lt;x&gt;' "a point's file name, escaped"

# Every SVG the goldens hold and the examples.
set --
for f in tests/cli/*.stdout examples/*.svg; do
	head -c 5 "$f" | grep -q '^<?xml' && set -- "$@" "$f"
done
if python3 tests/tools/svgxml.py -q "$@"; then
	echo "ok every SVG of the goldens and examples"
else
	rc=1
fi
exit $rc

#!/bin/sh
# The demo behind `make demo`: the pricing-service incident in examples/,
# read the way an engineer would read it during the incident.
set -u
cd "$(dirname "$0")/.."
pd=./build/profdiff

run() {
	printf '\n$ %s\n' "$*"
	"$@"
	printf '(exit status %d)\n' $?
}

echo "== Where does the time go in the bad window?"
run $pd top -n 8 examples/bad.pb.gz
echo
echo "== What changed between the good and the bad window, and is it real?"
run $pd diff -n 6 examples/good.pb.gz examples/bad.pb.gz
echo
echo "== Two good windows: nothing should be flagged."
run $pd check-significance --min-effect 10 examples/good.pb.gz examples/good2.pb.gz
echo
echo "== The CI gate on the bad build."
run $pd check-significance -n 3 examples/good.pb.gz examples/bad.pb.gz
echo
echo "== Only the service's own code: library frames charged to their callers."
run $pd diff -n 4 --show '^main\.' examples/good.pb.gz examples/bad.pb.gz
echo
echo "== The same comparison as a differential flame graph."
run $pd diff -q -f svg -o build/pricing-diff.svg examples/good.pb.gz examples/bad.pb.gz
echo "Open build/pricing-diff.svg in a browser (examples/pricing-diff.png is a rendering)."
echo
echo "== The same runs as a sequence: when did it change, and where?"
run $pd series -q examples/good.pb.gz,examples/good2.pb.gz examples/good3.pb.gz examples/bad.pb.gz,examples/bad2.pb.gz examples/bad3.pb.gz
exit 0

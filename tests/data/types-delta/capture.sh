#!/bin/sh
# Capture the delta profiles of this folder: runs of examples/types, each
# one process of 4 seconds (GOMAXPROCS=2) with its own seed, that fetch
# /debug/pprof/heap?seconds=2 from their own net/http/pprof server at 1 s
# (the program's -delta), with no change or with a known change of
# main.buildIndex's allocations, interleaved round by round; then write
# MANIFEST.tsv.  It needs go (Debian's golang-go) and takes about a
# minute and a half.
#
#	sh tests/data/types-delta/capture.sh [OUTDIR]
#
# OUTDIR defaults to this folder; its .pb.gz files are replaced.
set -eu
ROUNDS=${ROUNDS:-5}

. "$(dirname "$0")/../types/prelude.sh"
printf 'file\tvariant\tseed\trequests\n' >"$tmp/manifest"
seed=3100

# capture NAME VARIANT: one process; only its delta profile is kept.
capture() {
	name=$1 variant=$2
	seed=$((seed + 1))
	if [ "$variant" = none ]; then set --; else set -- -inject "$variant"; fi
	GOMAXPROCS=2 "$tmp/types" -seed "$seed" -duration 4s -dir "$tmp" \
	    -name "$name" -profiles allocs -delta 2 "$@" 2>"$tmp/err" ||
	    { cat "$tmp/err" >&2; exit 1; }
	mv "$tmp/heap-$name.delta.pb.gz" "$out/"
	requests=$(sed -n 's/.*: \([0-9]*\) requests in .*/\1/p' "$tmp/err")
	printf 'heap-%s.delta.pb.gz\t%s\t%s\t%s\n' "$name" "$variant" \
	    "$seed" "$requests" >>"$tmp/manifest"
	echo "capture: $name: $variant, seed $seed, $requests requests" >&2
}

i=1
while [ $i -le "$ROUNDS" ]; do
	n=$(printf %02d $i)
	capture "none-$(printf %02d $((2 * i - 1)))" none
	capture "more-$n" allocs-more
	capture "bigger-$n" allocs-bigger
	capture "none-$(printf %02d $((2 * i)))" none
	i=$((i + 1))
done
mv "$tmp/manifest" "$out/MANIFEST.tsv"

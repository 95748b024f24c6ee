#!/bin/sh
# Symbolization (issue 31): wall time and peak RSS of profdiff top on a
# gperftools CPU profile of N distinct addresses in one binary, named
# from that binary's DWARF, against the same profile whose mapping names
# a file that is not there (nothing to name), so that the difference is
# symbolization's.  The binary is profdiff itself ($BUILD/profdiff, -O2
# -g): its code segment (readelf -l) is mapped as a PIE would be, at
# 0x555555554000 plus its address, and the N addresses are spread
# evenly over it, one sample each under one caller.  Run by `make bench`
# after deep.sh, or alone:
#
#	BUILD=build sh bench/symbolize.sh
#
# SYM_STEPS lists the N (default 10000 100000), SYM_RUNS the runs of each
# (default 3, the median kept).  The profiles are made in a temporary
# folder by python3 (gperftools' format: a header of five words, the
# records, a trailer, the memory map as text).  Writes $SYM_RESULTS
# (default bench/SYMBOLS.md).
set -eu
. "$(dirname "$0")/lib.sh"
STEPS=${SYM_STEPS:-10000 100000}
RUNS=${SYM_RUNS:-3}
RESULTS=${SYM_RESULTS:-bench/SYMBOLS.md}
BIN=$(cd "$(dirname "$PD")" && pwd)/$(basename "$PD")

# The code segment: file offset, address, size in the file.
set -- $(LC_ALL=C readelf -lW "$BIN" | awk '$1 == "LOAD" && / R?W?E / {
	print $2, $3, $5; exit }')
SEG_OFF=$1 SEG_VADDR=$2 SEG_SIZE=$3

# make N FILE MAPPED: N addresses in a profile whose map names MAPPED.
make_profile() {
	python3 - "$1" "$2" "$3" "$SEG_OFF" "$SEG_VADDR" "$SEG_SIZE" <<'PY'
import struct, sys
n, out, mapped = int(sys.argv[1]), sys.argv[2], sys.argv[3]
off, vaddr, size = (int(x, 16) for x in sys.argv[4:7])
start = 0x555555554000 + vaddr
step = size // (n + 1)
w = [0, 3, 0, 1000, 0]
root = start + 16
for i in range(1, n + 1):
    w += [1, 2, start + i * step, root]
w += [0, 1, 0]
with open(out, 'wb') as f:
    f.write(struct.pack('<%dQ' % len(w), *w))
    f.write(('%x-%x r-xp %08x 00:00 0 %s\n' %
             (start, start + size, off, mapped)).encode())
PY
}

# round R: the $n addresses with the binary found, then without.
round() {
	bench_run "a-$n" "$PD" top -q "$TMP/named-$n.prof"
	bench_run "b-$n" "$PD" top -q "$TMP/none-$n.prof"
}

{
	bench_head "Symbolizing a profile"
	echo "Each profile is N distinct addresses in the code of"
	echo "\`$PD\` ($(($(printf %d "$SEG_SIZE") / 1024)) KB of code), one"
	echo "sample each, read by \`profdiff top -q\` with the binary found"
	echo "(named) and with its mapping naming a file that is not there"
	echo "(not named): the difference is symbolization's."
	echo
	echo "| addresses | named | wall s, named | wall s, not named |" \
	    "symbolization s | µs per address | peak RSS MB, named |" \
	    "peak RSS MB, not named |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$TMP/out.md"
for n in $STEPS; do
	echo "symbolize: $n addresses" >&2
	make_profile "$n" "$TMP/named-$n.prof" "$BIN"
	make_profile "$n" "$TMP/none-$n.prof" /nonexistent/profdiff
	named=$("$PD" top -q -f json "$TMP/named-$n.prof" |
	    sed -n 's/.*"state":"named","addresses":\([0-9]*\),"named":\([0-9]*\)}.*/\2 of \1/p')
	bench_rounds round "a-$n" "b-$n"
	set -- $(bench_median "a-$n") $(bench_median "b-$n")
	awk -v n="$n" -v nm="$named" -v a="$1" -v ar="$2" -v b="$3" \
	    -v br="$4" 'BEGIN {
		printf "| %d | %s | %.3f | %.3f | %.3f | %.2f | %.1f | %.1f |\n",
		    n, nm, a, b, a - b, 1e6 * (a - b) / n, ar / 1024, br / 1024
	}' >> "$TMP/out.md"
done
cp "$TMP/out.md" "$RESULTS"
cat "$RESULTS"

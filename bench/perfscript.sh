#!/bin/sh
# Reading perf script text (issue 31): wall time and peak RSS of
# profdiff top on about a million samples of perf script output,
# gzipped, against zcat of the same file (inflating alone), in MB/s of
# the inflated text.  The text is the committed perf script captures of
# examples/native (perf record -g of a C program: 4 frames a sample on
# the median, kernel-free), repeated with each copy's times moved past
# the last one's, so that it reads as one recording.  Run by `make
# bench` after symbolize.sh, or alone:
#
#	BUILD=build sh bench/perfscript.sh
#
# PS_SAMPLES is the number of samples wanted (default 1000000), PS_RUNS
# the runs of each command (default 3, the median kept).  Writes
# $PS_RESULTS (default bench/PERFSCRIPT.md).
set -eu
. "$(dirname "$0")/lib.sh"
WANT=${PS_SAMPLES:-1000000}
RUNS=${PS_RUNS:-3}
RESULTS=${PS_RESULTS:-bench/PERFSCRIPT.md}

# One recording of every capture, then as many copies as make WANT.
zcat examples/native/captures/perf-*.txt.gz > "$TMP/one.txt"
per=$(grep -c 'cpu-clock: *$' "$TMP/one.txt" || true)
[ "$per" -gt 0 ] || { echo "perfscript: no samples in the captures" >&2; exit 1; }
copies=$(( (WANT + per - 1) / per ))
awk -v copies="$copies" '
	{ line[NR] = $0 }
	END {
		shift = 0
		for (c = 0; c < copies; c++) {
			last = 0
			for (i = 1; i <= NR; i++) {
				s = line[i]
				if (s !~ /^\t/ && match(s, /[0-9]+\.[0-9]+: /)) {
					t = substr(s, RSTART, RLENGTH - 2) + shift
					if (t > last)
						last = t
					s = substr(s, 1, RSTART - 1) \
					    sprintf("%.6f: ", t) \
					    substr(s, RSTART + RLENGTH)
				}
				print s
			}
			shift = last + 1
		}
	}' "$TMP/one.txt" | gzip -1 > "$TMP/big.txt.gz"
rm -f "$TMP/one.txt"
bytes=$(zcat "$TMP/big.txt.gz" | wc -c)
samples=$((per * copies))
gz=$(wc -c < "$TMP/big.txt.gz")

# round R: profdiff top, then zcat alone.
round() {
	echo "perfscript: run $(($1 + 1)) of $RUNS" >&2
	bench_run pd "$PD" top -q -n 10 "$TMP/big.txt.gz"
	bench_run zc sh -c 'zcat "$1" > /dev/null' sh "$TMP/big.txt.gz"
}

bench_rounds round pd zc
set -- $(bench_median pd) $(bench_median zc)
{
	bench_head "Reading perf script text"
	echo "The input is $samples samples of \`perf script\` output (the"
	echo "captures of examples/native, $copies copies of their $per samples),"
	echo "$bytes bytes of text gzipped to $gz, read by \`profdiff top -q\`"
	echo "and by \`zcat\` (inflating alone); MB/s are of the inflated text."
	echo
	echo "| samples | text MB | profdiff top s | profdiff MB/s |" \
	    "profdiff peak RSS MB | zcat s | zcat MB/s | profdiff / zcat |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
	awk -v n="$samples" -v b="$bytes" -v a="$1" -v ar="$2" -v z="$3" 'BEGIN {
		mb = b / 1e6
		printf "| %d | %.0f | %.2f | %.0f | %.0f | %.2f | %.0f | %.1f |\n",
		    n, mb, a, mb / a, ar / 1024, z, mb / z, a / z
	}'
} > "$RESULTS"
cat "$RESULTS"

#!/bin/sh
# profdiff spans at scale (issue 32): a profile of 1,000,000 samples,
# each carrying the span_id of one of 100,000 spans, with their trace as
# OTLP/JSON, gzipped (bench/genprof -P -T); spans on them timed against
# diff of the same profile with itself, which reads and folds it as
# often (once a side).  Run by `make bench` after deep.sh, or alone:
#
#	BUILD=build sh bench/spans.sh
#
# The files are made once under bench/out/spans/ (delete them to make
# them again).  SPANS_SAMPLES and SPANS_SPANS change the sizes, SPANS_RUNS
# the runs of each command (default 3, the median kept, the two commands
# in turn).  Writes $SPANS_RESULTS (default bench/SPANS.md).
set -eu
. "$(dirname "$0")/lib.sh"
GEN=$BUILD/bench/genprof
N=${SPANS_SAMPLES:-1000000}
K=${SPANS_SPANS:-100000}
RUNS=${SPANS_RUNS:-3}
OUT=bench/out/spans
RESULTS=${SPANS_RESULTS:-bench/SPANS.md}
P=$OUT/prof-$N-$K.pb.gz
T=$OUT/trace-$N-$K.json.gz
if [ ! -f "$P" ] || [ ! -f "$T" ]; then
	mkdir -p "$OUT"
	"$GEN" -s 1 -n "$N" -f 20000 -l 120000 -P "$K" -T "$T" "$P"
fi

# round R: diff of the profile with itself, then spans.
round() {
	echo "spans: round $(($1 + 1)) of $RUNS" >&2
	bench_run diff "$PD" diff -q "$P" "$P"
	bench_run spans "$PD" spans -q --trace "$T" "$P"
}

bench_rounds round diff spans
set -- $(bench_median diff) $(bench_median spans)
{
	bench_head "profdiff spans at scale"
	echo "The profile: $N samples of bench/genprof's program (-f 20000"
	echo "-l 120000), each with the span_id of one of $K spans; the"
	echo "trace: those spans as OTLP/JSON, gzipped."
	echo
	echo '    profdiff diff -q $P $P'
	echo '    profdiff spans -q --trace $T $P'
	echo
	echo "| command | profile MB | trace MB | wall s | peak RSS MB |"
	echo "|---|---:|---:|---:|---:|"
	for c in diff spans; do
		if [ $c = diff ]; then w=$1 m=$2; else w=$3 m=$4; fi
		awk -v c=$c -v p="$(wc -c < "$P")" -v t="$(wc -c < "$T")" \
		    -v w="$w" -v m="$m" 'BEGIN {
			printf "| %s | %.1f | %.1f | %.3f | %.1f |\n", c,
			    p / 1048576, c == "spans" ? t / 1048576 : 0, w,
			    m / 1024
		}'
	done
	awk -v a="$1" -v b="$3" 'BEGIN {
		printf "\nspans takes %.2f times the wall time of diff.\n", b / a
	}'
} > "$RESULTS"
cat "$RESULTS"

#!/bin/sh
# Capture the profiles of this folder: runs of examples/types with and
# without a known change injected into one named function, one process
# at a time, each with its own seed, and write MANIFEST.tsv.  It needs go
# (Debian's golang-go, for go build and go tool pprof); it takes about
# three minutes on an idle machine, longer when it must wait for an idle
# core.
#
#	sh tests/data/types/capture.sh [OUTDIR]
#
# OUTDIR defaults to this folder; the .pb.gz files in it are replaced.
# Each run is one process of 4 seconds (GOMAXPROCS=2).  A run with no
# change writes all five profiles (allocs, heap, mutex, block,
# goroutine), the earlier snapshots of allocs, mutex and block at 1 s
# (.base) and a delta heap profile of seconds 1 to 3 fetched from its own
# net/http/pprof server (.delta); a run with a change writes only the
# profile of the type the change is for (and its .base or .delta).  The
# variants are interleaved round by round, so that a change in the
# machine's load while the script runs falls on all of them alike.
# Before each run the script waits (at most WAIT seconds, default 30)
# for a second in which 0.9 cores were idle, since contention depends on
# the cores the workload gets.
set -eu
WAIT=${WAIT:-30}
ROUNDS=${ROUNDS:-5}

. "$(dirname "$0")/prelude.sh"
: >"$tmp/runs.tsv"
seed=2000
runno=0

# idle_cores: how many cores were idle over the last second, in hundredths.
idle_cores() {
	a=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	sleep 1
	b=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	echo "$a $b" | awk -v n="$(nproc)" '{ printf "%d\n", 100 * n * ($3 - $1) / ($4 - $2) }'
}

wait_quiet() {
	w=0
	while [ "$(idle_cores)" -lt 90 ] && [ $w -lt "$WAIT" ]; do
		w=$((w + 1))
	done
}

# capture NAME VARIANT: one process.  VARIANT is none or one of the
# -inject changes; NAME is what the files are called after their type.
capture() {
	name=$1 variant=$2
	seed=$((seed + 1))
	runno=$((runno + 1))
	case $variant in
	none)		set -- -profiles allocs,heap,mutex,block,goroutine \
			    -base 1s -delta 2 ;;
	allocs-*)	set -- -profiles allocs -base 1s ;;
	heap-leak)	set -- -profiles heap -delta 2 ;;
	mutex)		set -- -profiles mutex -base 1s ;;
	block)		set -- -profiles block -base 1s ;;
	goroutines)	set -- -profiles goroutine ;;
	esac
	[ "$variant" = none ] || set -- "$@" -inject "$variant"
	wait_quiet
	load1=$(cut -d' ' -f1 /proc/loadavg)
	: >"$tmp/stats"
	GOMAXPROCS=2 "$tmp/types" -seed "$seed" -duration 4s -dir "$out" \
	    -name "$name" -stats "$tmp/stats" "$@" 2>"$tmp/err" ||
	    { cat "$tmp/err" >&2; exit 1; }
	requests=$(sed -n 's/.*: \([0-9]*\) requests in .*/\1/p' "$tmp/err")
	awk -F'\t' -v OFS='\t' -v r="$(printf r%02d $runno)" -v s="$seed" \
	    -v v="$variant" -v l="$load1" -v q="$requests" \
	    '{ print $0, r, s, v, l, q }' "$tmp/stats" >>"$tmp/runs.tsv"
	echo "capture: $name: $variant, seed $seed, $requests requests" >&2
}

i=1
while [ $i -le "$ROUNDS" ]; do
	n=$(printf %02d $i)
	capture "none-$(printf %02d $((2 * i - 1)))" none
	capture "more-$n" allocs-more
	capture "bigger-$n" allocs-bigger
	capture "leak-$n" heap-leak
	capture "hold5-$n" mutex
	capture "drain4-$n" block
	capture "park4-$n" goroutines
	capture "none-$(printf %02d $((2 * i)))" none
	i=$((i + 1))
done

# summary FILE FUNCTION: from pprof -raw, "time_nanos <tab> sample types
# <tab> records <tab> totals <tab> flat <tab> cum", the last three one
# number per sample type, comma-separated: the sum of the values, and
# the sums of the samples whose leaf is FUNCTION (flat) and of those
# with FUNCTION anywhere on the stack (cum), as pprof -top counts them.
summary() {
	go tool pprof -raw "$1" 2>/dev/null | awk -v fn="$2" '
	function csv(a,   s, i) {
		s = sprintf("%.0f", a[1])
		for (i = 2; i <= nt; i++) s = s "," sprintf("%.0f", a[i])
		return s
	}
	/^Time: / { t = $2 " " $3 " " $4 }
	/^Samples:$/ { getline; nt = NF; types = $1
		for (i = 2; i <= NF; i++) types = types "," $i
		sub(/\[dflt\]/, "", types); sec = "s"; next }
	/^Locations$/ { sec = "l"; next }
	/^Mappings$/ { sec = "m"; next }
	sec == "s" && /^ *-?[0-9]+( +-?[0-9]+)*:/ {
		split($0, p, ":"); split(p[1], v, " "); nst = split(p[2], st, " ")
		n++
		for (i = 1; i <= nt; i++) { tot[i] += v[i]; val[n, i] = v[i] }
		stk[n] = p[2]
		next
	}
	sec == "l" && /^ *[0-9]+: / {
		id = $1; sub(/:$/, "", id)
		f = ($3 ~ /^M=/) ? $4 : $3
		first[id] = f; fns[id] = " " f " "
		next
	}
	sec == "l" && NF > 0 { fns[id] = fns[id] $1 " " }
	END {
		for (k = 1; k <= n; k++) {
			nst = split(stk[k], st, " ")
			on = 0
			for (j = 1; j <= nst; j++)
				if (index(fns[st[j]], " " fn " ")) on = 1
			for (i = 1; i <= nt; i++) {
				if (first[st[1]] == fn) fl[i] += val[k, i]
				if (on) cu[i] += val[k, i]
			}
		}
		printf "%s\t%s\t%d\t%s\t%s\t%s\n", t, types, n, csv(tot), \
		    csv(fl), csv(cu)
	}'
}

manifest=$out/MANIFEST.tsv
printf 'file\ttype\tvariant\tfunction\tkind\trun\tseed\tseconds\ttime_nanos\tsample_types\trecords\ttotals\tflat\tcum\traw\traw_function\trequests\tload1\n' >"$manifest"
while IFS='	' read -r file kind secs _nanos raw rawfn run s variant load1 requests; do
	type=${file%%-*}
	case $type in
	allocs)		fn=main.buildIndex ;;
	heap)		fn=main.cacheResult ;;
	mutex)		fn=main.handleQuote ;;
	block)		fn=main.sendEvent ;;
	goroutine)	fn=main.waitForWork ;;
	esac
	IFS='	' read -r t types records totals flat cum <<EOF
$(summary "$out/$file" "$fn")
EOF
	# The profile's own time_nanos, which pprof -raw prints in full.
	tn=$(date -u -d "$t" +%s%N)
	# A goroutine profile is no sample: its counts are the goroutines.
	if [ "$type" = goroutine ]; then
		raw=$totals rawfn=$cum
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	    "$file" "$type" "$variant" "$fn" "$kind" "$run" "$s" "$secs" "$tn" \
	    "$types" "$records" "$totals" "$flat" "$cum" "$raw" "$rawfn" \
	    "$requests" "$load1" >>"$manifest"
done <"$tmp/runs.tsv"
echo "capture: $(($(wc -l <"$manifest") - 1)) profiles," \
    "$(du -cb "$out"/*.pb.gz | tail -1 | cut -f1) bytes" >&2

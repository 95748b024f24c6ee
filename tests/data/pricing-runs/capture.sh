#!/bin/sh
# Capture the profiles of this folder: runs of examples/pricing with and
# without an injected slowdown, one at a time, each with its own seed,
# and write MANIFEST.tsv.  It needs go (Debian's golang-go, for go build
# and go tool pprof); it takes five minutes on an idle machine, and as
# long as it must wait for idle cores on a busy one.
#
#	sh tests/data/pricing-runs/capture.sh [OUTDIR]
#
# OUTDIR defaults to this folder.  The variants are interleaved round by
# round, so that a change in the machine's load while the script runs is
# spread over all of them rather than falling on one.  The busy runs
# have two shell loops spinning while they are captured, one per core,
# started and stopped by this script.
#
# The machine is shared, so "quiet" has to be waited for: a quiet run
# starts when 0.9 cores have been idle for a second, and is taken again
# (same seed) while the service was on CPU less than MINUTIL percent of
# its duration (default 85), up to MAXTRIES times (default 10).  Every
# process of a capture (the service and, when busy, the burners) runs at
# nice $NICE, default -10 (which needs root), so that the burners compete
# with the service on equal terms and other work less.  With the
# kernel's autogroups (sched_autogroup_enabled), nice only orders the
# processes of one session, so the script also gives its session's
# autogroup that nice while it runs, and puts the old one back at exit.
set -eu
NICE=${NICE:--10}
MINUTIL=${MINUTIL:-85}
MAXTRIES=${MAXTRIES:-10}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$here}
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/capture.XXXXXX")
ag_old=$(sed -n 's/.* nice \(-*[0-9]*\)$/\1/p' /proc/self/autogroup 2>/dev/null || :)
if [ -n "$ag_old" ]; then
	echo "$NICE" 2>/dev/null >/proc/self/autogroup || ag_old=""
fi
burners=""
stop_burners() {
	for p in $burners; do
		kill "$p" 2>/dev/null || true
	done
	burners=""
}
trap 'stop_burners; rm -rf "$tmp"
    [ -z "$ag_old" ] || echo "$ag_old" >/proc/self/autogroup' EXIT
trap 'exit 2' INT TERM

(cd "$root/examples/pricing" && go build -trimpath -o "$tmp/pricing" .)

manifest=$out/MANIFEST.tsv
printf 'file\tvariant\tfunction\tkind\tslowdown\tseed\tbusy\tduration\tsamples\tflat\tcum\trequests\tcpu_utilization\tload1\ttries\tad_flat\tad_cum\tcs_flat\tcs_cum\n' >"$manifest"
seed=1000

# idle_cores: how many cores were idle over the last second, in hundredths.
idle_cores() {
	a=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	sleep 1
	b=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	echo "$a $b" | awk -v n="$(nproc)" '{ printf "%d\n", 100 * n * ($3 - $1) / ($4 - $2) }'
}

# wait_quiet: wait (at most a minute) for a second in which at least 0.9
# cores were idle, so that the service can have one to itself.
wait_quiet() {
	w=0
	while [ "$(idle_cores)" -lt 90 ] && [ $w -lt 60 ]; do
		w=$((w + 1))
	done
}

# capture NAME VARIANT SECONDS BUSY: one run; VARIANT is none, leaf10,
# leaf25, inner10 or inner25.  A quiet run (BUSY 0) waits for an idle
# core and is taken again, up to $MAXTRIES times, until the service was
# on CPU at least $MINUTIL percent of the time; "tries" in the manifest
# says how many it took.
capture() {
	name=$1 variant=$2 secs=$3 busy=$4
	seed=$((seed + 1))
	case $variant in
	none)	fn=- kind=- frac=0 ;;
	leaf*)	fn=main.applyDiscounts kind=leaf frac=0.${variant#leaf} ;;
	inner*)	fn=main.calculateScore kind=inner frac=0.${variant#inner} ;;
	esac
	set -- -mode good -seed "$seed" -duration "${secs}s" \
	    -cpuprofile "$out/$name.pb.gz"
	[ "$fn" = - ] || set -- "$@" -slow "${fn#main.}=$frac"
	tries=0
	while :; do
		tries=$((tries + 1))
		[ "$busy" = 1 ] || wait_quiet
		load1=$(cut -d' ' -f1 /proc/loadavg)
		GOMAXPROCS=1 nice -n "$NICE" "$tmp/pricing" "$@" 2>"$tmp/err"
		go tool pprof -top -nodecount=0 -nodefraction=0 \
		    -edgefraction=0 "$out/$name.pb.gz" 2>/dev/null >"$tmp/top"
		util=$(sed -n 's/.*Total samples = [^ ]* (\([0-9.]*%\)).*/\1/p' \
		    "$tmp/top")
		[ "$busy" = 1 ] && break
		[ "$tries" -ge "$MAXTRIES" ] && break
		awk -v u="${util%\%}" -v m="$MINUTIL" 'BEGIN { exit !(u >= m) }' &&
		    break
		echo "capture: $name: ${util} on CPU, again" >&2
		sleep 5
	done
	requests=$(sed -n 's/.*: \([0-9]*\) requests in .*/\1/p' "$tmp/err")
	# The shares as pprof prints them, and the exact sample counts.
	go tool pprof -sample_index=samples -top -nodecount=0 \
	    -nodefraction=0 -edgefraction=0 "$out/$name.pb.gz" \
	    2>/dev/null >"$tmp/count"
	samples=$(sed -n 's/.*Total samples = \([0-9]*\).*/\1/p' "$tmp/count")
	flat=- cum=-
	if [ "$fn" != - ]; then
		flat=$(awk -v f="$fn" '$NF == f { print $2 }' "$tmp/top")
		cum=$(awk -v f="$fn" '$NF == f { print $5 }' "$tmp/top")
		: "${flat:=0%}" "${cum:=0%}"
	fi
	counts=$(awk '
	    $NF == "main.applyDiscounts" { af = $1; ac = $4 }
	    $NF == "main.calculateScore" { cf = $1; cc = $4 }
	    END { printf "%d\t%d\t%d\t%d", af, ac, cf, cc }' "$tmp/count")
	duration=$(sed -n 's/^Duration: \([^,]*\),.*/\1/p' "$tmp/top")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	    "$name.pb.gz" "$variant" "$fn" "$kind" "$frac" "$seed" "$busy" \
	    "$duration" "$samples" "$flat" "$cum" "$requests" "$util" \
	    "$load1" "$tries" "$counts" >>"$manifest"
	echo "capture: $name: $samples samples, $util, $variant, seed $seed" >&2
}

# Quiet: 16 no-change runs and 8 of each injected variant, 3 seconds.
i=1
while [ $i -le 8 ]; do
	n=$(printf %02d $i)
	capture "none-$(printf %02d $((2 * i - 1)))" none 3 0
	capture "leaf10-$n" leaf10 3 0
	capture "leaf25-$n" leaf25 3 0
	capture "inner10-$n" inner10 3 0
	capture "inner25-$n" inner25 3 0
	capture "none-$(printf %02d $((2 * i)))" none 3 0
	i=$((i + 1))
done

# Busy: the same service with two CPU burners on the two cores.
wait_quiet
nice -n "$NICE" sh -c 'while :; do :; done' &
burners="$burners $!"
nice -n "$NICE" sh -c 'while :; do :; done' &
burners="$burners $!"
sleep 1
i=1
while [ $i -le 4 ]; do
	capture "busy-none-$(printf %02d $((2 * i - 1)))" none 3 1
	capture "busy-leaf25-$(printf %02d $i)" leaf25 3 1
	capture "busy-none-$(printf %02d $((2 * i)))" none 3 1
	i=$((i + 1))
done
stop_burners

# Long: 10 seconds, about 1000 samples.
i=1
while [ $i -le 4 ]; do
	n=$(printf %02d $i)
	capture "long-none-$n" none 10 0
	capture "long-leaf10-$n" leaf10 10 0
	i=$((i + 1))
done

#!/bin/sh
# Makes this folder's Node.js profiles again, from scratch:
#
#   sh tests/data/runtimes/node/capture.sh
#
# 1. installs the two profilers from package-lock.json with `npm ci` into
#    node_modules/ here (the `pprof` package builds its addon with node-gyp
#    against the headers of the installed node);
# 2. removes the old profiles, RUNS.tsv and MANIFEST.tsv;
# 3. runs service.js once per run, one process at a time: 12 runs of `none`
#    and 5 of each other shape, under each of the two profilers, shapes and
#    profilers interleaved so that a change in the machine's load does not
#    fall on one shape; each process writes a time profile of a 9 s window,
#    sampled every INTERVAL_US microseconds (1000), and the live heap at its
#    end, sampled every HEAP_INTERVAL bytes (8192);
# 4. writes RUNS.tsv (facts of each process) and MANIFEST.tsv.
#
# A run of a shape other than `saturated` that ends with requests queued for
# more than 250 ms (the machine was too busy for the service to keep up) is
# taken again, up to 3 tries; RUNS.tsv says how many it took.
#
# As in ../go/capture.sh, every process is started in a session of its own
# whose autogroup has the nice value PRIORITY (default -12; empty: the
# shell's), after waiting (at most WAIT seconds, default 3) for a second in
# which IDLE hundredths of a core (default 150, of the 200 of two cores)
# were idle: Linux shares the cores between sessions before it looks at a
# process's own nice value, so on a shared machine only the autogroup's
# gets the service the core it asks for.
#
# Environment: NODE (default node), NONE_RUNS (12), SHAPE_RUNS (5), SECONDS (9),
# INTERVAL_US (1000), HEAP_INTERVAL (8192), PRIORITY (-12), WAIT (3), IDLE (150).
set -eu
cd "$(dirname "$0")"
NODE=${NODE:-node}
NONE_RUNS=${NONE_RUNS:-12}
SHAPE_RUNS=${SHAPE_RUNS:-5}
SECONDS_=${SECONDS:-9}
INTERVAL_US=${INTERVAL_US:-1000}
HEAP_INTERVAL=${HEAP_INTERVAL:-8192}
PRIORITY=${PRIORITY--12}
WAIT=${WAIT:-3}
IDLE=${IDLE:-150}
SHAPES="none new leaf25 leaf10 spread helper caller recursion two mixed saturated alloc heap3x"

# ---- 1. packages
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then
	# node-gyp builds against the installed headers instead of downloading them
	npm_config_nodedir=/usr
	export npm_config_nodedir
fi
echo "capture: npm ci ($("$NODE" --version), npm $(npm --version))" >&2
npm ci --no-audit --no-fund >&2
if ! "$NODE" -e "require('pprof'); require('@datadog/pprof')" 2>/dev/null; then
	echo "capture: pprof's addon did not build; building it with node-gyp" >&2
	npm rebuild pprof --foreground-scripts >&2
	"$NODE" -e "require('pprof'); require('@datadog/pprof')"
fi

# idle_cores: how many hundredths of a core were idle over the last second.
idle_cores() {
	a=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	sleep 1
	b=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
	echo "$a $b" | awk -v n="$(nproc)" '{ printf "%d\n", 100 * n * ($3 - $1) / ($4 - $2) }'
}

wait_quiet() {
	w=0
	while [ "$(idle_cores)" -lt "$IDLE" ] && [ $w -lt "$WAIT" ]; do
		w=$((w + 1))
	done
}

# prio CMD...: runs CMD in a session of its own whose autogroup has the
# nice value PRIORITY (lowering it needs root); PRIORITY= runs CMD as it is.
prio() {
	if [ -n "$PRIORITY" ] && [ -e /proc/self/autogroup ]; then
		setsid -w sh -c 'echo "$0" 2>/dev/null >/proc/$$/autogroup; exec "$@"' \
		    "$PRIORITY" "$@"
	else
		"$@"
	fi
}

# ---- 2. clean
rm -f ./*.pb.gz RUNS.tsv MANIFEST.tsv

# ---- 3. runs
printf 'prefix\truntime\trun\tseed\tvariant\ttries\tload1\twindow_ms\tserved_in_window\tbacklog_ms\tcpu_s\theap_s\theap_used_mb\tquote_cache\taudit_log\n' > RUNS.tsv
dd_run=0
pp_run=0
seed=1000
max=$NONE_RUNS
[ "$SHAPE_RUNS" -gt "$max" ] && max=$SHAPE_RUNS
rep=1
while [ "$rep" -le "$max" ]; do
	for shape in $SHAPES; do
		want=$SHAPE_RUNS
		[ "$shape" = none ] && want=$NONE_RUNS
		[ "$rep" -le "$want" ] || continue
		nn=$(printf %02d "$rep")
		for prof in datadog pprof; do
			seed=$((seed + 1))
			if [ "$prof" = datadog ]; then
				dd_run=$((dd_run + 1)); run=$(printf r%02d "$dd_run"); runtime=node-datadog
			else
				pp_run=$((pp_run + 1)); run=$(printf r%02d "$pp_run"); runtime=node-pprof
			fi
			prefix=$prof-$shape-$nn
			tries=0
			while :; do
				tries=$((tries + 1))
				wait_quiet
				load1=$(cut -d' ' -f1 /proc/loadavg)
				facts=$(prio "$NODE" --expose-gc service.js --profiler "$prof" --seed "$seed" \
					--inject "$shape" --seconds "$SECONDS_" --interval-us "$INTERVAL_US" \
					--heap-interval "$HEAP_INTERVAL" --out "$prefix")
				backlog=$(printf '%s' "$facts" | "$NODE" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(Math.round(JSON.parse(s).backlog_ms)))')
				if [ "$shape" = saturated ] || [ "$backlog" -le 250 ] || [ "$tries" -ge 3 ]; then
					break
				fi
				echo "capture: $prefix fell behind by ${backlog} ms (load $load1); again" >&2
			done
			printf '%s' "$facts" | "$NODE" -e '
				let s = ""; process.stdin.on("data", (d) => s += d).on("end", () => {
					const f = JSON.parse(s);
					const a = process.argv.slice(1);
					console.log([...a, f.window_ms, f.served_in_window, f.backlog_ms, f.cpu_s,
						f.heap_s, f.heap_used_mb, f.quote_cache, f.audit_log].join("\t"));
				});' "$prefix" "$runtime" "$run" "$seed" "$shape" "$tries" "$load1" >> RUNS.tsv
			echo "capture: $prefix $run seed $seed tries $tries load $load1 $facts" >&2
		done
	done
	rep=$((rep + 1))
done

# ---- 4. manifest
"$NODE" manifest.js

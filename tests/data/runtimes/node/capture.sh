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
#    fall on one shape; each process writes a time profile of a 9 s window
#    and the live heap at its end;
# 4. writes RUNS.tsv (facts of each process) and MANIFEST.tsv.
#
# A run of a shape other than `saturated` that ends with requests queued for
# more than 250 ms (the machine was too busy for the service to keep up) is
# taken again, up to 3 tries; RUNS.tsv says how many it took.
#
# Environment: NODE (default node), NONE_RUNS (12), SHAPE_RUNS (5), SECONDS (9).
set -eu
cd "$(dirname "$0")"
NODE=${NODE:-node}
NONE_RUNS=${NONE_RUNS:-12}
SHAPE_RUNS=${SHAPE_RUNS:-5}
SECONDS_=${SECONDS:-9}
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
				load1=$(cut -d' ' -f1 /proc/loadavg)
				facts=$("$NODE" --expose-gc service.js --profiler "$prof" --seed "$seed" \
					--inject "$shape" --seconds "$SECONDS_" --out "$prefix")
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

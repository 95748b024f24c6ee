#!/bin/sh
# Makes datadog-starved.wall.pb.gz again: one run of the Node.js service of
# tests/data/runtimes/node (its profilers installed there, see its
# capture.sh), unchanged, under @datadog/pprof, in a cgroup (v1) whose CPU
# quota is 15% of one core.  The service is paced at 500 requests a second,
# which takes about 40% of a core: it falls behind from the start, its
# thread always has a request to serve, and is kept from running by the
# quota.  A CPU profile of it looks like a process that was mostly waiting;
# its wall-clock samples, seldom idle, say it was not (profdiff's
# "starved" warning).  Needs root for the cgroup.
#
#	sh tests/data/starved/capture.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
node_dir=$here/../runtimes/node
cg=/sys/fs/cgroup/cpu/profdiff-starved
mkdir -p "$cg"
echo 100000 >"$cg/cpu.cfs_period_us"
echo "${QUOTA_US:-15000}" >"$cg/cpu.cfs_quota_us"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; rmdir "$cg" 2>/dev/null || :' EXIT
(cd "$node_dir" && sh -c 'echo $$ >"$1/tasks"; shift; exec "$@"' sh "$cg" \
    node --expose-gc service.js --profiler datadog --seed 77 --inject none \
    --seconds 6 --out "$tmp/starved")
cp "$tmp/starved.wall.pb.gz" "$here/datadog-starved.wall.pb.gz"

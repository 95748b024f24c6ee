# Sourced by capture.sh of tests/data/types and tests/data/types-delta,
# whose runs are of the same program, with the script's arguments: sets
# here (the script's folder), root (the project's), out (OUTDIR, the
# first argument, or here; its .pb.gz files removed) and tmp (removed at
# exit), and builds examples/types as $tmp/types.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$here}
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/capture.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

(cd "$root/examples/types" && go build -trimpath -o "$tmp/types" .)
rm -f "$out"/*.pb.gz

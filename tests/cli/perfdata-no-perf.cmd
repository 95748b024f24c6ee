set -- $PROFDIFF; w=$(command -v "$1"); shift; PATH=/nonexistent "$w" "$@" top examples/native/captures/perf-none-01.data.gz

$PROFDIFF top -n 0 tests/data/perf/changed.pb.gz >/dev/null; $PROFDIFF top -q -f json -n 0 tests/data/perf/changed.pb.gz | jq -c '.warnings[] | [.level, .code]'

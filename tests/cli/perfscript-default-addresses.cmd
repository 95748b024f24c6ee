$PROFDIFF top -q -n 0 --granularity addresses tests/data/perf/fields/default.txt

$PROFDIFF top -q -n 3 -i 3 tests/data/perf/events.txt.gz

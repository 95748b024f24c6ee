$PROFDIFF top -q -n 5 tests/data/perf/nochain.txt.gz

$PROFDIFF top -n 12 tests/data/perf/base.txt.gz

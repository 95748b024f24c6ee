$PROFDIFF top -q -n 5 tests/data/perf/fields.txt.gz

$PROFDIFF top -q -n 3 --tag tid=4243 tests/data/perf/fields/all.txt

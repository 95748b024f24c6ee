$PROFDIFF top tests/data/perf/bad/not-a-header.txt

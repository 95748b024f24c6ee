$PROFDIFF top tests/data/perf/bad/bad-period.txt

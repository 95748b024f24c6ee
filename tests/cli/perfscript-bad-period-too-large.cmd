$PROFDIFF top tests/data/perf/bad/period-too-large.txt

$PROFDIFF top tests/data/perf/bad/period-mix.txt

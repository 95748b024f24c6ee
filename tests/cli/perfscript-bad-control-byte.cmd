$PROFDIFF top tests/data/perf/bad/control-byte.txt

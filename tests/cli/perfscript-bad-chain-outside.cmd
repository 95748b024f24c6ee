$PROFDIFF top tests/data/perf/bad/chain-outside.txt

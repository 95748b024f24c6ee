$PROFDIFF top tests/data/perf/bad/no-chain-under-header.txt

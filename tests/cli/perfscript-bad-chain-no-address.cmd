$PROFDIFF top tests/data/perf/bad/chain-no-address.txt

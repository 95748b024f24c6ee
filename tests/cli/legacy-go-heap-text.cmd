$PROFDIFF top tests/data/pprof-testdata/gobench.heap

$PROFDIFF top tests/data/pprof-testdata/cppbench.contention

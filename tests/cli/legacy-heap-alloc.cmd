$PROFDIFF top -n 5 -i alloc_space -f json tests/data/pprof-testdata/gobench.heap

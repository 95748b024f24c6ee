$PROFDIFF top --granularity addresses tests/data/pprof-testdata/cppbench.thread.none

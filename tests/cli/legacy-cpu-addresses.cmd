$PROFDIFF top -n 5 --granularity addresses tests/data/pprof-testdata/cppbench.cpu

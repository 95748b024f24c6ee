$PROFDIFF top --granularity addresses tests/data/pprof-testdata/go.godoc.thread

$PROFDIFF top -n 5 --granularity lines tests/data/pprof-testdata/java.heap

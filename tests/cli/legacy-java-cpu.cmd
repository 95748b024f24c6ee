$PROFDIFF top -n 5 tests/data/pprof-testdata/java.cpu

gzip -c tests/data/pprof-testdata/cppbench.growth | $PROFDIFF top -n 3 -

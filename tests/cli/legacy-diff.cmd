$PROFDIFF diff -n 3 tests/data/pprof-testdata/cppbench.cpu tests/data/pprof-testdata/driver-cppbench.cpu

$PROFDIFF diff -n 4 tests/data/runtimes/c/cpu-none-01.pb.gz tests/data/runtimes/c/cpu-alloc-01.pb.gz

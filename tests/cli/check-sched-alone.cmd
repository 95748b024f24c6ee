$PROFDIFF check-significance -n 3 tests/data/runtimes/go/cpu-none-10.pb.gz tests/data/runtimes/go/cpu-none-11.pb.gz

$PROFDIFF check-significance -n 3 tests/data/runtimes/go/cpu-none-01.pb.gz tests/data/runtimes/go/cpu-none-06.pb.gz

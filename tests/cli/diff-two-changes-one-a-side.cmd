$PROFDIFF diff -n 10 -i cpu tests/data/runtimes/go/cpu-none-07.pb.gz tests/data/runtimes/go/cpu-mixed-01.pb.gz

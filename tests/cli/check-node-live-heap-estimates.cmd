$PROFDIFF check-significance -f json -n 0 tests/data/runtimes/node/datadog-none-01.heap.pb.gz tests/data/runtimes/node/datadog-none-02.heap.pb.gz

$PROFDIFF diff -n 12 -i inuse_space tests/data/runtimes/node/datadog-none-01.heap.pb.gz tests/data/runtimes/node/datadog-alloc-03.heap.pb.gz

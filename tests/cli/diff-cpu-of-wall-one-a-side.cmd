$PROFDIFF diff -n 8 -i cpu tests/data/runtimes/node/datadog-none-01.wall.pb.gz tests/data/runtimes/node/datadog-none-02.wall.pb.gz

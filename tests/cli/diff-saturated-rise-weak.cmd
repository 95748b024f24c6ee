$PROFDIFF diff -n 4 -i cpu tests/data/runtimes/node/datadog-none-01.wall.pb.gz tests/data/runtimes/node/datadog-saturated-02.wall.pb.gz

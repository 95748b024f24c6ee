$PROFDIFF diff -n 6 tests/data/runtimes/node/pprof-none-01.wall.pb.gz tests/data/runtimes/node/pprof-none-02.wall.pb.gz

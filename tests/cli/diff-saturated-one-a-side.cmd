$PROFDIFF diff -n 4 tests/data/runtimes/node/pprof-none-01.wall.pb.gz tests/data/runtimes/node/pprof-saturated-01.wall.pb.gz

$PROFDIFF top -n 4 tests/data/runtimes/node/pprof-none-01.wall.pb.gz

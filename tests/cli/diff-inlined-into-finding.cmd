$PROFDIFF diff -q -n 4 -i wall tests/data/runtimes/node/pprof-none-01.wall.pb.gz tests/data/runtimes/node/pprof-leaf25-03.wall.pb.gz

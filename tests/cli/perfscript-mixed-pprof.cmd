$PROFDIFF diff -n 6 tests/data/perf/base.txt.gz tests/data/perf/changed.pb.gz

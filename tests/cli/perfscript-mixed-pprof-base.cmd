$PROFDIFF diff -q -n 2 -f csv tests/data/perf/changed.pb.gz tests/data/perf/base.txt.gz

$PROFDIFF diff -n 4 tests/data/perf/base.txt.gz tests/data/perf/base2.txt.gz

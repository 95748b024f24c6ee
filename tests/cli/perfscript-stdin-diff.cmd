gzip -dc tests/data/perf/changed.txt.gz | $PROFDIFF diff -q -n 2 tests/data/perf/base.txt.gz -

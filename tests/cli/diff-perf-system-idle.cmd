$PROFDIFF diff -n 4 tests/data/perf/system-a.txt.gz tests/data/perf/system-b.txt.gz

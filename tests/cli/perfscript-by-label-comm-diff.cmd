$PROFDIFF diff -q --by-label comm tests/data/perf/base.txt.gz tests/data/perf/changed.txt.gz

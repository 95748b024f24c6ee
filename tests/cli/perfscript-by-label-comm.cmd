$PROFDIFF top -q --by-label comm tests/data/perf/base.txt.gz

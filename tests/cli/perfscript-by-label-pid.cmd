$PROFDIFF top -q --by-label pid tests/data/perf/fields/all.txt

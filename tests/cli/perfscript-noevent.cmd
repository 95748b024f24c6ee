$PROFDIFF top -q -n 0 tests/data/perf/fields/noevent.txt

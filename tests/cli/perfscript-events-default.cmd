$PROFDIFF top -q -n 3 -f json tests/data/perf/events.txt.gz

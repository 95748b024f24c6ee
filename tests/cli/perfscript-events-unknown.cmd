$PROFDIFF top -q -i cycles tests/data/perf/events.txt.gz

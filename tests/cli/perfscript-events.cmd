$PROFDIFF top -q -n 5 -i task-clock tests/data/perf/events.txt.gz

$PROFDIFF top -q -n 0 -i instructions:u tests/data/perf/fields/two-events.txt

$PROFDIFF top -q -n 5 --tag comm=filler tests/data/perf/base.txt.gz

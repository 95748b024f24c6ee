gzip -dc tests/data/perf/base.txt.gz | $PROFDIFF top -q -n 5 -

$PROFDIFF top -n 3 examples/native/captures/perf-none-01.txt.gz

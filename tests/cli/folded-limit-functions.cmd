$PROFDIFF top --max-functions 5 tests/data/folded/perf-bad.folded

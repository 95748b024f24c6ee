$PROFDIFF top --max-depth 8 tests/data/folded/perf-bad.folded

$PROFDIFF top tests/data/folded/perf-bad.folded

$PROFDIFF top -n 5 tests/data/folded/async-profiler.folded

$PROFDIFF diff -n 6 tests/data/folded/perf-good.folded tests/data/folded/perf-bad.folded

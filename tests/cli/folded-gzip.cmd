$PROFDIFF diff -n 3 tests/data/folded/perf-good.folded tests/data/folded/perf-bad.folded.gz

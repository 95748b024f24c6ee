$PROFDIFF diff -f folded tests/data/folded/perf-good.folded tests/data/folded/perf-bad.folded

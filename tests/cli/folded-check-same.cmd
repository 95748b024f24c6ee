$PROFDIFF check-significance -n 2 tests/data/folded/perf-good.folded tests/data/folded/perf-good.folded; echo "status $?"

$PROFDIFF check-significance -n 4 tests/data/folded/perf-good.folded tests/data/folded/perf-bad.folded; echo "status $?"

$PROFDIFF diff -q -n 1 --list "^score$" --peek "^score$" tests/data/folded/perf-good.folded tests/data/folded/perf-bad.folded

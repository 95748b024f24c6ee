$PROFDIFF diff -f json -n 2 tests/data/folded/perf-good.folded tests/data/folded/perf-bad.folded | jq -c "{first: .rows[0].name, verdict: .rows[0].verdict, n: (.rows | length)}"

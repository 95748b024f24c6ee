$PROFDIFF series tests/data/series-range/ok.folded tests/data/series-range/huge.folded tests/data/series-range/huge.folded

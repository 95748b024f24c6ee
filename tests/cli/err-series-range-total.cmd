$PROFDIFF series tests/data/series-range/ok.folded tests/data/series-range/half.folded tests/data/series-range/half.folded tests/data/series-range/half.folded

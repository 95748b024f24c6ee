$PROFDIFF top tests/data/bad/string-index-out-of-range.pb

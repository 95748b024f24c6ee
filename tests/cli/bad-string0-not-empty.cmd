$PROFDIFF top tests/data/bad/string0-not-empty.pb

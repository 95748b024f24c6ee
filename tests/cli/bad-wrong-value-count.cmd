$PROFDIFF top tests/data/bad/wrong-value-count.pb

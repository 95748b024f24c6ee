$PROFDIFF top tests/data/bad/value-overflow.pb

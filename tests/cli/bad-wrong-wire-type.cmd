$PROFDIFF top tests/data/bad/wrong-wire-type.pb

$PROFDIFF top tests/data/bad/function-id-zero.pb

$PROFDIFF top tests/data

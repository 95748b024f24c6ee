$PROFDIFF top tests/data/bad/length-past-end.pb

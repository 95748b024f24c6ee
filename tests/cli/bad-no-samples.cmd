$PROFDIFF top tests/data/bad/no-samples.pb

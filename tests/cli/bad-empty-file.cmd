$PROFDIFF top tests/data/bad/empty-file.pb

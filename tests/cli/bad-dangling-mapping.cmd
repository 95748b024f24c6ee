$PROFDIFF top tests/data/bad/dangling-mapping.pb

$PROFDIFF top tests/data/bad/dangling-function.pb

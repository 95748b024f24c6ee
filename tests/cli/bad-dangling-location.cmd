$PROFDIFF top tests/data/bad/dangling-location.pb

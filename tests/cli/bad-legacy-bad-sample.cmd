$PROFDIFF top tests/data/legacy-bad/bad-sample.heap

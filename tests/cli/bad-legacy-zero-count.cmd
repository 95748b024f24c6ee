$PROFDIFF top tests/data/legacy-bad/zero-count.heap

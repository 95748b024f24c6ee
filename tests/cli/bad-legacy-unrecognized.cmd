$PROFDIFF top tests/data/legacy-bad/unrecognized.contention

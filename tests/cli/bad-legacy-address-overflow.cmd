$PROFDIFF top tests/data/legacy-bad/address-overflow.heap

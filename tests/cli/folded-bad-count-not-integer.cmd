$PROFDIFF top tests/data/folded/bad/count-not-integer.folded

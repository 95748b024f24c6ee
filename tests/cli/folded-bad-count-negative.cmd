$PROFDIFF top tests/data/folded/bad/count-negative.folded

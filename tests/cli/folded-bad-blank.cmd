$PROFDIFF top tests/data/folded/bad/blank.folded

$PROFDIFF top tests/data/folded/bad/count-too-large.folded

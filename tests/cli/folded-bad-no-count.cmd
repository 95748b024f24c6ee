$PROFDIFF top tests/data/folded/bad/no-count.folded

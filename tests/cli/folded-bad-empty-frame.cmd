$PROFDIFF top tests/data/folded/bad/empty-frame.folded

$PROFDIFF top tests/data/folded/bad/no-frames.folded

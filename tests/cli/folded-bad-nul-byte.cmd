$PROFDIFF top tests/data/folded/bad/nul-byte.folded

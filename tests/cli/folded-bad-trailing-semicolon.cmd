$PROFDIFF top tests/data/folded/bad/trailing-semicolon.folded

$PROFDIFF top tests/data/folded/bad/lone-cr.folded

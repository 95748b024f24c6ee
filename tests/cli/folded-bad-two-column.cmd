$PROFDIFF top tests/data/folded/bad/two-column.folded

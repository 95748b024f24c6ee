$PROFDIFF top tests/data/folded/README

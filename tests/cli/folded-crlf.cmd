$PROFDIFF top tests/data/folded/crlf.folded

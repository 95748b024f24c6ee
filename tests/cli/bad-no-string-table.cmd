$PROFDIFF top tests/data/bad/no-string-table.pb

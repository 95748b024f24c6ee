$PROFDIFF top -q tests/data/good/negative-values.pb

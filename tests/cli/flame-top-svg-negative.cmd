$PROFDIFF top -q -f svg tests/data/good/negative-values.pb

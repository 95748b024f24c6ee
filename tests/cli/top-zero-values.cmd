$PROFDIFF top -q tests/data/good/zero-values.pb; $PROFDIFF top -q -f json tests/data/good/zero-values.pb; $PROFDIFF top -q -f csv tests/data/good/zero-values.pb

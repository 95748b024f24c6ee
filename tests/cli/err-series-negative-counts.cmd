$PROFDIFF series tests/data/good/negative-values.pb tests/data/good/negative-values.pb

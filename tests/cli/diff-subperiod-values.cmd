$PROFDIFF top tests/data/good/subperiod-values.pb; $PROFDIFF diff tests/data/good/subperiod-values.pb tests/data/good/subperiod-values.pb

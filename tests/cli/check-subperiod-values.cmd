$PROFDIFF check-significance -q tests/data/good/subperiod-values.pb tests/data/good/valid.pb

$PROFDIFF check-significance --by-label span_idd tests/data/good/label-values.pb tests/data/good/label-values.pb

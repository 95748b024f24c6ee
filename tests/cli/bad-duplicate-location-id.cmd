$PROFDIFF top tests/data/bad/duplicate-location-id.pb

$PROFDIFF top tests/data/bad/varint-too-long.pb

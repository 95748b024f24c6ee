$PROFDIFF top tests/data/bad/bad-crc.pb.gz

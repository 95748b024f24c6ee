$PROFDIFF top tests/data/no-such-file.pb.gz

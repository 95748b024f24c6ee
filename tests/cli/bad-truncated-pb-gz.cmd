$PROFDIFF top tests/data/bad/truncated.pb.gz

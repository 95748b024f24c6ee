$PROFDIFF top tests/data/bad/truncated-trailer.pb.gz

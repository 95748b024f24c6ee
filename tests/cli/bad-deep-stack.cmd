$PROFDIFF top tests/data/bad/deep-stack.pb.gz

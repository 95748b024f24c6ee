$PROFDIFF top tests/data/bad/diff-base-output.pb.gz

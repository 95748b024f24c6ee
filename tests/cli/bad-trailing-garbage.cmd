$PROFDIFF top tests/data/bad/trailing-garbage.pb.gz

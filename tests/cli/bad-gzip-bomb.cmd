$PROFDIFF top tests/data/bad/gzip-bomb.pb.gz

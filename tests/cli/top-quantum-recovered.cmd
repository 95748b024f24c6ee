$PROFDIFF top -n 3 tests/data/quantum/new.pb.gz

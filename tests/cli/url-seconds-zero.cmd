$PROFDIFF top --seconds 0 examples/bad.pb.gz

$PROFDIFF top --by-label "" examples/bad.pb.gz

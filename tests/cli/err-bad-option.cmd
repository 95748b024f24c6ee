$PROFDIFF top --frobnicate examples/bad.pb.gz

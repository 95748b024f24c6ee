$PROFDIFF top --max-depth 4 examples/bad.pb.gz

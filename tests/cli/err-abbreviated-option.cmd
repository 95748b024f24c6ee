$PROFDIFF top --gran=files examples/bad.pb.gz

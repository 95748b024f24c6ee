$PROFDIFF top --tag span_id examples/bad.pb.gz

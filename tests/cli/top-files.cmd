$PROFDIFF top --granularity=files -n 5 examples/bad.pb.gz

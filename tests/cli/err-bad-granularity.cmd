$PROFDIFF top --granularity=modules examples/bad.pb.gz

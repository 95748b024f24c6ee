$PROFDIFF top --granularity lines -n 5 examples/bad.pb.gz

$PROFDIFF top --ignore "[" examples/bad.pb.gz

$PROFDIFF top examples/bad.pb.gz

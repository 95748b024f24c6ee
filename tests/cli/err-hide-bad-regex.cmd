$PROFDIFF top --hide "a[" examples/bad.pb.gz

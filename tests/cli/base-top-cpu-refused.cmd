$PROFDIFF top --base examples/good.pb.gz examples/bad.pb.gz

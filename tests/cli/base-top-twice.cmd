$PROFDIFF top --base examples/good.pb.gz --base examples/bad.pb.gz examples/bad2.pb.gz

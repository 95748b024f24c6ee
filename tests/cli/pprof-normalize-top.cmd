$PROFDIFF top -normalize examples/good.pb.gz

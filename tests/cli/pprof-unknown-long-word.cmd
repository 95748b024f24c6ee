$PROFDIFF top -quiet examples/good.pb.gz

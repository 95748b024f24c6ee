$PROFDIFF top -png examples/good.pb.gz

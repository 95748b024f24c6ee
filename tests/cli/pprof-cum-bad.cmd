$PROFDIFF top -cum=yes examples/good.pb.gz

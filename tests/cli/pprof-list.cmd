$PROFDIFF top -list=main examples/good.pb.gz

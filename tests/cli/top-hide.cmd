$PROFDIFF top -n 6 --hide "^runtime\\." examples/bad.pb.gz

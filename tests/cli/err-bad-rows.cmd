$PROFDIFF top -n -3 examples/bad.pb.gz

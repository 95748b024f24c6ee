$PROFDIFF top -i 7 examples/bad.pb.gz

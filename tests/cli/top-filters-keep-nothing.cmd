$PROFDIFF top -n 3 --ignore . examples/bad.pb.gz

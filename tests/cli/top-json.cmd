$PROFDIFF top -f json -n 5 examples/bad.pb.gz

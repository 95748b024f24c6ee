$PROFDIFF top -n 3 examples/idle.pb.gz

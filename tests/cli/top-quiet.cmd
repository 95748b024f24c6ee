$PROFDIFF top -q -n 3 examples/idle.pb.gz

$PROFDIFF top --format=csv -n 5 examples/bad.pb.gz

$PROFDIFF top --unit ms -f svg examples/good.pb.gz

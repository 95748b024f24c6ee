$PROFDIFF top --unit ms -f folded examples/good.pb.gz

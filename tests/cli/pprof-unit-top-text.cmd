$PROFDIFF top -q -n 4 --unit ms examples/good.pb.gz

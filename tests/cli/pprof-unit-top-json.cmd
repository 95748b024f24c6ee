$PROFDIFF top -q -n 2 --unit ms -f json examples/good.pb.gz

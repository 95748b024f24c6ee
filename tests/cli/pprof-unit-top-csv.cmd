$PROFDIFF top -q -n 3 --unit s -f csv examples/good.pb.gz

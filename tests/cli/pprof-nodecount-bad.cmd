$PROFDIFF top -nodecount=five examples/good.pb.gz

$PROFDIFF top examples/good.pb.gz -nodecount

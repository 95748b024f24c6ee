$PROFDIFF top -n 5 examples/good.pb.gz examples/good2.pb.gz

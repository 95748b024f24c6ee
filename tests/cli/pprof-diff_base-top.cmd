$PROFDIFF top -diff_base=examples/good.pb.gz examples/bad.pb.gz

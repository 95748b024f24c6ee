$PROFDIFF -base=examples/good.pb.gz examples/bad.pb.gz

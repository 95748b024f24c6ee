$PROFDIFF -n 3 examples/good.pb.gz examples/bad.pb.gz

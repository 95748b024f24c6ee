$PROFDIFF dif examples/good.pb.gz examples/bad.pb.gz

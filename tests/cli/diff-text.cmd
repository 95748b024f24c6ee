$PROFDIFF diff examples/good.pb.gz examples/bad.pb.gz

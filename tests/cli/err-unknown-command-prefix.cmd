$PROFDIFF check examples/good.pb.gz examples/bad.pb.gz

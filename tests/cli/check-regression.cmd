$PROFDIFF check-significance examples/good.pb.gz examples/bad.pb.gz

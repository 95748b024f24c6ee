$PROFDIFF check-significance -n 3 examples/bad.pb.gz examples/good.pb.gz

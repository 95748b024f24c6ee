$PROFDIFF check-significance -q --tag endpoint=/x examples/good.pb.gz examples/bad.pb.gz

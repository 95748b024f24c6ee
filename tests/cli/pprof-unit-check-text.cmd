$PROFDIFF check-significance -q -n 2 --unit ms --normalize none examples/good.pb.gz examples/bad.pb.gz

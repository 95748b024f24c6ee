$PROFDIFF check-significance -f markdown -n 3 examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF check-significance -n 3 --show "^main\\." examples/good.pb.gz examples/bad.pb.gz

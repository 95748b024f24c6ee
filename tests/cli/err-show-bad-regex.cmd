$PROFDIFF check-significance --show "*(" examples/good.pb.gz examples/bad.pb.gz

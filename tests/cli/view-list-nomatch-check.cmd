$PROFDIFF check-significance --list nosuchfunction examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF check-significance --peek nosuchfunction examples/good.pb.gz examples/bad.pb.gz

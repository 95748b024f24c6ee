$PROFDIFF series --normalize none examples/good.pb.gz examples/bad.pb.gz

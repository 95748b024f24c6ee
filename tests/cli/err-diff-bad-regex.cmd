$PROFDIFF diff --focus "(" examples/good.pb.gz examples/bad.pb.gz

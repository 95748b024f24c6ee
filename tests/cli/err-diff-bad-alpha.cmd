$PROFDIFF diff --alpha 2 examples/good.pb.gz examples/bad.pb.gz

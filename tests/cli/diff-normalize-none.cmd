$PROFDIFF diff --normalize none -n 5 examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff --normalize=duration -n 5 examples/good.pb.gz examples/bad.pb.gz

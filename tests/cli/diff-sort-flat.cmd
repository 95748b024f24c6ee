$PROFDIFF diff --sort flat -n 5 examples/good.pb.gz examples/bad.pb.gz

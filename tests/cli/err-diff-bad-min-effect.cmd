$PROFDIFF diff --min-effect lots examples/good.pb.gz examples/bad.pb.gz

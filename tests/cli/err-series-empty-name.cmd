$PROFDIFF series examples/good.pb.gz examples/bad.pb.gz,

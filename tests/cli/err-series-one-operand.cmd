$PROFDIFF series examples/good.pb.gz

$PROFDIFF series -f csv examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF check-significance --fail-on=everything examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF series examples/good.pb.gz README.md examples/bad.pb.gz

$PROFDIFF series examples/good.pb.gz examples/bad.pb.gz,tests/data/bad/dangling-function.pb

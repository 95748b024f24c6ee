$PROFDIFF diff examples/good.pb.gz tests/data/bad/dangling-function.pb

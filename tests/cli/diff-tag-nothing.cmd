$PROFDIFF diff -n 3 --tag endpoint=/checkout examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -n 5 --granularity lines examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -f json -n 3 examples/good.pb.gz examples/bad.pb.gz

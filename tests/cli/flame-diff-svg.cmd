$PROFDIFF diff -f svg examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -f folded examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -foo examples/good.pb.gz examples/bad.pb.gz

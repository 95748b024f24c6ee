$PROFDIFF diff -web examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -q -n 3 --unit s --normalize none examples/good.pb.gz examples/bad.pb.gz

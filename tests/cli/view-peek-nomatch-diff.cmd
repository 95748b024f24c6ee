$PROFDIFF diff -n 1 --peek nosuchfunction examples/good.pb.gz examples/bad.pb.gz

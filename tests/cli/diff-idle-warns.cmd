$PROFDIFF diff -n 3 examples/good.pb.gz examples/idle.pb.gz

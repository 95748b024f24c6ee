$PROFDIFF diff -n 0 examples/good.pb.gz examples/idle.pb.gz >/dev/null; $PROFDIFF diff -n 0 examples/idle.pb.gz examples/good.pb.gz >/dev/null

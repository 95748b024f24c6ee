$PROFDIFF diff -f csv -n 5 examples/good.pb.gz examples/bad.pb.gz

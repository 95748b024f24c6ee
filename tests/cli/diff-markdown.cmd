$PROFDIFF diff -f markdown -n 5 examples/good.pb.gz examples/bad.pb.gz

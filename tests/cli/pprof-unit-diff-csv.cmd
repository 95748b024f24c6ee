$PROFDIFF diff -q -n 3 --unit us -f csv examples/good.pb.gz examples/bad.pb.gz

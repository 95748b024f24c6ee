$PROFDIFF diff -n 6 --hide "^(runtime|sort)\\." examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -n 6 --show "^main\\." --relative examples/good.pb.gz examples/bad.pb.gz

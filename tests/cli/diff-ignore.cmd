$PROFDIFF diff --ignore "^sort\\." -n 5 examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff --focus "^main\\.calculateScore$" -n 5 examples/good.pb.gz examples/bad.pb.gz

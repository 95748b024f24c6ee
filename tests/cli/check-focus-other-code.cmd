$PROFDIFF check-significance --min-effect 8 --focus "^main\\.nextRequest$" examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF check-significance --hide "^runtime\\." examples/good.pb.gz examples/good2.pb.gz

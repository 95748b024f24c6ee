$PROFDIFF check-significance --min-effect 8 examples/good.pb.gz examples/good2.pb.gz

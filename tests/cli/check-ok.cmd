$PROFDIFF check-significance --min-effect 15 examples/good.pb.gz examples/good2.pb.gz

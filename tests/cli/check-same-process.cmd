$PROFDIFF check-significance --same-process --min-effect 10 examples/good.pb.gz examples/good2.pb.gz

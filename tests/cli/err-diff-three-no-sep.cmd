$PROFDIFF diff examples/good.pb.gz examples/good2.pb.gz examples/bad.pb.gz

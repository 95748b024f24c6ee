$PROFDIFF check-significance --list normalizeWeights examples/good.pb.gz examples/good2.pb.gz

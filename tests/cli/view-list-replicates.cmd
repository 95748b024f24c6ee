$PROFDIFF diff -q -n 1 --list normalizeWeights --source-path tests/data/src examples/good.pb.gz examples/good2.pb.gz examples/good3.pb.gz -- examples/bad.pb.gz examples/bad2.pb.gz examples/bad3.pb.gz

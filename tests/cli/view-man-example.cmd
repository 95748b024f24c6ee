$PROFDIFF diff --list normalizeWeights --peek normalizeWeights --source-path tests/data/src examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -q -n 1 --list normalizeWeights --source-path tests/data/src examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -q -n 1 -f markdown --list normalizeWeights --source-path tests/data/src examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -q -n 1 -f json --peek normalizeWeights examples/good.pb.gz examples/bad.pb.gz

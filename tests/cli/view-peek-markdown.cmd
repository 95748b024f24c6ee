$PROFDIFF diff -q -n 1 -f markdown --peek normalizeWeights examples/good.pb.gz examples/bad.pb.gz

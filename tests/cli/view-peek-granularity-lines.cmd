$PROFDIFF diff -q -n 1 --granularity lines --peek 'normalizeWeights .*:216' examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -q -n 1 --peek 'normalizeWeights|calculateScore' examples/good.pb.gz examples/bad.pb.gz

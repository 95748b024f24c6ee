$PROFDIFF diff -q -n 1 --requests 1000,2000 --list normalizeWeights examples/good.pb.gz examples/bad.pb.gz

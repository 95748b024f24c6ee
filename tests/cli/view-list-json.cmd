$PROFDIFF diff -q -n 1 -f json --list 'normalizeWeights|sortByRelevance' --source-path tests/data/src examples/good.pb.gz examples/bad.pb.gz

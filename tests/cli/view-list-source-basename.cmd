$PROFDIFF diff -q -n 1 -f json --list sortByRelevance --source-path tests/data/src/pricing examples/good.pb.gz examples/bad.pb.gz

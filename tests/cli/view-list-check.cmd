$PROFDIFF check-significance -f markdown --list sortByRelevance --source-path tests/data/src examples/good.pb.gz examples/bad.pb.gz

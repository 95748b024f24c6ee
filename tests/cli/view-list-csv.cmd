$PROFDIFF diff --list sortByRelevance -f csv examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -q -n 1 --list sortByRelevance --source-path tests/cli examples/good.pb.gz examples/bad.pb.gz

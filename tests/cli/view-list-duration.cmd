$PROFDIFF diff -q -n 1 --normalize duration --list sortByRelevance --source-path tests/data/src examples/good.pb.gz examples/bad.pb.gz

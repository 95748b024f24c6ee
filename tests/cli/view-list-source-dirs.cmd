$PROFDIFF diff -q -n 1 --list sortByRelevance --source-path /nonexistent:tests/data/src examples/good.pb.gz examples/bad.pb.gz

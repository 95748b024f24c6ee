$PROFDIFF diff -q -n 1 --list sortByRelevance examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff -f svg --by-label span_id examples/good.pb.gz examples/bad.pb.gz

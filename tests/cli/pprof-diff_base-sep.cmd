$PROFDIFF diff -diff_base=examples/good.pb.gz examples/good2.pb.gz -- examples/bad.pb.gz

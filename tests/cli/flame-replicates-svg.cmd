$PROFDIFF diff -f svg examples/good.pb.gz examples/good2.pb.gz examples/good3.pb.gz -- examples/bad.pb.gz examples/bad2.pb.gz examples/bad3.pb.gz

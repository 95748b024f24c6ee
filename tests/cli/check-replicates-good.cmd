$PROFDIFF check-significance examples/good.pb.gz examples/good2.pb.gz -- examples/good3.pb.gz; echo "status $?"

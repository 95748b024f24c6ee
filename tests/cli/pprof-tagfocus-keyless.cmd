$PROFDIFF diff -tagfocus=/checkout examples/good.pb.gz examples/bad.pb.gz

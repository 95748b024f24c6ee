$PROFDIFF diff -q -f svg --hide "^runtime\\." --tag-ignore x=y examples/good.pb.gz examples/bad.pb.gz | grep -o "Filters: [^<]*"

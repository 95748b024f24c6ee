$PROFDIFF diff --tag-ignore "k=a,(" examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF diff --list 'a(' examples/good.pb.gz examples/bad.pb.gz

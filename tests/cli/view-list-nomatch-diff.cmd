$PROFDIFF diff -n 1 --list nosuchfunction examples/good.pb.gz examples/bad.pb.gz

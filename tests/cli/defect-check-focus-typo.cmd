$PROFDIFF check-significance --focus '^mian\.' examples/good.pb.gz examples/bad.pb.gz

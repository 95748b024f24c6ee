$PROFDIFF diff --list x --by-label foo examples/good.pb.gz examples/bad.pb.gz

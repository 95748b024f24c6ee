$PROFDIFF check-significance -n 3 --noinlines examples/good.pb.gz examples/bad.pb.gz

$PROFDIFF check-significance -q -f markdown -n 1 examples/good.pb.gz examples/idle.pb.gz

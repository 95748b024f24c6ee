$PROFDIFF diff examples/good.pb.gz

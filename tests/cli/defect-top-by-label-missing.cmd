$PROFDIFF top --by-label nokey examples/good.pb.gz

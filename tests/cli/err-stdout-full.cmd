$PROFDIFF top examples/bad.pb.gz > /dev/full

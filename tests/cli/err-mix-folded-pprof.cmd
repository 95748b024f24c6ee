$PROFDIFF top tests/data/folded/pyspy.folded examples/bad.pb.gz

$PROFDIFF top -f folded examples/bad.pb.gz

$PROFDIFF top -f folded --by-label span_id examples/bad.pb.gz

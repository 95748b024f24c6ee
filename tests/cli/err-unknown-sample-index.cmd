$PROFDIFF top -i nosuch examples/bad.pb.gz

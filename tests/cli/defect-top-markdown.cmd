$PROFDIFF top -q -f markdown -n 4 examples/bad.pb.gz

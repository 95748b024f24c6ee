$PROFDIFF top -n 5 --focus "calculateScore" examples/bad.pb.gz

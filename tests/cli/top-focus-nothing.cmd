$PROFDIFF top -n 3 --focus nosuchfunction examples/bad.pb.gz

$PROFDIFF top -n 6 --show "^main\\." --relative examples/bad.pb.gz

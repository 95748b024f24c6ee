$PROFDIFF top -n 6 --show "^main\\." --cum examples/bad.pb.gz

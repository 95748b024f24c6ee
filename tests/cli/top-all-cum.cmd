$PROFDIFF top -n 0 --cum examples/good.pb.gz

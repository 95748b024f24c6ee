$PROFDIFF top -q -f markdown -n 3 --cum --focus "^main\\." examples/good.pb.gz examples/good2.pb.gz

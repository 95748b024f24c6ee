$PROFDIFF top -http=:8080 examples/good.pb.gz

$PROFDIFF top -unit=parsecs examples/good.pb.gz

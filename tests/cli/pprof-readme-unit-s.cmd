$PROFDIFF top -q -nodecount 3 -unit=s examples/good.pb.gz

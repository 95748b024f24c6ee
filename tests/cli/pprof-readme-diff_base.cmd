$PROFDIFF -q -diff_base=examples/good.pb.gz examples/bad.pb.gz -nodecount=5

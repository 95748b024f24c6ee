$PROFDIFF tpo examples/bad.pb.gz

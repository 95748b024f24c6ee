$PROFDIFF spans -q tests/data/spans/code.pb.gz

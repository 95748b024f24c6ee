$PROFDIFF spans -q --trace tests/data/spans/bad/noid.json tests/data/spans/code.pb.gz

$PROFDIFF spans -q --trace tests/data/spans/bad/hexid.json tests/data/spans/code.pb.gz

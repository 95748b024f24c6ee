$PROFDIFF spans -q --trace tests/data/spans/bad/notjson.json tests/data/spans/code.pb.gz

$PROFDIFF spans -q --trace tests/data/spans/bad/time.json tests/data/spans/code.pb.gz

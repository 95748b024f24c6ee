$PROFDIFF spans -q --trace tests/data/spans/bad/shape.json tests/data/spans/code.pb.gz

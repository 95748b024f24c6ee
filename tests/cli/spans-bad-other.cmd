$PROFDIFF spans -q --trace tests/data/spans/bad/other.json tests/data/spans/code.pb.gz
